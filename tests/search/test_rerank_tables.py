"""The reranker's per-leaf tables and per-question bit masks are an optimisation: the plain
computation over the leaf's features is their oracle (the same floats, not approximately)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekb.kb.search.knowledge_index import KnowledgeIndex
from rulekb.kb.search.ranking import _QueryFeatures, bm25_scores
from rulekb.kb.search.searcher import get_index

DATA = Path(__file__).resolve().parent.parent / "data"


def dev_questions(count: int) -> list[str]:
    rows = [json.loads(line) for line in (DATA / "dev.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row["question"] for row in rows[:count]]


def plain_cover(index: KnowledgeIndex, query: _QueryFeatures, node_id: str) -> tuple[float, float]:
    """What the reranker computed before the tables: every unit against the leaf's sets."""
    features = index.features[node_id]
    heading = set(features.heading_lemmas)
    here = index.text_terms[node_id] | heading
    concepts = set(features.concepts) | set(features.defines)
    covered = sum(w for alternatives, w, concept in query.units if (concept in concepts) or not alternatives.isdisjoint(here))
    best = 0.0
    for sentence in index.sentence_sets[node_id]:
        best = max(best, sum(w for alternatives, w, _ in query.units if not alternatives.isdisjoint(sentence)))
    return covered, best


def test_leaf_tables_hold_the_leaf_features(built: Path) -> None:
    index = get_index(built)
    for node_id, features in index.features.items():
        leaf = index.leaf_sets[node_id]
        assert leaf.heading == frozenset(features.heading_lemmas)
        assert leaf.defines | leaf.mentions == leaf.concepts == frozenset(features.concepts) | frozenset(features.defines)
        assert not leaf.defines & leaf.mentions
        for term, positions in leaf.term_sentences.items():
            assert positions and all(term in leaf.sentences[p] for p in positions)
        assert set(leaf.term_sentences) == leaf.text


@pytest.mark.parametrize("edition", [None, "6"])
def test_cover_equals_the_plain_computation(built: Path, edition: str | None) -> None:
    index = get_index(built)
    checked = carried = 0
    for question in dev_questions(120):
        parsed = index.parse(question, edition)
        if parsed.empty:
            continue
        query = _QueryFeatures.of(index, parsed)
        if not query.units:
            continue
        for _, docnum in sorted(bm25_scores(index, parsed))[-30:]:
            node_id = index.by_docnum[docnum].id
            fast = query.cover(index.leaf_sets[node_id])
            assert fast == plain_cover(index, query, node_id), (question, node_id)
            checked += 1
            carried += fast[1] > 0
    assert checked > 500 and carried > 100
