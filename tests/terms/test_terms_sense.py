"""Occurrences by sense: a string that renders several concepts counts once, for the concept its
context gives; no occurrence reads a heading together with the paragraph after it."""

from __future__ import annotations

from collections import Counter

import pytest

from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.graph.linker import Links, link
from rulekb.kb.termbase import Termbase, TermIndex, kwic
from rulekb.kb.termbase.occurrences import blocks, line_of
from rulekb.kb.termbase.sense import SenseResolver


def _lines(index: TermIndex, concept: str, source: str, text: str) -> list[int]:
    return index.lines(concept, source, text)


@pytest.fixture(scope="module")
def links(corpus: ParsedCorpus, termbase: Termbase) -> Links:
    return link(corpus, termbase)


def _leaf_at(corpus: ParsedCorpus, source: str, line: int) -> str:
    leaves = [n for n in corpus.nodes if n.source_id == source and n.is_leaf and n.lines[0] <= line <= n.lines[1]]
    assert leaves, f"no leaf at {source}:{line}"
    return leaves[0].id


def test_each_occurrence_is_credited_to_one_concept(index: TermIndex) -> None:
    for source in index.sources:
        spans = Counter((o.start, o.end) for o in index.occurrences(source))
        doubled = [span for span, n in spans.items() if n > 1]
        assert not doubled, f"{source}: spans counted for several concepts: {doubled[:5]}"


def test_shared_reach_is_split_by_sense(index: TermIndex) -> None:
    engagement = _lines(index, "engagement-range", "10e-core", "досягаемость")
    weapon = _lines(index, "range", "10e-core", "досягаемость")
    objective = _lines(index, "objective-range", "10e-core", "досягаемость")
    assert 561 in engagement and 561 not in weapon and 561 not in objective
    assert 539 in weapon and 539 not in objective
    assert 2046 in objective and 2046 not in engagement
    assert len(weapon) < 10 and len(objective) < 10 < len(engagement)
    total = len(engagement) + len(weapon) + len(objective)
    assert total == len({(o.start, o.end) for o in index.occurrences("10e-core") if o.rendering == "досягаемость"})


def test_attack_is_not_counted_as_charge_in_weapon_and_save_rules(index: TermIndex, corpus: ParsedCorpus, links: Links) -> None:
    charge = set(_lines(index, "charge", "10e-core", "атака"))
    attack = set(_lines(index, "attack", "10e-core", "атака"))
    for line in (606, 636, 674):
        assert line not in charge
        assert "charge" not in links.mentions.get(_leaf_at(corpus, "10e-core", line), {}), line
    # the charge phase's «атака» is a charge
    assert {985, 1005} <= charge
    assert len(charge) < len(attack) / 3


def test_wounds_characteristic_excludes_wound_rolls(index: TermIndex) -> None:
    wounds = _lines(index, "wounds", "10e-core", "ранение")
    for line in (618, 622, 623, 1201):
        assert line not in wounds
    assert {628, 667, 879} <= set(wounds)
    assert 618 in _lines(index, "wound-roll", "10e-core", "ранение")


def test_no_occurrence_crosses_a_heading(index: TermIndex) -> None:
    assert 873 not in _lines(index, "hazardous", "10e-core", "Опасное оружие")
    for source in index.sources:
        edges = {(b.first, b.last) for b in blocks(source)}
        starts = {first: last for first, last in edges}
        for o in index.occurrences(source):
            first, last = o.line, line_of(source, o.end - 1)
            block = max(f for f in starts if f <= first)
            assert last <= starts[block], f"{source}:{o.line} «{o.text}» runs past its block"


def test_kwic_shows_the_sense_and_its_evidence() -> None:
    rows = [r for r in kwic("engagement-range", "10e-core") if r.rendering == "досягаемость"]
    assert rows and all(r.evidence for r in rows)
    assert all(len(r.candidates) == 3 for r in rows)
    weapon = [r for r in kwic("range", "10e-core") if r.rendering == "досягаемость"]
    assert weapon and all(r.evidence and r.evidence.startswith("cue") for r in weapon)


def test_resolver_uses_cues_headings_and_default(termbase: Termbase) -> None:
    resolver = SenseResolver(termbase, "10e-core")
    found = {a.match.text: a for a in resolver.find("Модель не может завершить атаку «РЫВОК» на полпути.")}
    assert found["атаку"].concept_id == "charge" and found["атаку"].evidence.startswith("cue")
    under = resolver.find("Выберите цели этой атаки.", ["ФАЗА РЫВКА"])
    assert [a.concept_id for a in under if a.match.text == "атаки"] == ["charge"]
    plain = resolver.find("Выберите цели этой атаки.")
    assert [(a.concept_id, a.evidence) for a in plain if a.match.text == "атаки"] == [("attack", "default")]


def test_every_shared_string_has_one_default(termbase: Termbase, index: TermIndex) -> None:
    from rulekb.corpus.words import is_caps
    from rulekb.kb.text.analysis import lemma_key

    for source in index.sources:
        groups: dict[tuple[tuple[str, ...], bool], list[tuple[str, bool]]] = {}
        for concept in termbase:
            for r in concept.renderings_for(source):
                groups.setdefault((lemma_key(r.text), is_caps(r.text)), []).append((concept.id, r.default))
        for key, uses in groups.items():
            if len({c for c, _ in uses}) > 1:
                assert sum(d for _, d in uses) == 1, f"{source} «{' '.join(key[0])}»: mark one sense default = true"
            else:
                assert not any(d for _, d in uses), f"{source} «{' '.join(key[0])}»: default only for shared strings"
