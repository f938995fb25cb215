"""Search with the project's termbase: every English term, abbreviation and alias reaches its concept."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.kb.search.query import ConceptEntry, load_concepts, parse_query
from rulekb.kb.search.searcher import get_index, search

CONCEPTS = load_concepts()


def typed_names() -> list[tuple[str, str]]:
    """(concept, text) for every English term and alias people type; one-letter characteristics
    (S, T, W…) are left to the test that needs a value after them."""
    return [
        (concept.id, text)
        for concept in CONCEPTS
        for text, origin, _ in concept.phrases
        if origin in ("english", "alias") and len(text.strip()) > 1
    ]


def test_the_termbase_is_loaded() -> None:
    assert len(CONCEPTS) > 100
    assert all(isinstance(c, ConceptEntry) for c in CONCEPTS)


def test_every_typed_name_is_recognised() -> None:
    missed = [(cid, text) for cid, text in typed_names() if cid not in parse_query(text).concepts]
    assert missed == []


@pytest.mark.parametrize("letter", ["S", "T", "W", "A", "I"])
def test_one_letter_characteristics_with_a_value(letter: str) -> None:
    concepts = {c.id: [t for t, o, _ in c.phrases if t == letter] for c in CONCEPTS}
    owner = next((cid for cid, texts in concepts.items() if texts), None)
    if owner is None:
        pytest.fail(f"the termbase has no concept abbreviated {letter!r}")
    assert owner in parse_query(f"у модели {letter}4").concepts
    assert owner not in parse_query(f"{letter.lower()} модели").concepts


def test_typed_names_reach_rules_about_the_concept(built: Path) -> None:
    """Searching a concept's English name or alias returns, in the first five hits, a rule that
    defines or mentions it — for (almost) every concept the rules define."""
    index = get_index(built)
    names = [(cid, text) for cid, text in typed_names() if cid in index.concept_nodes]
    reached = 0
    for cid, text in names:
        hits = search(text, build_dir=built, limit=5).hits
        features = [index.features[hit.node_id] for hit in hits]
        reached += any(cid in f.defines or cid in f.concepts for f in features)
    assert len(names) > 500
    assert reached / len(names) >= 0.98


@pytest.mark.parametrize(
    ("question", "source_id", "line"),
    [
        ("how does overwatch work in 6th edition", "6e-assault", 52),
        ("can a unit shoot after it falls back", "7e-pp58-67", 13),
        ("размер стола в киллтиме", "kt", 97),
    ],
)
def test_english_and_slang_questions_reach_the_rule(built: Path, question: str, source_id: str, line: int) -> None:
    hits = search(question, build_dir=built, limit=5).hits
    assert any(h.source_id == source_id and h.lines[0] <= line <= h.lines[1] for h in hits)
