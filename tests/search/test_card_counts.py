"""An English card's lead line gives the terms a ruling counts; a terminology question no passage
covers is still answered from the termbase."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.ask.answer import ask
from rulekb.kb.ask.card import terminology_only
from rulekb.kb.ask.card_english import english_line
from rulekb.kb.ask.card_measures import counted_terms
from rulekb.kb.search.searcher import get_index


def test_a_number_before_a_concept_s_rendering_is_counted_in_english(built: Path) -> None:
    # an abbreviation of two letters or more names the unit; a plural English name is written as a count
    assert counted_terms(built, "Помимо 1 очка командования, которые игроки получают") == ["1 CP"]
    assert counted_terms(built, "этот отряд получает 3 смертельных ранения") == ["3 mortal wounds"]
    assert counted_terms(built, "модель получает 1 смертельное ранение") == ["1 mortal wound"]
    assert counted_terms(built, "получает три смертельных ранения") == ["3 mortal wounds"]


def test_measures_dice_steps_and_separated_numbers_are_not_counts(built: Path) -> None:
    assert counted_terms(built, "в пределах 3 дюймов от модели") == []  # a measure, on the line already
    assert counted_terms(built, "бросьте 2D6 кубика") == []  # the dice notation says it
    assert counted_terms(built, "1 ВЫБЕРИТЕ ПОДХОДЯЩИЙ ОТРЯД 2 ВЫБЕРИТЕ ЦЕЛИ") == []  # numbered step headings
    assert counted_terms(built, "на 3, смертельных ранений нет") == []  # a comma between them
    assert counted_terms(built, "бросок на попадание 6 немодифицированный") == []
    assert counted_terms(built, "Смертельные ранения наносятся после урона") == []  # no number at all


def test_the_english_line_gives_the_count_beside_the_measures(built: Path) -> None:
    ruling = "Каждый игрок может получить не более 1 очка командования за раунд боя."
    line = english_line(built, "10", ["command-points"], ruling, None)
    assert line.startswith("10th edition") and ": 1 CP." in line
    assert "1 CP" not in english_line(built, "10", ["command-points"], "Игрок получает очки командования.", None)


def test_a_terminology_question_no_passage_covers_gets_the_termbase_card(built: Path) -> None:
    question = "Glossary question: how do the different books here render Pile In in Russian?"
    result = ask(question, build_dir=built)
    assert result["answer"] is None and result["faq"] is None  # no passage covers its words
    card = result["card"]
    assert card["kind"] == "terminology" and card["source"] == "termbase" and card["lang"] == "en"
    assert card["text"].startswith("Pile In") and card["citations"] and "related_faq" in card
    index = get_index(built)
    parsed = index.parse(question, None)
    assert terminology_only(index, parsed, question) is not None
    # any other question without an answer stays without a card
    other = "What colour is the sky over the garden today?"
    assert terminology_only(index, index.parse(other, None), other) is None
    assert ask(other, build_dir=built)["card"]["kind"] == "none"


def test_a_word_s_last_letter_before_a_number_is_no_dice_notation() -> None:
    from rulekb.kb.ask.card_measures import measures

    # «ХОД 5»: a step heading's «Д» and the next step's number, not a D5
    assert measures("4 ПРИНЯТЬ АКТИВНЫЙ ХОД 5 ПОВТОРИТЕ ДЛЯ СЛЕДУЮЩЕГО") == []
    assert measures("бросьте 2D6 и D3, затем (D6) и D6+1, или Д6") == ["2D6", "D3", "D6", "D6+1", "Д6"]


def test_an_english_line_names_only_terms_the_ruling_s_book_prints(built: Path) -> None:
    from rulekb.kb.ask.card_english import ruling_concepts
    from rulekb.kb.ask.form import concept_editions

    printed = concept_editions(built)
    assert printed["squad"] == frozenset({"kt"}) and "10" in printed["unit"]
    ruling = "Отряд может стрелять, если он не связан боем."
    # «отряд» is Kill Team's Squad too: a 10th-edition ruling names the Unit only
    assert "squad" in ruling_concepts(built, ruling) and "squad" in ruling_concepts(built, ruling, "kt")
    assert "squad" not in ruling_concepts(built, ruling, "10") and "unit" in ruling_concepts(built, ruling, "10")
    line = english_line(built, "10", ["unit"], ruling, None)
    assert "Squad" not in line and "Squad" in english_line(built, "kt", ["unit"], ruling, None)


def test_a_second_passage_adds_only_terms_its_book_prints(built: Path) -> None:
    from rulekb.kb.ask.card_english import RULING_INTRO, extend_english_line

    added = "Отряд может стрелять, если он не связан боем."
    assert "Squad" not in extend_english_line(built, "10th edition — Shooting phase." + RULING_INTRO, added)
    assert "Squad" in extend_english_line(built, "Kill Team — Shooting phase." + RULING_INTRO, added)
