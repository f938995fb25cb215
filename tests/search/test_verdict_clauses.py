"""The clause that states what a yes/no question asks decides its verdict (thirteenth iteration): a
sentence may state the asked verb in one clause and deny something else in another; another verb
saying a rule applies states «срабатывать»; an example in brackets and a participle's phrase after its
noun state nothing; the verb asked with «ли» is the predicate, not the verbs told before it; a «Да,
если …» whose condition the told case contradicts leads nothing; a quoted name or a conjunction in a
told sentence asks nothing."""

from __future__ import annotations

import pytest

from rulekb.kb.ask.form import question_form
from rulekb.kb.text.asked import question_predicates
from rulekb.kb.text.stated import clause_polarities, stated_predicate
from rulekb.kb.text.verdict_cases import condition_contradicted
from rulekb.kb.text.verdicts import yes_no_lead


def test_the_clause_stating_the_asked_verb_decides_over_a_denial_of_something_else() -> None:
    ruling = "Беспомощная модель ничего не делает сама: по ней попадают автоматически, а она не может наносить удары."
    question = "По беспомощной модели попадают автоматически?"
    weights = {"беспомощный": 2.0, "модель": 1.0, "попадать": 2.0, "автоматически": 2.0}
    assert yes_no_lead(ruling, "ru", weights, question) == "Да."
    # asked about the other clause, the same sentence denies
    other = "Может ли беспомощная модель наносить удары?"
    assert yes_no_lead(ruling, "ru", {"беспомощный": 2.0, "наносить": 2.0, "удар": 2.0}, other) == "Нет."
    # a clause denying the asked verb keeps the «Нет» whatever another clause states
    both = "По беспомощной модели попадают автоматически, но по ней не попадают стрелки."
    assert [p for _, p in clause_polarities(both, ("попадать",))] == ["yes", "no"]
    assert yes_no_lead(both, "ru", weights, question) == "Нет."


def test_a_verb_saying_a_rule_applies_states_another() -> None:
    ruling = "Снятые так модели считаются уничтоженными, но при этом не запускаются никакие правила их гибели."
    question = "Срабатывают ли на них правила гибели?"
    assert stated_predicate(ruling, ("срабатывать",)) is not None
    assert yes_no_lead(ruling, "ru", {"правило": 1.0, "гибель": 2.0}, question) == "Нет."
    # a verb of no such sense states nothing («снимать» is no «срабатывать»)
    assert stated_predicate("Игрок снимает модели со стола.", ("срабатывать",)) is None


def test_an_example_in_brackets_states_nothing() -> None:
    ruling = "Одни отряды совершают рывки (например, отряд с умением, срабатывающим после гибели)."
    assert stated_predicate(ruling, ("срабатывать",)) is None
    assert stated_predicate("Умение срабатывает после гибели (см. стр. 12).", ("срабатывать",)) is not None


def test_a_participles_phrase_after_its_noun_states_nothing_but_one_opening_a_sentence_does() -> None:
    after = "Номера расчёта, стреляющие из орудия, не могут вести огонь из другого оружия."
    assert stated_predicate(after, ("стрелять",)) is None
    opening = "Стреляющие модели всегда могут видеть сквозь свой отряд."
    assert stated_predicate(opening, ("видеть",)) is not None


def test_the_verb_asked_with_li_is_the_predicate_not_the_verbs_told_before_it() -> None:
    assert question_predicates("в конце хода снял модели срабатывают ли на них абилки") == ("срабатывать",)
    assert question_predicates("Можно ли стрелять после рывка?") == ("стрелять",)
    # without «ли» the verbs of the sentence are read as before
    assert "снять" in question_predicates("снял модели, абилки срабатывают?")


def test_a_yes_if_whose_condition_the_told_case_contradicts_leads_nothing() -> None:
    assert condition_contradicted("живо не меньше 25% моделей или в нём герой",
                                  "В отряде осталось меньше 25% моделей, героя нет. Можно ли ему перегруппироваться?")
    assert not condition_contradicted("живо не меньше 25% моделей", "В отряде живо 30% моделей, не меньше 25%. Можно?")
    # a particle («не только») or a modal («не может») negates no case
    assert not condition_contradicted("рядом только вражеский самолёт", "Могу я сделать движение, а не только отступление?")
    assert not condition_contradicted("враг, которому он не может навредить", "Могу я провалить тест?")
    ruling = "Если живо не меньше 25% моделей отряда, он может перегруппироваться."
    told = "В отряде осталось меньше 25% моделей. Может ли он перегруппироваться?"
    weights = {"модель": 1.0, "отряд": 1.0, "перегруппироваться": 2.0}
    assert yes_no_lead(ruling, "ru", weights, told) is None
    kept = "В отряде живы почти все модели. Может ли он перегруппироваться?"
    assert str(yes_no_lead(ruling, "ru", weights, kept)).startswith("Да, если")


@pytest.mark.parametrize(
    "question",
    [
        # a question word inside a quoted name
        "Когда в конце хода снимаю модели, — срабатывают ли на них умения «когда модель уничтожена»?",
        # a question word joining a clause to a verb in a told sentence
        "Кубик укатился, я его перебросил. Соперник говорит, что это был мой переброс. Считается ли такой бросок перебросом?",
    ],
)
def test_a_question_word_of_a_name_or_of_a_told_clause_asks_nothing(question: str) -> None:
    assert question_form(question) == "yesno"



def test_an_alternative_question_asks_its_first_alternative() -> None:
    from rulekb.kb.text.asked import alternative

    question = "На кубике выпала единица. Это автоматический успех или всё равно сравниваем с характеристикой?"
    assert alternative(question) == "это автоматический успех"
    assert question_predicates(question) == ()  # a nominal alternative states no verb
    # two objects of one verb, «или нет», and «ли» before «или» are no alternative question
    assert alternative("Можно стрелять из пистолета или из болтера?") is None
    assert alternative("Тест пройден или нет?") is None
    assert alternative("Можно ли двигаться или стрелять?") is None
    # a denial of something else answers neither alternative
    ruling = "Кубик нельзя перебросить более одного раза."
    assert yes_no_lead(ruling, "ru", {"кубик": 1.0, "единица": 2.0, "успех": 2.0}, question) is None
    assert yes_no_lead(ruling, "ru", {"кубик": 1.0, "единица": 2.0, "успех": 2.0},
                       "На кубике выпала единица. Это автоматический успех?") is None  # a ban on re-rolling is no «Нет» to «успех?»


def test_an_inline_exception_stating_the_told_case_denies() -> None:
    ruling = ("Граната. Отряд из вашей армии (за исключением отрядов, которые продвинулись вперед или отступили в этом ходу), "
              "который находится вне зоны досягаемости врага, может бросить гранаты.")
    question = "Мой отряд в этом ходу продвинулся вперед. Можно ему бросить гранаты?"
    weights = {"отряд": 1.0, "ход": 1.0, "вперед": 2.0, "продвинуться": 2.0, "бросить": 2.0, "граната": 3.0}
    situation = {"отряд": "отряд", "ход": "ход", "вперед": "вперед", "продвинуться": "вперед"}
    assert yes_no_lead(ruling, "ru", weights, question, situation=situation) == "Нет."
    # a case the exception does not state keeps the permission
    stayed = {"отряд": "отряд", "ход": "ход"}
    assert str(yes_no_lead(ruling, "ru", weights, "Мой отряд стоял в этом ходу. Можно ему бросить гранаты?",
                           situation=stayed)).startswith("Да")


def test_a_terse_infinitive_query_asks_yes_or_no() -> None:
    assert question_form("закончить движение в руинах") == "yesno"
    assert question_form("стрелять после рывка?") == "yesno"
    # a question word still asks
    assert question_form("стрелять после рывка: как?") != "yesno"
    assert question_form("дальность стрельбы после рывка") != "yesno"
