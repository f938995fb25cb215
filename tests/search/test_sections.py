"""One section's leaves make way for another section's rule in the top passages
(:func:`rulekb.kb.search.ranking._spread_sections`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekb.kb.search import ranking
from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.searcher import get_index, search_parsed
from rulekb.kb.search.weights import SECTION_LEADS, SECTION_REPEAT


def crowded_section(built: Path, size: int) -> list[NodeFeatures]:
    """The leaves of the first section (one source, one breadcrumb) holding at least ``size`` leaves."""
    sections: dict[tuple[str, tuple[str, ...]], list[NodeFeatures]] = {}
    for features in get_index(built).features.values():
        sections.setdefault((features.source_id, features.breadcrumb), []).append(features)
    return next(leaves for leaves in sections.values() if len(leaves) >= size)[:size]


def test_a_section_beyond_its_leads_makes_way_for_another_section(built: Path) -> None:
    index = get_index(built)
    same = crowded_section(built, SECTION_LEADS + 2)
    other = next(f for f in index.features.values() if (f.source_id, f.breadcrumb) != (same[0].source_id, same[0].breadcrumb))
    scored = [(10.0 - 0.1 * i, i, f) for i, f in enumerate(same)] + [(9.0, 99, other)]
    spread = ranking._spread_sections(scored)
    assert [f.id for _, _, f in spread[:SECTION_LEADS]] == [f.id for f in same[:SECTION_LEADS]]
    assert spread[SECTION_LEADS][2].id == other.id
    assert sorted(f.id for _, _, f in spread) == sorted(f.id for _, _, f in scored)
    # the leads keep their scores; the third leaf of the section loses SECTION_REPEAT, the fourth its square
    assert spread[0][0] == scored[0][0]
    by_id = {f.id: s for s, _, f in spread}
    assert by_id[same[SECTION_LEADS].id] == pytest.approx(scored[SECTION_LEADS][0] * SECTION_REPEAT)
    assert by_id[same[SECTION_LEADS + 1].id] == pytest.approx(scored[SECTION_LEADS + 1][0] * SECTION_REPEAT**2)


def test_the_spread_reorders_search_and_finds_the_same_leaves(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = get_index(built)
    question = "Устойчивые хиты и критический хит: сколько дополнительных попаданий?"
    parsed = index.parse(question, None)
    spread = search_parsed(index, parsed, 60, snippets=False)
    monkeypatch.setattr(ranking, "SECTION_REPEAT", 1.0)
    plain = search_parsed(index, index.parse(question, None), 60, snippets=False)
    assert {h.node_id for h in spread} == {h.node_id for h in plain}
    per_section = Counter((h.source_id, tuple(h.breadcrumb)) for h in plain[:5])
    assert max(per_section.values()) > SECTION_LEADS  # the question's own section crowds the plain top five
    top = Counter((h.source_id, tuple(h.breadcrumb)) for h in spread[:5])
    assert max(top.values()) < max(per_section.values())
