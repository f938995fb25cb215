"""Ranking: BM25F over the weighted query clauses, then a rerank of the best leaves.

Whoosh's BM25F scores (or :class:`rulekb.kb.search.knowledge_index.Postings`, which computes the same
from the postings) are reranked in Python with features precomputed at build time
(:class:`rulekb.kb.search.features.NodeFeatures`); the weights are in :mod:`rulekb.kb.search.weights`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from whoosh import query as wq

from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.hits import Hit, make_hit
from rulekb.kb.search.knowledge_index import KnowledgeIndex, LeafSets
from rulekb.kb.search.parsed import QueryWord
from rulekb.kb.search.query import NEAR_EDITIONS, ParsedQuery
from rulekb.kb.search.snippets import fill_snippets
from rulekb.kb.search.weights import (
    CONCEPT_SHARE_POWER,
    DIVERSIFY,
    EXPANSION_FIELDS,
    FIELDS,
    IDF_FROM_TEXT,
    IMPLIED_SPECIFICITY,
    IMPLIED_WEIGHT,
    KIND_FACTOR,
    RERANK_DEPTH,
    SECTION_LEADS,
    SECTION_REPEAT,
    W_COVER,
    W_DEFINES,
    W_EDITION,
    W_EDITION_NEAR,
    W_FIRST,
    W_HEADING,
    W_MENTIONS,
    W_NUMBERS,
    W_SENTENCE,
)
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.concepts import ConceptMatcher
from rulekb.kb.text.vocabulary import LIGHT_WORDS

__all__ = ["bm25_scores", "clauses", "content_words", "search_parsed", "whoosh_scores"]


def content_words(index: KnowledgeIndex, parsed: ParsedQuery) -> Iterator[tuple[QueryWord, float | None]]:
    """Each content word of the question once (light words and repeated lemmas skipped), with the IDF
    of its rarest term the index knows (``None`` when it knows none of them)."""
    seen: set[str] = set()
    for word in parsed.words:
        if word.light or word.lemma in seen:
            continue
        seen.add(word.lemma)
        known = [a for a in word.alternatives if a in index.vocabulary]
        yield word, (max(index.idf(a) for a in known) if known else None)


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


@lru_cache(maxsize=8192)
def _title_terms(title: str) -> frozenset[str]:
    """The content lemmas of a heading (question words and numbers left out)."""
    return frozenset(t.text for t in tokens(title) if t.text not in LIGHT_WORDS and not t.text.isdigit())


@lru_cache(maxsize=4096)
def _matcher_renderings(matcher: ConceptMatcher, concept: str) -> tuple[frozenset[str], ...]:
    """The content lemmas of each printed rendering of ``concept`` (cached per matcher: a rebuilt
    index brings a new one)."""
    entry = matcher.concepts.get(concept)
    phrases = entry.phrases if entry is not None else ()
    return tuple(dict.fromkeys(
        lemmas for text, origin, _ in phrases if origin == "rendering" and (lemmas := _title_terms(text))
    ))


def _renderings(index: KnowledgeIndex, concept: str) -> tuple[frozenset[str], ...]:
    return _matcher_renderings(index.matcher, concept)


@dataclass
class _QueryFeatures:
    """What the reranker needs of a query, computed once per query."""

    words: dict[str, float]
    """Lemma → weight × IDF of the question's own words (and translations)."""
    total: float
    units: list[tuple[frozenset[str], float, tuple[str, ...]]]
    """One per content word: the terms that stand for it, its IDF weight, the concepts it names."""
    units_total: float
    concept_weights: list[tuple[str, float]]
    concepts_total: float
    """The sum of the concept weights (1 when it is 0)."""
    unit_terms: frozenset[str]
    """Every term of every unit."""
    unit_masks: dict[str, int]
    """Term → the units it stands for, as bits (unit ``i`` is bit ``i``)."""
    concept_masks: dict[str, int]
    """Concept → the units it names, as bits."""
    implied_masks: dict[str, int]
    """The specific concepts of :attr:`concept_masks`: a leaf defining one carries its units in every
    sentence (the section is about it, whatever words a sentence prints)."""
    heading_renderings: list[tuple[frozenset[str], int]]
    """The lemmas of each printed rendering of a specific concept the question names, with the units
    naming it (bits): a leaf whose headings print the rendering, or whose own heading is the rendering
    or a part of it («СЛУЧАЙНЫЙ» under «случайный выбор» for «рандом»), carries those units in each
    of its sentences."""
    word_terms: frozenset[str]
    """The keys of :attr:`words`."""
    mask_shares: dict[int, float]
    """The summed weight of a set of units (as bits), filled as the reranker meets them."""

    @classmethod
    def of(cls, index: KnowledgeIndex, parsed: ParsedQuery) -> _QueryFeatures:
        setup = parsed.setup_terms  # the words told only in a situation's set-up weigh less here
        words = {
            t.text: t.weight * index.idf(t.text) * setup.get(t.text, 1.0)
            for t in parsed.terms if t.origin in ("word", "correction", "english", "variant")
        }
        units = [(frozenset(word.alternatives), (weight if weight is not None else index.max_idf) * setup.get(word.lemma, 1.0),
                  word.named)
                 for word, weight in content_words(index, parsed) if weight is not None or word.concept is not None]
        masks: dict[str, int] = {}
        concept_masks: dict[str, int] = {}
        for position, (alternatives, _, named) in enumerate(units):
            for term in alternatives:
                masks[term] = masks.get(term, 0) | (1 << position)
            # a word naming several concepts («овервотч») stands for each of them
            for concept in named:
                concept_masks[concept] = concept_masks.get(concept, 0) | (1 << position)
        heading_renderings = [
            (rendering, units_of)
            for concept, units_of in concept_masks.items()
            if index.concept_weight(concept) >= IMPLIED_SPECIFICITY
            for rendering in _renderings(index, concept)
        ]
        concept_weights = [
            (c, index.concept_weight(c) * parsed.concept_share.get(c, 1.0) ** CONCEPT_SHARE_POWER
             * parsed.setup_concepts.get(c, 1.0))
            for c in parsed.concepts
        ]
        return cls(
            words=words,
            total=sum(words.values()) or 1.0,
            units=units,
            units_total=sum(w for _, w, _ in units) or 1.0,
            concept_weights=concept_weights,
            concepts_total=sum(w for _, w in concept_weights) or 1.0,
            unit_terms=frozenset(masks),
            unit_masks=masks,
            concept_masks=concept_masks,
            implied_masks={c: m for c, m in concept_masks.items() if index.concept_weight(c) >= IMPLIED_SPECIFICITY},
            heading_renderings=heading_renderings,
            word_terms=frozenset(words),
            mask_shares={},
        )

    def share(self, mask: int) -> float:
        """The summed weight of the units in ``mask``, added in the units' order (as ``sum`` over
        the units that are in it would)."""
        value = self.mask_shares.get(mask)
        if value is None:
            value = self.mask_shares[mask] = sum(w for i, (_, w, _) in enumerate(self.units) if mask >> i & 1)
        return value

    def cover(self, leaf: LeafSets, leaf_title: str = "") -> tuple[float, float]:
        """The weight of the units the leaf carries (in its text, its headings or as a concept it
        names) and the largest weight of the units one of its sentences carries (0 for none), a
        sentence counting the units its section stands under at :data:`IMPLIED_WEIGHT`
        (:attr:`implied_masks`, :attr:`heading_renderings`; ``leaf_title`` is the leaf's own heading)."""
        masks = self.unit_masks
        in_text = self.unit_terms & leaf.text
        mask = 0
        for concept, units in self.concept_masks.items():
            if concept in leaf.concepts:
                mask |= units
        for term in in_text:
            mask |= masks[term]
        for term in self.unit_terms & leaf.heading:
            mask |= masks[term]
        # the units each sentence of the leaf stands under: a specific concept its heading prints or
        # it defines (weighed IMPLIED_WEIGHT in a sentence that does not print them)
        implied = 0
        if self.heading_renderings:
            title = _title_terms(leaf_title)
            for rendering, units in self.heading_renderings:
                if rendering <= leaf.heading or (title and title <= rendering):
                    implied |= units
        for concept, units in self.implied_masks.items():
            if concept in leaf.defines:
                implied |= units
        mask |= implied
        covered = self.share(mask)
        if not in_text:
            return covered, 0.0
        # each sentence's units, from the sentences each of the words is in
        per_sentence: dict[int, int] = {}
        for term in in_text:
            units = masks[term]
            for position in leaf.term_sentences[term]:
                per_sentence[position] = per_sentence.get(position, 0) | units
        best = 0.0
        for units in per_sentence.values():
            best = max(best, self.share(units) + IMPLIED_WEIGHT * self.share(implied & ~units))
        return covered, best


def _rerank(
    index: KnowledgeIndex, parsed: ParsedQuery, query: _QueryFeatures, features: NodeFeatures, base: float
) -> float:
    leaf = index.leaf_sets[features.id]
    heading = leaf.heading
    if query.word_terms.isdisjoint(heading):
        heading_share = 0.0
    else:
        heading_share = sum(w for t, w in query.words.items() if t in heading) / query.total
    bonus = W_HEADING * heading_share
    if query.concept_weights:
        defined = sum(w for c, w in query.concept_weights if c in leaf.defines)
        mentioned = sum(w for c, w in query.concept_weights if c in leaf.mentions)
        bonus += (W_DEFINES * defined + W_MENTIONS * mentioned) / query.concepts_total
    if (W_COVER or W_SENTENCE) and query.units:
        covered, best = query.cover(leaf, features.heading)
        bonus += W_COVER * covered / query.units_total
        bonus += W_SENTENCE * best / query.units_total
    factor = KIND_FACTOR.get(features.kind, 0.9)
    editions = parsed.editions
    if editions:
        if features.edition in editions:
            factor *= 1.0 + W_EDITION
        elif any(features.edition in NEAR_EDITIONS.get(e, ()) for e in editions):
            factor *= 1.0 + W_EDITION_NEAR
    if parsed.numbers:
        text_terms = leaf.text
        found = sum(1 for number in parsed.numbers if number in text_terms)
        bonus += W_NUMBERS * found / len(parsed.numbers)
    if features.first:
        bonus += W_FIRST
    return base * (1.0 + bonus) * factor


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
    if SECTION_REPEAT != 1.0:
        scored = _spread_sections(scored)
    if parsed.compare and len(parsed.editions) > 1:
        scored = _lead_with_each_edition(scored, parsed.editions)
    elif not parsed.editions and DIVERSIFY:
        scored = _diversify(scored)
    hits = [make_hit(features, score) for score, _, features in scored[:limit]]
    if snippets:
        fill_snippets(parsed, hits, index)
    return hits


def _spread_sections(scored: list[tuple[float, int, NodeFeatures]]) -> list[tuple[float, int, NodeFeatures]]:
    """Each leaf under a heading that :data:`SECTION_LEADS` better leaves already hold scores
    :data:`SECTION_REPEAT` less per leaf above it beyond those: the top passages span sections."""
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    spread: list[tuple[float, int, NodeFeatures]] = []
    for score, order, features in scored:
        key = (features.source_id, features.breadcrumb)
        count = seen.get(key, 0)
        seen[key] = count + 1
        if count >= SECTION_LEADS:
            score *= SECTION_REPEAT ** (count - SECTION_LEADS + 1)
        spread.append((score, order, features))
    spread.sort(key=lambda item: (-item[0], item[1]))
    return spread


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
