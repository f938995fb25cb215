"""The opened index of one build (:class:`KnowledgeIndex`): Whoosh searcher, node features, matchers.

The index is opened read-only once per process and build (:func:`get_index`), after any fork.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh.scoring import BM25F, bm25

from rulekb.kb.faq.citations import citation_node_ids
from rulekb.kb.knowledge import open_knowledge_base
from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.index import open_whoosh, process_key, read_features
from rulekb.kb.search.query import (
    ConceptMatcher,
    ParsedQuery,
    Speller,
    Vocabulary,
    default_matcher,
    load_vocabulary,
    parse_query,
)
from rulekb.kb.search.query_setup import SetupConcepts, project_setup_concepts, setup_factors
from rulekb.kb.search.readings import use_built_readings
from rulekb.kb.search.weights import BM25_B, BM25_K1, CONCEPT_FULL_WEIGHT_AT, FIELD_B, FIELDS
from rulekb.kb.store import default_build_dir, require_build
from rulekb.kb.text.analysis import lemma_key

__all__ = ["KnowledgeIndex", "LeafSets", "Postings", "get_index"]


class LeafSets:
    """What the reranker reads of one leaf, as sets built once when the index opens: every question
    only looks them up (:func:`rulekb.kb.search.ranking.search_parsed` reranks 60 leaves a question)."""

    __slots__ = ("concepts", "defines", "heading", "mentions", "sentences", "term_sentences", "text")

    def __init__(self, features: NodeFeatures, text: frozenset[str], sentences: tuple[frozenset[str], ...]) -> None:
        self.heading: frozenset[str] = frozenset(features.heading_lemmas)
        """Lemmas of the leaf's headings."""
        self.text = text
        """Lemmas of the leaf's text."""
        self.sentences = sentences
        """Each sentence's lemmas, in order."""
        holders: dict[str, list[int]] = {}
        for position, sentence in enumerate(sentences):
            for term in sentence:
                holders.setdefault(term, []).append(position)
        self.term_sentences: dict[str, tuple[int, ...]] = {term: tuple(found) for term, found in holders.items()}
        """Lemma of the text → the sentences that hold it."""
        self.defines: frozenset[str] = frozenset(features.defines)
        self.mentions: frozenset[str] = frozenset(features.concepts) - self.defines
        """Concepts the leaf mentions and does not define."""
        self.concepts: frozenset[str] = frozenset(features.concepts) | self.defines
        """Concepts the leaf mentions or defines."""


class KnowledgeIndex:
    """The opened index of one build: Whoosh searcher, node features, matchers (one per process)."""

    def __init__(self, build_dir: Path) -> None:
        self.build_dir = require_build(build_dir)
        self.ix = open_whoosh(self.build_dir)
        self.searcher = self.ix.searcher(weighting=BM25F(B=BM25_B, K1=BM25_K1, **{f"{f}_B": b for f, b in FIELD_B.items()}))
        self.postings = Postings(self.searcher)
        data = read_features(self.build_dir)
        self.features: dict[str, NodeFeatures] = {
            n["id"]: NodeFeatures.from_json(n) for n in data["nodes"]
        }
        #: The leaf ids in document order (the features are stored in that order), and each id's position.
        self.ordered: list[str] = list(self.features)
        self.order = {node_id: position for position, node_id in enumerate(self.ordered)}
        self.by_docnum: dict[int, NodeFeatures] = {
            docnum: self.features[fields["id"]] for docnum, fields in self.searcher.iter_docs()
        }
        self.edition_docs: dict[str, frozenset[int]] = {}
        for docnum, features in self.by_docnum.items():
            self.edition_docs[features.edition] = self.edition_docs.get(features.edition, frozenset()) | {docnum}
        self.sentence_sets: dict[str, tuple[frozenset[str], ...]] = {
            f.id: tuple(frozenset(sentence) for sentence in f.sentence_lemmas) for f in self.features.values()
        }
        self.text_terms: dict[str, frozenset[str]] = {
            f.id: frozenset(t for sentence in f.sentence_lemmas for t in sentence) for f in self.features.values()
        }
        self.leaf_sets: dict[str, LeafSets] = {
            f.id: LeafSets(f, self.text_terms[f.id], self.sentence_sets[f.id]) for f in self.features.values()
        }
        self.concept_nodes: dict[str, dict[str, list[str]]] = data["concept_nodes"]
        self.vocabulary: frozenset[str] = frozenset(data["vocabulary"])
        self.speller = Speller(data["surface"], self.vocabulary)
        self.variants: dict[str, list[str]] = data.get("variants", {})
        use_built_readings(data.get("readings", {}))  # a build before the table: every form is analysed
        # the concept matcher of the same build as the index (a build without termbase.json: the project's)
        built = open_knowledge_base(self.build_dir)
        self.matcher: ConceptMatcher = built.concept_matcher or default_matcher()
        self.synonyms: Vocabulary = built.synonyms or load_vocabulary()
        # the concepts a situation's set-up keeps at full weight, from the same build's termbase
        termbase = built.termbase
        self.setup_concepts = SetupConcepts.of(termbase) if termbase is not None else project_setup_concepts()
        self.by_source: dict[str, list[NodeFeatures]] = {}
        for features in self.features.values():
            self.by_source.setdefault(features.source_id, []).append(features)
        reader = self.searcher.reader()
        self.field_terms: dict[str, frozenset[str]] = {
            name: frozenset(reader.field_terms(name)) for name, _ in FIELDS
        }
        self._idf: dict[str, float] = {}
        self._concept_weight: dict[str, float] = {}
        self.max_idf = float(self.searcher.idf("text", "\u0000"))
        self.concept_counts: dict[str, int] = {}
        for f in self.features.values():
            for concept in set(f.concepts) | set(f.defines):
                self.concept_counts[concept] = self.concept_counts.get(concept, 0) + 1
        #: The build's checked FAQ and, per entry, the indexed leaves its citations overlap.
        self.faq = built.faq
        self.faq_leaves: dict[str, list[str]] = {entry.id: self._cited_leaves(entry.citations) for entry in self.faq}

    def _cited_leaves(self, citations: Sequence[Any]) -> list[str]:
        """Indexed leaves that overlap the citations, in citation order."""
        result: dict[str, None] = {}
        for citation in citations:
            for node_id in citation_node_ids(citation, self.by_source.get(citation.source, ())):
                result.setdefault(node_id, None)
        return list(result)

    def lemmas_of(self, phrase: str) -> tuple[str, ...]:
        """The analysed terms of a short phrase (a concept's phrase: the same few come back question
        after question), cached per process."""
        return _phrase_lemmas(phrase)

    def concept_weight(self, concept: str) -> float:
        """How specific a concept is, in (0, 1]: 1 for one named in a handful of leaves, less for
        «unit» or «model», which half the rules mention (cached)."""
        value = self._concept_weight.get(concept)
        if value is None:
            count = len(self.features)
            mentioned = self.concept_counts.get(concept, 0)
            value = math.log(1 + count / (mentioned + 1)) / math.log(1 + count / CONCEPT_FULL_WEIGHT_AT)
            value = self._concept_weight[concept] = max(0.05, min(1.0, value))
        return value

    def idf_ratio(self, field: str, term: str) -> float:
        """IDF of ``term`` in the text over its IDF in ``field`` (capped), cached."""
        key = f"{field}\u0000{term}"
        value = self._idf.get(key)
        if value is None:
            text_idf = self.idf(term) if term in self.field_terms["text"] else self.max_idf
            value = self._idf[key] = min(1.5, text_idf / float(self.searcher.idf(field, term)))
        return value

    def idf(self, term: str) -> float:
        """Inverse document frequency of a lemma over the leaves' text (cached). A term no leaf holds
        has the largest, :attr:`max_idf` — what Whoosh computes for a document frequency of 0 —
        without asking Whoosh, and is not kept: players' words outside the texts are endless."""
        value = self._idf.get(term)
        if value is None:
            if term not in self.field_terms["text"]:
                return self.max_idf
            value = self._idf[term] = float(self.searcher.idf("text", term))
        return value

    def parse(self, question: str, edition: str | None = None) -> ParsedQuery:
        parsed = parse_query(
            question,
            edition=edition,
            matcher=self.matcher,
            speller=self.speller,
            vocabulary=self.vocabulary,
            variants=self.variants,
            synonyms=self.synonyms,
        )
        # the words told only in a situation's set-up, and what they weigh in the reranker
        parsed.setup_terms, parsed.setup_concepts = setup_factors(parsed, self.setup_concepts)
        return parsed


@lru_cache(maxsize=8192)
def _phrase_lemmas(phrase: str) -> tuple[str, ...]:
    return lemma_key(phrase)


_INDEXES: dict[tuple[int, str, int], KnowledgeIndex] = {}


def get_index(build_dir: Path | None = None) -> KnowledgeIndex:
    """The :class:`KnowledgeIndex` of ``build_dir`` for this process, opened on first use.

    Keyed by process id, directory and manifest time, so a forked worker opens its own and a
    rebuilt knowledge base is picked up.
    """
    path = require_build(build_dir or default_build_dir())
    key = process_key(path)
    index = _INDEXES.get(key)
    if index is None:
        for old in [k for k in _INDEXES if k[1] == key[1] or k[0] != key[0]]:
            stale = _INDEXES.pop(old)
            if old[0] == key[0]:
                stale.searcher.close()
        index = _INDEXES[key] = KnowledgeIndex(path)
    return index


class Postings:
    """BM25F term scores per document, read from the Whoosh index on first use of each term.

    Whoosh's own matchers spend microseconds per posting in Python; over a few hundred leaves it
    is faster to read each term's postings once (weights and field lengths as Whoosh stored
    them), keep every document's BM25 score for the term, and add them up per query. The result
    equals Whoosh's BM25F score for the same clauses (``tests/search`` compares the two).
    """

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self.reader = searcher.reader()
        self._scores: dict[tuple[str, str], tuple[tuple[int, float], ...]] = {}

    def scores(self, field: str, term: str) -> tuple[tuple[int, float], ...]:
        key = (field, term)
        cached = self._scores.get(key)
        if cached is not None:
            return cached
        if (field, term) not in self.reader:
            self._scores[key] = ()
            return ()
        idf = float(self.searcher.idf(field, term))
        avg = self.searcher.avg_field_length(field) or 1.0
        b = FIELD_B.get(field, BM25_B)
        result = []
        for docnum, weight in self.reader.postings(field, term).items_as("weight"):
            length = self.reader.doc_field_length(docnum, field, 1)
            result.append((docnum, bm25(idf, weight, length, avg, b, BM25_K1)))
        cached = self._scores[key] = tuple(result)
        return cached
