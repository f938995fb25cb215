"""The situation told before a question asks (:mod:`rulekb.kb.search.query_setup`): where it ends, and
that its words weigh :data:`SETUP_WEIGHT` in the reranker's shares only — numbers, phases, the asked
concepts and the concepts related to them keeping their weight."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.kb.search.query_setup import (
    SETUP_WEIGHT,
    SetupConcepts,
    asking_split,
    setup_factors,
    setup_lemmas,
)
from rulekb.kb.search.ranking import _QueryFeatures, clauses
from rulekb.kb.search.searcher import get_index


@pytest.mark.parametrize(
    ("question", "setup", "asking"),
    [
        ("Мой отряд стоит в лесу. Может ли он стрелять по врагу через дорогу?",
         "Мой отряд стоит в лесу.", "Может ли он стрелять по врагу через дорогу?"),
        ("враг сидит за высокой стеной — могу я объявить на него атаку в этот ход?",
         "враг сидит за высокой стеной", "могу я объявить на него атаку в этот ход?"),
        ("Мой танк стоит вплотную к пехоте. Может ли он стрелять по ней? Вроде слышал про штраф",
         "Мой танк стоит вплотную к пехоте.", "Может ли он стрелять по ней? Вроде слышал про штраф"),
        ("My squad hid behind a wall. Can it shoot the tank across the road?",
         "My squad hid behind a wall.", "Can it shoot the tank across the road?"),
    ],
)
def test_the_set_up_is_told_before_the_asking_clause(question: str, setup: str, asking: str) -> None:
    assert asking_split(question) == (setup, asking)


@pytest.mark.parametrize(
    "question",
    [
        "Можно ли стрелять по врагу в лесу? А если он за стеной?",  # two questions, no set-up
        "отряд стоит в лесу и стреляет по врагу за стеной",  # no «?»: where it asks is not told
        "Какие шаги у фазы движения — от выбора отряда до конца хода?",  # the part before the dash asks
        "How does cover work — what do I add to the save?",
        "Мой отряд окружён врагами. Можно сбежать?",  # the asking clause asks about the set-up itself
        "Как стрелять из тяжёлого оружия после движения?",  # nothing told before
    ],
)
def test_no_set_up_is_read(question: str) -> None:
    assert asking_split(question)[0] == ""
    assert setup_lemmas(question) == frozenset()


def test_set_up_words_weigh_less_in_the_reranker_only(built: Path) -> None:
    index = get_index(built)
    parsed = index.parse("Мой стрелок с болтером залез на крышу руины. Какой бросок на ранение нужен против стойкости 5?")
    assert parsed.setup_terms and all(f == SETUP_WEIGHT for f in parsed.setup_terms.values())
    told = {w.lemma for w in parsed.words if w.lemma in parsed.setup_terms}
    assert {"болтер", "крыша"} <= told
    asked = {w.lemma for w in parsed.words if not w.light and w.lemma not in parsed.setup_terms}
    assert {"бросок", "ранение", "5"} <= asked
    # BM25 reads every word at its weight: the set-up still finds the leaves
    plain = index.parse("Мой стрелок с болтером залез на крышу руины. Какой бросок на ранение нужен против стойкости 5?")
    plain.setup_terms, plain.setup_concepts = {}, {}
    assert clauses(parsed, index) == clauses(plain, index)
    # the reranker's units: a set-up word at SETUP_WEIGHT of the same word asked
    weighed = {next(iter(sorted(a))): w for a, w, _ in _QueryFeatures.of(index, parsed).units}
    full = {next(iter(sorted(a))): w for a, w, _ in _QueryFeatures.of(index, plain).units}
    lowered = [t for t in weighed if abs(weighed[t] - SETUP_WEIGHT * full[t]) < 1e-9 and weighed[t] != full[t]]
    assert lowered and all(abs(weighed[t] - full[t]) < 1e-9 or t in lowered for t in weighed)


def test_phases_and_related_concepts_keep_their_weight(built: Path) -> None:
    index = get_index(built)
    # toughness is related to the wound roll the asking clause names; the phase places the situation
    parsed = index.parse("В фазе стрельбы мой отряд бьёт по цели с высокой стойкостью. Что нужно выкинуть на бросок ранения?")
    assert "toughness" in parsed.concepts and "toughness" not in parsed.setup_concepts
    assert "shooting-phase" in parsed.concepts and "shooting-phase" not in parsed.setup_concepts
    assert "стойкость" not in parsed.setup_terms
    # without the termbase's relations and phases both weigh less
    bare = index.parse("В фазе стрельбы мой отряд бьёт по цели с высокой стойкостью. Что нужно выкинуть на бросок ранения?")
    terms, concepts = setup_factors(bare, SetupConcepts())
    assert concepts.get("toughness") == SETUP_WEIGHT and concepts.get("shooting-phase") == SETUP_WEIGHT
    assert terms.get("стойкость") == SETUP_WEIGHT


def test_setup_concepts_read_the_termbase_both_ways(built: Path) -> None:
    index = get_index(built)
    related = index.setup_concepts.related
    assert "wound-roll" in related["toughness"] and "toughness" in related["wound-roll"]
    assert {"command-phase", "shooting-phase", "fight-phase"} <= index.setup_concepts.kept
