"""The reviewer's inputs of review 13-3 (yes/no verdicts): each finding's case, read as the ruling says."""

from __future__ import annotations

from rulekb.kb.ask.form import question_form
from rulekb.kb.ask.form_asking import infinitive_asks, main_clauses_ask
from rulekb.kb.text.asked import alternative, question_predicates
from rulekb.kb.text.outcomes import asked_outcome
from rulekb.kb.text.stated import stated_predicate
from rulekb.kb.text.verdict_cases import condition_contradicted, situation_excepted
from rulekb.kb.text.verdicts import yes_no_lead


def test_an_outcome_in_the_condition_is_not_the_outcome_asked() -> None:  # finding 1
    for question in ("Если тест провален, весь отряд уничтожается?", "Тест провален — весь отряд уничтожается?",
                     "После проваленного теста отряд уничтожается?"):
        assert asked_outcome(question) is None, question
    ruling = "Если результат броска не больше лидерства, тест пройден. Если тест провален, из отряда сбегает одна модель."
    weights = {"тест": 1.0, "провалить": 1.0, "отряд": 1.0, "уничтожаться": 1.0, "весь": 1.0}
    assert yes_no_lead(ruling, "ru", weights, "Если тест провален, весь отряд уничтожается?") != "Да."
    assert asked_outcome("Выпала 1. Тест пройден?") == "pass"
    assert asked_outcome("Выпала 1. Бросок успешный?") == "pass"


def test_a_denial_anywhere_before_the_outcome_negates_it() -> None:  # finding 2
    assert yes_no_lead("Результат 1 на кубике не считается успехом, даже с модификаторами.", "ru",
                       {"результат": 1.0, "успех": 1.0, "модификатор": 1.0},
                       "Выпала 1 с модификатором +1. Это успех?") == "Нет."
    assert yes_no_lead("Бросок с результатом 1 никогда не бывает успешным.", "ru",
                       {"бросок": 1.0, "успешный": 1.0, "результат": 1.0}, "Выпала 1. Бросок успешный?") == "Нет."
    assert asked_outcome("Выпала 1. Тест не был пройден?") == "fail"


def test_a_main_clause_opening_with_a_participle_is_read() -> None:  # finding 3
    found = stated_predicate("Стрелявший отряд может двигаться, стрелявший отряд не может атаковать.", ("атаковать",))
    assert found is not None and found[1] == "no"
    ruling = "Атакующая модель наносит удары первой, атакованная модель не может наносить удары в этой фазе."
    weights = {"атаковать": 1.0, "модель": 1.0, "наносить": 1.0, "удар": 1.0, "фаза": 1.0}
    assert yes_no_lead(ruling, "ru", weights, "Может ли атакованная модель наносить удары в этой фазе?") == "Нет."
    # a participle's phrase after its noun still qualifies it
    found = stated_predicate("Номера расчёта, стреляющие из орудия, не могут двигаться.", ("стрелять",))
    assert found is None


def test_an_or_inside_a_condition_is_no_alternative_question() -> None:  # finding 4
    assert question_predicates("Если модель стреляла или двигалась, может она атаковать?") == ("атаковать",)
    assert question_predicates("Отряд, который стрелял или двигался, может атаковать?") == ("атаковать",)
    assert alternative("Если модель стреляла или двигалась, может она атаковать?") is None
    assert yes_no_lead("Отряд не может атаковать в фазе нападения, если он совершил рывок в этом ходу.", "ru",
                       {"отряд": 1.0, "атаковать": 1.0, "рывок": 1.0, "совершить": 1.0, "стрелять": 1.0},
                       "Если отряд стрелял или совершил рывок, может он атаковать?") == "Нет."
    lead = yes_no_lead("Отряд может атаковать в фазе нападения, даже если он стрелял в этом ходу.", "ru",
                       {"отряд": 1.0, "атаковать": 1.0, "стрелять": 1.0, "двигаться": 1.0},
                       "Если отряд стрелял или двигался, он может атаковать?")
    assert lead is not None and lead.startswith("Да")


def test_an_inch_mark_quotes_nothing() -> None:  # finding 5
    assert question_form('Когда враг стоит в 9" от отряда, отряд стреляет из оружия на 12"?') == "yesno"
    assert main_clauses_ask('Враг в 9" от меня, за руинами. Отряд на 12" от врага стреляет по нему?')


def test_a_judgement_of_what_was_told_keeps_its_verbs() -> None:  # finding 6
    assert question_predicates("Отряд сделал рывок и стрелял, разрешено ли это?") == ("сделать", "стрелять")
    assert yes_no_lead("Отряд, совершивший рывок, может стрелять из оружия с правилом «Штурмовое».", "ru",
                       {"отряд": 1.0, "рывок": 1.0, "стрелять": 1.0, "штурмовой": 1.0, "оружие": 1.0},
                       "Отряд сделал рывок и стрелял из штурмового оружия, разрешено ли это?") == "Да."


def test_outside_the_zone_is_consistent_with_not_in_the_zone() -> None:  # finding 7
    assert not condition_contradicted("отряд не находится в зоне досягаемости врага",
                                      "Мой отряд находится в руинах, вне зоны досягаемости врага. Может ли он бросить гранаты?")
    assert condition_contradicted("живо не меньше 25% моделей или в нём независимый персонаж",
                                  "В отряде меньше 25% моделей, независимого персонажа нет. Можно?")


def test_moreover_is_no_exception() -> None:  # finding 8
    situation = {t: t for t in ("отряд", "ход", "вперед", "продвинуться")}
    weights = {"отряд": 1.0, "ход": 1.0, "вперед": 1.0, "продвинуться": 1.0, "бросить": 1.0, "граната": 1.0}
    ruling = "Кроме того отряд, который продвинулся вперед, может бросить гранаты."
    assert not situation_excepted([ruling], weights, situation)
    assert yes_no_lead(ruling, "ru", weights, "Мой отряд в этом ходу продвинулся вперед. Можно ему бросить гранаты?",
                       situation=situation) == "Да."


def test_a_finding_out_infinitive_asks_how() -> None:  # finding 9
    for query in ("Определить видимость через руины", "Измерить дистанцию до врага через руины",
                  "Посчитать укрытие для техники"):
        assert not infinitive_asks(query), query
        assert question_form(query) != "yesno", query
    assert infinitive_asks("Стрелять после рывка?")


def test_a_weaker_sentence_lifting_the_exception_is_looked_at() -> None:  # finding 10
    situation = {t: t for t in ("отряд", "ход", "вперед", "продвинуться", "штурм")}
    weights = {"отряд": 1.0, "ход": 1.0, "вперед": 1.0, "продвинуться": 1.0, "бросить": 1.0, "граната": 1.0, "штурм": 1.0}
    ruling = ("Отряд из вашей армии (за исключением отрядов, которые продвинулись вперед в этом ходу) может бросить "
              "гранаты. Отряды с правилом «Штурм» игнорируют это: продвинувшиеся вперед тоже бросают.")
    assert yes_no_lead(ruling, "ru", weights, "Мой отряд со Штурмом в этом ходу продвинулся вперед. Можно ему бросить гранаты?",
                       situation=situation) != "Нет."


def test_a_pointer_in_brackets_rules_nothing() -> None:  # finding 12
    assert stated_predicate("Модели отряда стоят (см. стр. 12, умение срабатывает после гибели).", ("срабатывать",)) is None
    assert stated_predicate("Модели отряда стоят (напр. умение срабатывает после гибели).", ("срабатывать",)) is None
    assert stated_predicate("Модели отряда стоят (e.g. умение срабатывает после гибели).", ("срабатывать",)) is None
