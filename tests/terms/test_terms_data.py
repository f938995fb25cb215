"""The termbase data: coverage, and every rendering and printed English term accounted for."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekb.corpus.reader import load_manifest
from rulekb.kb.termbase import (
    Category,
    ConceptFinder,
    Status,
    Termbase,
    TermIndex,
    load_termbase,
    renderings_not_found,
    unmapped_english_terms,
)
from rulekb.kb.text.analysis import lemma_key


def test_at_least_200_concepts_in_every_category(termbase: Termbase) -> None:
    assert len(termbase) >= 200
    used = Counter(c.category for c in termbase)
    assert set(used) == set(Category), f"categories without a concept: {set(Category) - set(used)}"


def test_every_source_has_renderings(termbase: Termbase) -> None:
    assert termbase.source_ids() == [s.id for s in load_manifest()]


def test_every_rendering_occurs_in_its_source(termbase: Termbase) -> None:
    """Each rendering, matched by lemma over the raw text (overlaps allowed), occurs in its source."""
    missing = renderings_not_found(termbase)
    assert not missing, "renderings not found in their source:\n" + "\n".join(f"{c} / {s} / «{t}»" for c, s, t in missing)


def test_every_rendering_counts_as_a_term(termbase: Termbase, index: TermIndex) -> None:
    """No rendering is only ever part of a longer rendering (which would make its count 0)."""
    shadowed = [
        f"{c.id} / {r.source} / «{r.text}»" for c in termbase for r in c.rendering if index.count(c.id, r.source, r.text) == 0
    ]
    assert not shadowed, "renderings that never count on their own:\n" + "\n".join(shadowed)


def test_every_printed_english_term_is_mapped(termbase: Termbase) -> None:
    missing = unmapped_english_terms(termbase)
    assert not missing, "\n".join(f"{t.source_id}:{t.line}: {t.text!r} ({t.kind})" for t in missing)


@pytest.mark.parametrize(
    "abbreviation", ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv", "OC", "AP", "D", "CP", "VP"]
)
def test_every_characteristic_abbreviation_is_a_concept(termbase: Termbase, abbreviation: str) -> None:
    assert [c.id for c in termbase if c.abbreviation == abbreviation], abbreviation


@pytest.mark.parametrize(
    "concept_id",
    [
        # core stratagems
        "command-re-roll", "counter-offensive", "epic-challenge", "insane-bravery", "grenade", "tank-shock",
        "rapid-ingress", "fire-overwatch", "go-to-ground-stratagem", "smokescreen", "heroic-intervention",
        # weapon abilities
        "assault", "rapid-fire", "ignores-cover", "twin-linked", "pistol", "torrent", "lethal-hits", "lance",
        "indirect-fire", "precision", "blast", "melta", "heavy", "hazardous", "devastating-wounds",
        "sustained-hits", "extra-attacks", "anti", "one-shot", "psychic",
        # core abilities
        "deep-strike", "deadly-demise", "feel-no-pain", "fights-first", "infiltrators", "leader", "lone-operative",
        "scouts", "stealth", "firing-deck", "hover",
        # phases and statuses
        "command-phase", "movement-phase", "shooting-phase", "charge-phase", "fight-phase", "assault-phase",
        "battle-shock", "pinning", "falling-back", "locked-in-combat",
        # dice
        "d3", "d6", "2d6", "roll-off", "re-roll", "unmodified-roll", "scatter",
        # 6th/7th-edition unit types
        "infantry", "bikes", "jetbikes", "artillery", "jump-units", "jet-pack-units", "beasts", "cavalry",
        "monstrous-creature", "vehicle", "character",
        # Kill Team
        "overwatch", "counter-charge", "supporting-attacks", "combat-result-modifiers", "squad",
    ],
)
def test_required_concepts_exist(termbase: Termbase, concept_id: str) -> None:
    assert concept_id in termbase


def test_keywords_are_flagged(termbase: Termbase) -> None:
    for concept_id in ("infantry", "vehicle", "monster", "character", "fly", "transport", "aircraft", "towering",
                       "titanic", "battleline", "precision", "hazardous", "bikes", "hammer-of-wrath"):
        concept = termbase[concept_id]
        assert concept.keyword or concept.category is Category.KEYWORD, concept_id


def _texts(termbase: Termbase, concept_id: str, source_id: str) -> set[tuple[str, ...]]:
    return {lemma_key(r.text) for r in termbase[concept_id].renderings_for(source_id)}


def test_engagement_range_and_coherency_renderings_in_10e(termbase: Termbase) -> None:
    er = _texts(termbase, "engagement-range", "10e-core")
    for text in ("Диапазон поражения", "дальность боя", "зона поражения", "досягаемость"):
        assert lemma_key(text) in er, text
    coherency = _texts(termbase, "unit-coherency", "10e-core")
    for text in ("Согласованность модулей", "согласованность отряда", "Согласованность элементов", "сплоченность"):
        assert lemma_key(text) in coherency, text


def test_hit_roll_mistranslation_has_a_note(termbase: Termbase) -> None:
    wicket = [r for r in termbase["hit-roll"].rendering if lemma_key(r.text) == lemma_key("Ударная калитка")]
    assert wicket and wicket[0].status is Status.MISTRANSLATION and wicket[0].note


@pytest.mark.parametrize(
    ("text", "source_id", "concept_id"),
    [
        ("досягаемость", "10e-core", "engagement-range"),
        ("досягаемость", "10e-core", "range"),
        ("досягаемость", "10e-core", "objective-range"),
        ("наступление", "kt", "charge"),
        ("наступление", "7e-pp58-67", "assault-phase"),
        ("наступление", "10e-core", "advance"),
        ("Контрнаступление", "kt", "counter-charge"),
        ("Контрнаступление", "10e-core", "counter-offensive"),
    ],
)
def test_one_word_for_several_concepts(termbase: Termbase, text: str, source_id: str, concept_id: str) -> None:
    assert lemma_key(text) in _texts(termbase, concept_id, source_id)


@pytest.mark.parametrize(
    ("alias", "concept_id"),
    [
        ("чардж", "charge"), ("овервотч", "overwatch"), ("реролл", "re-roll"), ("перекид", "re-roll"),
        ("инвуль", "invulnerable-save"), ("фнп", "feel-no-pain"), ("дипстрайк", "deep-strike"),
        ("ап", "armour-penetration"), ("ОС", "objective-control"), ("лд", "leadership"),
        ("кохеренси", "unit-coherency"), ("баттлшок", "battle-shock"), ("фолбэк", "fall-back"),
        ("пайл-ин", "pile-in"), ("свипинг", "sweeping-advance"), ("лук аут сэр", "look-out-sir"),
        ("charge", "charge"), ("overwatch", "overwatch"),
    ],
)
def test_slang_aliases(finder: ConceptFinder, alias: str, concept_id: str) -> None:
    assert concept_id in [c.id for c in finder.search(alias)]


def test_renderings_are_unique_per_concept_and_source(termbase: Termbase) -> None:
    for concept in termbase:
        keys = [(r.source, lemma_key(r.text), r.text.isupper()) for r in concept.rendering]
        assert len(keys) == len(set(keys)), concept.id


def test_definitions_are_russian_one_liners(termbase: Termbase) -> None:
    for concept in termbase:
        assert "\n" not in concept.definition
        assert any("а" <= ch <= "я" for ch in concept.definition.lower()), concept.id


def test_a_rendering_that_never_occurs_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "terms.toml"
    path.write_text(
        'schema = 1\n[[concept]]\nid = "x"\nenglish = "X"\ncategory = "dice"\ndefinition = "Икс."\n'
        '[[concept.rendering]]\nsource = "10e-core"\ntext = "квазиморфизм"\nstatus = "preferred"\n'
        '[[concept.rendering]]\nsource = "kt"\ntext = "Огни на упреждение"\nstatus = "preferred"\n',
        encoding="utf-8",
    )
    assert renderings_not_found(load_termbase(path)) == [("x", "10e-core", "квазиморфизм")]


def test_an_unmapped_english_term_is_reported(termbase: Termbase) -> None:
    partial = Termbase([c for c in termbase if c.id not in ("overwatch", "fire-overwatch")], termbase.ignore)
    assert [(t.source_id, t.line, t.text) for t in unmapped_english_terms(partial)] == [("kt", 1, "overwatch")]
