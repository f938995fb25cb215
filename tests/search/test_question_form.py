"""What a question asks: its form, and the edition it implies without naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.kb.ask.form import (
    concept_editions,
    edition_vocabulary,
    implied_editions,
    question_form,
    vocabulary_editions,
)


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("можно ли стрелять после рывка", "yesno"),
        ("Может ли техника стрелять в зоне поражения?", "yesno"),
        ("обязан ли я кидать тест", "yesno"),
        ("адванс и стрелять можно?", "yesno"),
        ("Can a unit shoot after advancing?", "yesno"),
        ("Does cover apply in melee?", "yesno"),
        ("сколько атак у орка", "number"),
        ("на какое расстояние двигается консолидация", "number"),
        ("How far can a unit pile in?", "number"),
        ("дальность чарджа", "number"),
        ("в каком порядке идут фазы", "procedure"),
        ("как проходит проверка боевого шока", "procedure"),
        ("какие шаги у фазы движения, от начала до конца?", "procedure"),
        ("алгоритм разыгрывания стрельбы", "procedure"),
        ("Как в этом переводе назван pile in?", "terminology"),
        ("Как в тексте переведён Invulnerable Save?", "terminology"),
        ("How is Overwatch rendered in the Kill Team translation?", "terminology"),
        ("кохеренси 6ка vs 10ка", "comparison"),
        ("что такое знамя", "lookup"),
        # every case of «какой» asks which, not whether («По какому WS …?», «О каких правилах …?»)
        ("Двадцать гретчинов со своим надсмотрщиком. По какому WS по ним попадают?", "lookup"),
        ("О каких правилах речь в этом отряде?", "lookup"),
    ],
)
def test_forms(question: str, form: str) -> None:
    from rulekb.kb.search.query import detect_editions

    assert question_form(question, editions=len(detect_editions(question))) == form


def test_two_editions_make_a_comparison_and_one_with_a_comparing_word() -> None:
    assert question_form("консолидация в 6-й и в 10-й", editions=2) == "comparison"
    assert question_form("чем отличается овервотч с 6-й", compare=True, editions=1) == "comparison"
    # «different targets» compares nothing
    assert question_form("Can a monstrous creature fire at two different targets?", compare=True) == "yesno"


def test_concepts_printed_in_one_edition_only_imply_it() -> None:
    editions = {"initiative": frozenset({"6"}), "stratagem": frozenset({"10"}), "charge": frozenset({"6", "10"})}
    assert implied_editions(["initiative", "charge"], editions) == ["6"]
    assert implied_editions(["stratagem"], editions) == ["10"]
    assert implied_editions(["charge"], editions) == []
    assert implied_editions(["initiative", "stratagem"], editions) == []  # they disagree
    assert implied_editions(["initiative"], editions, {"initiative": 0.5}) == []  # named ambiguously


def test_the_build_knows_which_concepts_each_edition_prints(built: Path) -> None:
    editions = concept_editions(built)
    assert editions["charge"] >= {"10", "6"}
    assert all(value <= {"10", "6", "7", "kt"} for value in editions.values())


def test_older_books_own_wording_implies_their_edition(built: Path) -> None:
    vocabulary = edition_vocabulary(built)
    assert vocabulary, "edition_vocabulary.json is empty"
    assert all(len(key) >= 2 for key in vocabulary)
    older = next(key for key, eds in vocabulary.items() if "10" not in eds)
    assert vocabulary_editions(["что", *older, "делать"], vocabulary) == sorted(vocabulary[older], key=["6", "7", "kt"].index)
    ten = next(key for key, eds in vocabulary.items() if eds == frozenset({"10"}))
    assert vocabulary_editions(list(ten), vocabulary) == []  # the 10th leads unmarked questions anyway


def test_english_forms_read_the_sentence_that_asks_and_the_roll_asked_for() -> None:
    from rulekb.kb.ask.form import question_form

    assert question_form("My tank is in engagement range of an enemy unit. Can it still shoot?") == "yesno"
    assert question_form("In close combat, what do I need to roll to hit?") == "number"
    assert question_form("How big is a Strike Force table?") == "number"
    assert question_form("What size are objective markers?") == "number"
    assert question_form("Do I need to roll to hit with a Torrent weapon?") == "yesno"


def test_a_question_asking_two_things_names_its_second_form() -> None:
    from rulekb.kb.ask.form import second_form

    assert second_form("Can it still shoot in my Shooting phase, and is there a penalty?", "yesno") == "number"
    assert second_form("На сколько дюймов консолидация и можно ли ею запрыгнуть в контакт?", "number") == "yesno"
    assert second_form("Can it still shoot in my Shooting phase?", "yesno") is None
    assert second_form("На сколько дюймов консолидация?", "number") is None


def test_a_measure_the_situation_tells_does_not_make_a_number_question() -> None:
    told = "Мой отряд добил врага, рядом никого нет, но в 3 дюймах лежит объектив. Как мне консолидироваться?"
    assert question_form(told) == "procedure"
    # a measure in the asking sentence still asks for a number
    assert question_form("Мой отряд добил врага. Дальность консолидации?") == "number"
    assert question_form("дальность чарджа") == "number"


def test_a_measure_named_by_what_it_is_asks_for_a_number() -> None:
    assert question_form("Какой штраф за стрельбу из тяжёлого оружия после движения?") == "number"
    assert question_form("Какого размера большой шаблон?") == "number"
    assert question_form("What is the points limit for a Strike Force army?") == "number"
    # a yes/no question asking a penalty beside stays yes/no (the penalty is its second form)
    assert question_form("Can it still shoot, and is there a penalty?") == "yesno"
    assert question_form("Какой отряд ходит первым?") != "number"


def test_yes_no_forms_without_ли_a_typo_or_a_question_mark() -> None:
    # a modal before its subject asks, even after a measure the situation tells
    assert question_form("до врага 7 дюймов, он за стеной — могу я стрелять по нему?") == "yesno"
    assert question_form("Сколько дюймов до врага, могу я стрелять?") == "number"  # a wh-word asks first
    # «можна», a typed «можно»; a terse «… может …» query; «… или нет»
    assert question_form("можна стрелять из пистолета в рукопашке") == "yesno"
    assert question_form("танк может стрелять в рукопашке") == "yesno"
    assert question_form("модель с ранцем прошла тест или нет") == "yesno"
    assert question_form("что может отряд после отступления") != "yesno"
    # an English auxiliary opening the last clause after what the question sets out
    assert question_form("In 6th, if my squad ran this turn, can it still charge?") == "yesno"
    assert question_form("How does overwatch work, and can it cause pinning?") != "yesno"
    assert question_form("In 6th, what happens when my squad runs?") != "yesno"
