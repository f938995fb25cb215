"""The index analyzer: lemmas, ё/е, and game notation survive into the index as terms."""

from __future__ import annotations

import pytest

from rulekb.kb.search.index import RussianTokenizer, split_sentences
from rulekb.kb.text.analysis import lemma


def terms(text: str) -> list[str]:
    return [token.text for token in RussianTokenizer()(text)]


@pytest.mark.parametrize("form", ["бросок", "броска", "броски", "бросков", "броскам"])
def test_inflected_forms_share_a_term(form: str) -> None:
    assert terms(form) == ["бросок"]


def test_yo_folds_to_ye() -> None:
    assert terms("ещё самолёт") == terms("еще самолет")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Бросьте 2D6", "2d6"),
        ("урон D3", "d3"),
        ("попадает на 3+", "3+"),
        ('в пределах 1"', '1"'),
        ("модификатор -1", "-1"),
        ("модификатор −1", "-1"),
        ("Д6", "d6"),
    ],
)
def test_notation_is_kept_whole(text: str, expected: str) -> None:
    assert expected in terms(text)


@pytest.mark.parametrize("abbreviation", ["AP", "WS", "BS", "Ld"])
def test_abbreviations_are_kept(abbreviation: str) -> None:
    assert terms(f"значение {abbreviation}") == ["значение", abbreviation.lower()]


def test_no_stop_list() -> None:
    assert terms("нельзя не только") == ["нельзя", "не", "только"]


def test_positions_and_offsets_follow_the_text() -> None:
    tokens = [(t.text, t.pos, t.startchar, t.endchar) for t in RussianTokenizer()("Бросьте 2D6.", positions=True, chars=True)]
    assert tokens == [("бросить", 0, 0, 7), ("2d6", 1, 8, 11)]


def test_sentences_split_on_full_stops_and_lines() -> None:
    text = "Бросьте 2D6. Если выпало 7+, тест пройден.\n• Пункт списка"
    assert split_sentences(text) == ["Бросьте 2D6.", "Если выпало 7+, тест пройден.", "• Пункт списка"]


@pytest.mark.parametrize(("form", "verb"), [("fell", "fall"), ("fought", "fight"), ("fled", "flee"), ("chosen", "choose")])
def test_irregular_english_verbs_meet_their_verb(form: str, verb: str) -> None:
    assert lemma(form) == lemma(verb)


def test_a_question_in_the_past_tense_names_the_rule() -> None:
    from rulekb.kb.search.query import parse_query

    assert "fall-back" in parse_query("can units that fell back still charge?").concepts
