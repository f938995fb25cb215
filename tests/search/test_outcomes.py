"""A test's outcome asked about and stated by either word of the pair (thirteenth iteration): «пройден»
against «провал», «успех» against «неудача»; the part of the ruling about the roll the question tells
decides."""

from __future__ import annotations

from rulekb.kb.text.outcomes import asked_outcome, outcome_verdict
from rulekb.kb.text.verdicts import yes_no_lead

RULING = ("При проверке характеристики выпадение 6 всегда означает неудачу, а 1 – это всегда успех. "
          "Однако если у модели характеристика 0, то это всегда считается автоматическим провалом проверки.")
WEIGHTS = {"проверка": 2.0, "характеристика": 2.0, "модель": 1.0, "модификатор": 1.0}


def test_the_outcome_asked() -> None:
    assert asked_outcome("Выпала 1. Проверка пройдена?") == "pass"
    assert asked_outcome("Выпала шестёрка. Проверка провалена?") == "fail"
    assert asked_outcome("Выпала 1. Это автоматический успех или всё равно сравниваем с характеристикой?") == "pass"
    assert asked_outcome("Выпала 1. Проверка не пройдена?") == "fail"
    # a permission asked, or a way of taking the test, is no outcome
    assert asked_outcome("Можно ли пройти проверку повторно?") is None
    assert asked_outcome("Проверку теперь проходить только на двойную единицу?") is None


def test_the_part_about_the_roll_told_decides() -> None:
    assert outcome_verdict(RULING, "Выпала 1, у модели куча минусов. Проверка пройдена?", WEIGHTS) == "yes"
    assert outcome_verdict(RULING, "Выпала единица. Проверка провалена?", WEIGHTS) == "no"
    assert outcome_verdict(RULING, "Выпала 6. Проверка пройдена?", WEIGHTS) == "no"
    # the characteristic 0 the question tells is the case too
    assert outcome_verdict(RULING, "Выпала 1, а у модели характеристика 0. Проверка пройдена?", WEIGHTS) == "no"
    # a ruling stating no outcome answers nothing
    assert outcome_verdict("Бросьте D6 и сравните с характеристикой.", "Выпала 1. Проверка пройдена?", WEIGHTS) is None


def test_the_card_leads_with_the_outcome_verdict() -> None:
    assert yes_no_lead(RULING, "ru", WEIGHTS, "Выпала 1, у модели минусы. Это автоматический успех или сравниваем?") == "Да."
    assert yes_no_lead(RULING, "ru", WEIGHTS, "Выпала 1, а у модели характеристика 0. Проверка пройдена?") == "Нет."


def test_a_ruling_saying_how_a_test_may_be_passed_states_no_outcome() -> None:
    permitting = "Однако если у модели характеристика 0, то проверку можно пройти только на 1."
    assert outcome_verdict(permitting, "Выпала 1, а характеристика 0. Проверка пройдена?", WEIGHTS) is None
