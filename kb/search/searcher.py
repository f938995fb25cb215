"""Search: a question in, ranked rule leaves out, each with its citation and a highlighted snippet.

Two passes. Whoosh scores every leaf with BM25F over the weighted query terms
(:mod:`rulekb.kb.search.query`) across the fields ``title`` (the heading, boosted), ``path`` (the headings
above), ``text``, ``aliases`` (the concepts' renderings and aliases) and the concept ids in
``concepts``/``defines``; the query is built from ``whoosh.query`` objects, never parsed from
user text. Then the best :data:`RERANK_DEPTH` leaves are reranked in Python with features
precomputed at build time (:class:`rulekb.kb.search.index.NodeFeatures`):

* the leaf *defines* a recognised concept (its heading or the heading above names it),
* the query's words in the heading path (how much of the question the breadcrumb answers),
* the detected edition (exact, or a neighbour: 6th ↔ 7th ↔ Kill Team),
* numbers of the question printed in the leaf (``2"``, ``2d6``, ``3+``),
* kind and size: rules and summaries over examples, the first paragraph under a heading.

The index is opened read-only once per process and build (:func:`get_index`), after any fork.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh import query as wq
from whoosh.scoring import BM25F, bm25

from rulekb.corpus.errors import QueryError
from rulekb.kb.build import default_build_dir, require_build
from rulekb.kb.faq.entries import citation_node_ids
from rulekb.kb.knowledge import open_knowledge_base
from rulekb.kb.search.index import NodeFeatures, open_whoosh, process_key, read_features
from rulekb.kb.search.query import (
    NEAR_EDITIONS,
    ConceptMatcher,
    ParsedQuery,
    Speller,
    Vocabulary,
    default_matcher,
    load_vocabulary,
    parse_query,
)
from rulekb.kb.text.analysis import lemma_key, tokens

__all__ = [
    "RERANK_DEPTH",
    "Hit",
    "KnowledgeIndex",
    "SearchResult",
    "fill_snippets",
    "get_index",
    "make_hit",
    "search",
]

#: How many Whoosh hits the Python reranker looks at.
RERANK_DEPTH = 60
#: Most hits a caller may ask for.
MAX_LIMIT = 100

# Ranking weights (tuned on tests/data/dev.jsonl only; see docs/search.md).
#: BM25 parameters: length normalisation (per field where it differs) and term saturation.
BM25_B = 0.5
BM25_K1 = 1.0
FIELD_B = {"title": 0.6, "path": 0.6, "aliases": 0.9, "questions": 0.9}
#: Score a term in the heading, path and aliases with its IDF over the text (true BM25F).
IDF_FROM_TEXT = True
#: A concept named in at most this many leaves has full weight.
CONCEPT_FULL_WEIGHT_AT = 6
W_DEFINES = 0.4
#: A concept named by ambiguous words (one of k concepts of the same words) weighs share ** this.
CONCEPT_SHARE_POWER = 1.0
W_MENTIONS = 0.12
W_HEADING = 0.9
W_EDITION = 1.0
W_EDITION_NEAR = 0.3
W_NUMBERS = 0.25
W_FIRST = 0.08
#: Share of the question's words the leaf (or its headings, or concepts) carries, and the best
#: share held by one sentence: words that meet in one sentence answer together.
W_COVER = 1.0
W_SENTENCE = 1.25
#: With no edition named, another edition's best leaf scoring at least this share of the first
#: hit's score is moved up to second place (0 switches this off).
DIVERSIFY = 0.7
KIND_FACTOR = {"rule": 1.0, "summary": 0.97, "list": 0.95, "table": 0.9, "example": 0.8}
FIELDS = (("title", 1.0), ("path", 1.0), ("text", 1.0), ("aliases", 1.0), ("questions", 1.0))
EXPANSION_FIELDS = (("title", 1.0), ("text", 1.0))


@dataclass
class Hit:
    """One ranked rule leaf with what a citation needs."""

    node_id: str
    title: str
    heading: str
    breadcrumb: list[str]
    edition: str
    source_id: str
    source_sha256: str
    lines: tuple[int, int]
    page: int | None
    kind: str
    score: float
    snippet: str
    """The best passage with matched words in ``<b>…</b>`` (HTML-escaped)."""

    def to_json(self) -> dict[str, Any]:
        """The hit as the ``ask``/``search`` JSON contract prints it."""
        return {
            "node_id": self.node_id,
            "title": self.title,
            "heading": self.heading,
            "breadcrumb": self.breadcrumb,
            "edition": self.edition,
            "source_id": self.source_id,
            "source_sha256": self.source_sha256,
            "lines": list(self.lines),
            "page": self.page,
            "kind": self.kind,
            "score": round(self.score, 4),
            "snippet": self.snippet,
        }


@dataclass
class SearchResult:
    parsed: ParsedQuery
    hits: list[Hit] = field(default_factory=list)

    @property
    def did_you_mean(self) -> str | None:
        return self.parsed.did_you_mean


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
        self.order = {node_id: position for position, node_id in enumerate(self.features)}
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
        self.concept_nodes: dict[str, dict[str, list[str]]] = data["concept_nodes"]
        self.vocabulary: frozenset[str] = frozenset(data["vocabulary"])
        self.speller = Speller(data["surface"], self.vocabulary)
        self.variants: dict[str, list[str]] = data.get("variants", {})
        # the concept matcher of the same build as the index (a build without termbase.json: the project's)
        built = open_knowledge_base(self.build_dir)
        self.matcher: ConceptMatcher = built.concept_matcher or default_matcher()
        self.synonyms: Vocabulary = built.synonyms or load_vocabulary()
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
        """The analysed terms of a short phrase (``rulekb.kb.text.analysis`` caches the lemmas)."""
        return lemma_key(phrase)

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
        """Inverse document frequency of a lemma over the leaves' text (cached)."""
        value = self._idf.get(term)
        if value is None:
            value = self._idf[term] = float(self.searcher.idf("text", term))
        return value

    def parse(self, question: str, edition: str | None = None) -> ParsedQuery:
        return parse_query(
            question,
            edition=edition,
            matcher=self.matcher,
            speller=self.speller,
            vocabulary=self.vocabulary,
            variants=self.variants,
            synonyms=self.synonyms,
        )


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


def clauses(parsed: ParsedQuery, index: KnowledgeIndex | None = None) -> list[tuple[str, str, float]]:
    """The weighted ``(field, term, boost)`` clauses of a query, OR-ed (their scores add up).

    Question words («как», «можно», «the») are left out: they match most leaves, cost time and
    decide nothing. Expansions (synonyms, translations, renderings) search the text and the
    heading only. Terms the index does not know are skipped.
    """
    result: list[tuple[str, str, float]] = []
    for term in parsed.terms:
        if term.origin == "light":
            continue
        fields = FIELDS if term.origin in ("word", "correction", "variant") else EXPANSION_FIELDS
        for name, boost in fields:
            if index is not None:
                if term.text not in index.field_terms[name]:
                    continue
                if name != "text" and IDF_FROM_TEXT:
                    # one IDF per term, as BM25F has it: a word common in the rules stays weak
                    # in a heading, where Whoosh alone would find it rare
                    boost *= index.idf_ratio(name, term.text)
            result.append((name, term.text, term.weight * boost))
    for concept in parsed.concepts:
        weight = index.concept_weight(concept) if index is not None else 1.0
        weight *= parsed.concept_share.get(concept, 1.0) ** CONCEPT_SHARE_POWER
        result.append(("concepts", concept, 0.6 * weight))
        result.append(("defines", concept, 1.2 * weight))
    return result


def _whoosh_query(parsed: ParsedQuery, index: KnowledgeIndex | None = None) -> wq.Query | None:
    """The same clauses as Whoosh query objects (never parsed from user text)."""
    terms = [wq.Term(name, text, boost=boost) for name, text, boost in clauses(parsed, index)]
    return wq.Or(terms) if terms else None


def bm25_scores(index: KnowledgeIndex, parsed: ParsedQuery) -> list[tuple[float, int]]:
    """``(score, docnum)`` of every matching leaf, BM25F over the query's clauses."""
    allowed = index.edition_docs.get(parsed.explicit_edition) if parsed.explicit_edition else None
    totals: dict[int, float] = {}
    for name, term, boost in clauses(parsed, index):
        for docnum, score in index.postings.scores(name, term):
            totals[docnum] = totals.get(docnum, 0.0) + score * boost
    if allowed is not None:
        return [(score, docnum) for docnum, score in totals.items() if docnum in allowed]
    return [(score, docnum) for docnum, score in totals.items()]


def whoosh_scores(index: KnowledgeIndex, parsed: ParsedQuery) -> list[tuple[float, int]]:
    """The same scores computed by Whoosh's own searcher (slower; the reference for tests)."""
    query = _whoosh_query(parsed, index)
    if query is None:
        return []
    filter_query = wq.Term("edition", parsed.explicit_edition) if parsed.explicit_edition else None
    results = index.searcher.search(query, limit=None, filter=filter_query, terms=False)
    return [(float(score), docnum) for score, docnum in results.top_n]


@dataclass
class _QueryFeatures:
    """What the reranker needs of a query, computed once per query."""

    words: dict[str, float]
    """Lemma → weight × IDF of the question's own words (and translations)."""
    total: float
    units: list[tuple[frozenset[str], float, str | None]]
    """One per content word: the terms that stand for it, its IDF weight, its concept."""
    units_total: float
    concept_weights: list[tuple[str, float]]

    @classmethod
    def of(cls, index: KnowledgeIndex, parsed: ParsedQuery) -> _QueryFeatures:
        words = {
            t.text: t.weight * index.idf(t.text) for t in parsed.terms if t.origin in ("word", "correction", "english", "variant")
        }
        units: list[tuple[frozenset[str], float, str | None]] = []
        seen: set[str] = set()
        for word in parsed.words:
            if word.light or word.lemma in seen:
                continue
            seen.add(word.lemma)
            known = [a for a in word.alternatives if a in index.vocabulary]
            if known or word.concept is not None:
                weight = max((index.idf(a) for a in known), default=index.max_idf)
                units.append((frozenset(word.alternatives), weight, word.concept))
        return cls(
            words=words,
            total=sum(words.values()) or 1.0,
            units=units,
            units_total=sum(w for _, w, _ in units) or 1.0,
            concept_weights=[
                (c, index.concept_weight(c) * parsed.concept_share.get(c, 1.0) ** CONCEPT_SHARE_POWER)
                for c in parsed.concepts
            ],
        )


def _rerank(
    index: KnowledgeIndex, parsed: ParsedQuery, query: _QueryFeatures, features: NodeFeatures, base: float
) -> float:
    heading = set(features.heading_lemmas)
    heading_share = sum(w for t, w in query.words.items() if t in heading) / query.total
    bonus = W_HEADING * heading_share
    if query.concept_weights:
        total_weight = sum(w for _, w in query.concept_weights) or 1.0
        defined = sum(w for c, w in query.concept_weights if c in features.defines)
        mentioned = sum(w for c, w in query.concept_weights if c in features.concepts and c not in features.defines)
        bonus += (W_DEFINES * defined + W_MENTIONS * mentioned) / total_weight
    if (W_COVER or W_SENTENCE) and query.units:
        here = index.text_terms[features.id] | heading
        concepts = set(features.concepts) | set(features.defines)
        covered = sum(
            w for alternatives, w, concept in query.units if (concept in concepts) or not alternatives.isdisjoint(here)
        )
        bonus += W_COVER * covered / query.units_total
        best = 0.0
        for sentence in index.sentence_sets[features.id]:
            share = sum(w for alternatives, w, _ in query.units if not alternatives.isdisjoint(sentence))
            best = max(best, share)
        bonus += W_SENTENCE * best / query.units_total
    factor = KIND_FACTOR.get(features.kind, 0.9)
    editions = parsed.editions
    if editions:
        if features.edition in editions:
            factor *= 1.0 + W_EDITION
        elif any(features.edition in NEAR_EDITIONS.get(e, ()) for e in editions):
            factor *= 1.0 + W_EDITION_NEAR
    if parsed.numbers:
        text_terms = index.text_terms[features.id]
        found = sum(1 for number in parsed.numbers if number in text_terms)
        bonus += W_NUMBERS * found / len(parsed.numbers)
    if features.first:
        bonus += W_FIRST
    return base * (1.0 + bonus) * factor


@lru_cache(maxsize=4096)
def _token_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """The analysed terms of a leaf's text with their spans (a leaf is analysed once per process)."""
    return tuple((t.text, t.start, t.end) for t in tokens(text))


def snippet(features: NodeFeatures, terms: set[str], width: int = 240) -> str:
    """The leaf's best window of about ``width`` characters, matched words in ``<b>…</b>``."""
    text = features.text
    marks: list[tuple[int, int]] = [(a, b) for term, a, b in _token_spans(text) if term in terms]
    if len(text) <= width:
        start, end = 0, len(text)
    else:
        best_start, best_count = 0, -1
        for mark_start, _ in marks or [(0, 0)]:
            window_start = max(0, mark_start - width // 4)
            count = sum(1 for s, e in marks if s >= window_start and e <= window_start + width)
            if count > best_count:
                best_start, best_count = window_start, count
        start, end = best_start, min(len(text), best_start + width)
        while start > 0 and not text[start - 1].isspace():
            start -= 1
    parts: list[str] = ["…" if start > 0 else ""]
    cursor = start
    for mark_start, mark_end in marks:
        if mark_start < start or mark_end > end:
            continue
        parts.append(html.escape(text[cursor:mark_start]))
        parts.append(f"<b>{html.escape(text[mark_start:mark_end])}</b>")
        cursor = mark_end
    parts.append(html.escape(text[cursor:end]))
    if end < len(text):
        parts.append("…")
    return " ".join("".join(parts).split())


def search_parsed(
    index: KnowledgeIndex,
    parsed: ParsedQuery,
    limit: int = 10,
    *,
    rerank: bool = True,
    snippets: bool = True,
    use_whoosh: bool = False,
) -> list[Hit]:
    """Rank the leaves for an already parsed query (``snippets=False`` leaves them empty)."""
    matched = (whoosh_scores if use_whoosh else bm25_scores)(index, parsed)
    top = sorted(matched, key=lambda pair: (-pair[0], pair[1]))[: max(RERANK_DEPTH, limit)]
    scored: list[tuple[float, int, NodeFeatures]] = []
    query = _QueryFeatures.of(index, parsed) if rerank else None
    for base, docnum in top:
        features = index.by_docnum[docnum]
        score = _rerank(index, parsed, query, features, float(base)) if query is not None else float(base)
        scored.append((score, index.order[features.id], features))
    scored.sort(key=lambda item: (-item[0], item[1]))
    if parsed.compare and len(parsed.editions) > 1:
        scored = _lead_with_each_edition(scored, parsed.editions)
    elif not parsed.editions and DIVERSIFY:
        scored = _diversify(scored)
    hits = [make_hit(features, score) for score, _, features in scored[:limit]]
    if snippets:
        fill_snippets(parsed, hits, index)
    return hits


def _lead_with_each_edition(
    scored: list[tuple[float, int, NodeFeatures]], editions: Sequence[str]
) -> list[tuple[float, int, NodeFeatures]]:
    """A comparison: the best leaf of each named edition first (in score order), then the rest."""
    leaders: list[tuple[float, int, NodeFeatures]] = []
    for edition in editions:
        best = next((item for item in scored if item[2].edition == edition), None)
        if best is not None and best not in leaders:
            leaders.append(best)
    leaders.sort(key=lambda item: (-item[0], item[1]))
    return leaders + [item for item in scored if item not in leaders]


def _diversify(scored: list[tuple[float, int, NodeFeatures]]) -> list[tuple[float, int, NodeFeatures]]:
    """With no edition named, let the best leaf of another edition take second place when it scores
    nearly as well as the first: the player sees both editions' rule before the first one's details."""
    if len(scored) < 3:
        return scored
    top_score, _, top = scored[0]
    for position in range(2, min(len(scored), RERANK_DEPTH)):
        score, _, features = scored[position]
        if score < DIVERSIFY * top_score:
            break
        if features.edition != top.edition and all(f.edition == top.edition for _, _, f in scored[1:position]):
            return [scored[0], scored[position], *scored[1:position], *scored[position + 1 :]]
    return scored


def make_hit(features: NodeFeatures, score: float, text: str = "") -> Hit:
    return Hit(
        node_id=features.id,
        title=features.title,
        heading=features.heading,
        breadcrumb=list(features.breadcrumb),
        edition=features.edition,
        source_id=features.source_id,
        source_sha256=features.source_sha256,
        lines=features.lines,
        page=features.page,
        kind=features.kind,
        score=round(score, 6),
        snippet=text,
    )


def fill_snippets(parsed: ParsedQuery, hits: list[Hit], index: KnowledgeIndex) -> None:
    """Set each hit's highlighted snippet (done only for the hits that are shown)."""
    terms = {t.text for t in parsed.terms if t.origin != "light"}
    for concept in parsed.concepts:
        for phrase in parsed.concept_phrases.get(concept, ()):
            terms.update(index.lemmas_of(phrase))
    for hit in hits:
        if not hit.snippet:
            hit.snippet = snippet(index.features[hit.node_id], terms)


def check_limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, got {limit!r}.")
    return limit


def search(
    question: str,
    *,
    edition: str | None = None,
    limit: int = 10,
    build_dir: Path | None = None,
) -> SearchResult:
    """Search the built knowledge base; an empty or wordless question gives no hits."""
    check_limit(limit)
    index = get_index(build_dir)
    parsed = index.parse(question, edition)
    return SearchResult(parsed, search_parsed(index, parsed, limit))
