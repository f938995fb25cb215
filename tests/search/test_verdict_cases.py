"""The verdict a ruling states about the case a yes/no question tells: a distance against the ruling's
bound, a case the ruling includes or excepts inline, a list of cases its lead-in forbids, doing a thing
again under a ruling allowing it once; and the form of a question with a modal and a measure word."""

from __future__ import annotations

from rulekb.kb.ask.form import question_form
from rulekb.kb.text.asked import question_situation
from rulekb.kb.text.sentences import Sentence
from rulekb.kb.text.verdict_cases import bound_fails, case_included, question_distances
from rulekb.kb.text.verdicts import only_one_denies, yes_no_lead

PERMITS_WITHIN = ("Это подразделение может быть выбрано в качестве цели для атаки дальнего боя только в том случае, "
                  "если атакующая модель находится в пределах 12 дюймов.")
WEIGHTS = {"цель": 2.0, "выбрать": 1.0, "атака": 1.0, "модель": 0.5}


def test_a_distance_the_question_gives_is_read_in_inches() -> None:
    assert question_distances("враг в 18 дюймах, могу выбрать целью?") == {18}
    assert question_distances('Can I set up 8" away?') == {8}
    assert question_distances("a charge of 2D6″, can it reach?") == set()  # a dice roll is no distance


def test_a_distance_breaking_the_bound_a_permission_sets_denies() -> None:
    far = "Враг в 18 дюймах от моего лазпушки. Могу я выбрать его целью?"
    near = "Враг в 10 дюймах от моего лазпушки. Могу я выбрать его целью?"
    assert bound_fails([PERMITS_WITHIN], far, WEIGHTS)
    assert not bound_fails([PERMITS_WITHIN], near, WEIGHTS)
    assert yes_no_lead(PERMITS_WITHIN, "ru", WEIGHTS, far) == "Нет."
    assert yes_no_lead(PERMITS_WITHIN, "ru", WEIGHTS, near) != "Нет."
    # a minimum distance: «более 9 дюймов» is broken by 8, kept by 10
    more_than = "Его можно установить в любом месте поля боя на расстоянии более 9 дюймов от зоны развертывания противника."
    weights = {"установить": 1.0, "зона": 1.0, "развертывание": 1.0}
    assert bound_fails([more_than], "Можно ли установить отряд в 8 дюймах от зоны развертывания?", weights)
    assert not bound_fails([more_than], "Можно ли установить отряд в 10 дюймах от зоны развертывания?", weights)


def test_a_prohibition_s_bound_denies_the_distance_within_it_and_a_quoted_bound_is_another_rule_s() -> None:
    forbids = "Модель не может быть установлена в пределах 9 дюймов от вражеских моделей."
    weights = {"установить": 1.0, "вражеский": 1.0, "модель": 0.5}
    assert bound_fails([forbids], "Можно ли установить модель в 8 дюймах от вражеских моделей?", weights)
    assert not bound_fails([forbids], "Можно ли установить модель в 10 дюймах от вражеских моделей?", weights)
    quoted = "Этот эффект изменяется на «может быть выбрана целью, только если атакующая модель в пределах 18 дюймов»."
    assert not bound_fails([quoted], "Враг в 24 дюймах, могу выбрать его целью?", WEIGHTS)
    # two distances in the question: which one the bound is about is not known
    assert not bound_fails([PERMITS_WITHIN], "Враг в 18 дюймах, мой отряд в 6 дюймах. Могу выбрать целью?", WEIGHTS)


def test_a_case_the_ruling_includes_inline_answers_whether_the_rule_applies() -> None:
    ruling = ("Каждый раз, когда модель с этой способностью теряет рану (включая раны, потерянные из-за смертельных "
              "ранений), бросьте один D6: при 5+ рана игнорируется.")
    weights = {"смертельный": 2.0, "ранение": 1.0, "рана": 1.0, "способность": 1.0}
    assert case_included([ruling], weights)
    assert yes_no_lead(ruling, "ru", weights, "Способность работает от смертельных ранений?") == "Да."
    # a question asking something else than whether the rule applies gets no verdict from the inclusion
    assert yes_no_lead(ruling, "ru", weights, "Способность перебрасывается от смертельных ранений?") is None
    # nor does an inclusion the question does not name
    assert not case_included([ruling], {"способность": 1.0, "рана": 1.0})


def test_an_english_answer_excepting_inline_the_asked_case_denies() -> None:
    answer = "A characteristic test can be taken on any characteristic of a model except Leadership and its armour save."
    weights = {"characteristic": 1.0, "test": 1.0, "leadership": 1.0, "armour": 1.0, "save": 1.0}
    assert yes_no_lead(answer, "en", weights, "Can a rule make a model take a test on its Leadership?") == "No."
    assert yes_no_lead(answer, "en", {"characteristic": 1.0, "test": 1.0, "toughness": 1.0},
                       "Can a rule make a model take a test on its Toughness?") == "Yes."


def test_a_list_item_under_a_lead_in_that_forbids_denies_the_question_s_situation() -> None:
    ruling = ("Некоторым отрядам запрещено объявлять нападение. Это возможно по следующим причинам: "
              "• Отряд бежал в фазу стрельбы • Отряд стрелял из Тяжёлого оружия в фазу стрельбы. "
              "В дополнение к предыдущему, отряд, который стрелял в фазу стрельбы, может объявить нападение лишь на тот отряд, "
              "по которому стрелял.")
    weights = {"отряд": 0.5, "стрелять": 1.0, "тяжелый": 0.5, "объявить": 2.0, "нападение": 1.0}
    assert yes_no_lead(ruling, "ru", weights) == "Да."  # the sentence carrying most of the question permits
    assert yes_no_lead(ruling, "ru", weights, situation={"тяжелый": "тяжелый"}) == "Нет."
    # a situation the sentences outside the list state too decides nothing there
    assert yes_no_lead(ruling, "ru", weights, situation={"стрелять": "стрелять"}) == "Да."


def test_a_situation_told_before_a_dash_in_the_asking_sentence_is_the_question_s_situation() -> None:
    told = question_situation("Отряд палил из тяжёлого болтера — может он после этого объявить нападение?")
    assert "тяжелый" in told and "болтер" in told
    # a dash inside the asking part tells nothing before it
    assert "болтер" not in question_situation("Может ли отряд объявить нападение после стрельбы — и на кого?")


def test_doing_a_thing_again_is_denied_by_a_ruling_allowing_it_once() -> None:
    once = "Прыжковые боевые единицы могут использовать свои прыжковые ранцы всего раз за каждый ход."
    assert only_one_denies("в фазу наступления могут опять включить ранцы?", once)
    assert only_one_denies("Can it use its jump pack again?", "It can be used only once per turn.")
    assert not only_one_denies("могут включить ранцы в фазу наступления?", once)


def test_a_modal_without_a_question_word_asks_yes_or_no_though_it_names_a_measure() -> None:
    assert question_form("в фазу наступления могут опять включить ранцы и перекинуть дистанцию нападения?") == "yesno"
    assert question_form("напарник стоит в 2 дюймах — напарник тоже может открыть огонь?") == "yesno"
    assert question_form("дальность нападения прыжковых ранцев") == "number"
    assert question_form("на какое расстояние может двигаться прыжковый ранец?") == "number"


def test_a_faq_answer_s_opening_verdict_gives_way_to_what_its_rest_states_for_the_question_asked() -> None:
    from rulekb.kb.text.verdicts import answer_verdict

    answer = ("Нет: если единственные вражеские модели в зоне поражения отряда — САМОЛЁТЫ, он может сделать обычное "
              "перемещение или продвижение.")
    asked = "Мой отряд в зоне поражения самолёта. Могу я сделать им обычное движение?"
    assert answer_verdict(answer, asked).startswith("Да. Если единственные вражеские модели")
    # the entry's own question («Нужно ли отступать?») has no predicate the rest states: as written
    assert answer_verdict(answer, "Мой отряд в зоне поражения самолёта. Нужно ли ему отступать?") == answer
    # a rest that restricts («нужно», «только») is no contradiction of a «Нет»
    restricted = "Нет: прыжковые ранцы используют только раз за ход — либо в фазе движения, либо в фазе наступления."
    assert answer_verdict(restricted, "Можно ли использовать ранцы и в фазе движения, и в фазе наступления?") == restricted
    agreeing = "Да: отряд может сделать обычное перемещение."
    assert answer_verdict(agreeing, asked) == agreeing


_sentence = Sentence.read


def test_the_sentence_allowing_once_joins_a_card_asked_about_both_and_denies() -> None:
    from rulekb.kb.ask.card_verdict import limiting_sentence

    question = "Можно ли использовать ранцы и в фазе движения, и в фазе наступления одного хода?"
    shown = "Модель, использующая прыжковый ранец, может свободно передвигаться над моделями в фазе движения."
    once = "Прыжковые единицы могут использовать свои ранцы всего раз за каждый ход – либо в фазе движения, либо в фазе наступления."
    weights = {"использовать": 1.0, "ранец": 2.0, "фаза": 0.5, "движение": 1.0, "наступление": 1.0, "ход": 0.5}
    passages = [("a", [_sentence(shown)]), ("b", [_sentence("Ранцы описаны ниже.", "flavour"), _sentence(once)])]
    found = limiting_sentence(question, "ru", None, shown, shown, weights, passages)
    assert found == ("b", once)
    assert only_one_denies(question, f"{shown} {found[1]}")
    # a question asking about one use takes nothing, nor does a text that limits already
    assert limiting_sentence("Можно ли использовать ранцы в фазе наступления?", "ru", None, shown, shown, weights,
                             passages) is None
    assert limiting_sentence(question, "ru", None, once, once, weights, passages) is None
    # a sentence naming «одного и того же …» limits nothing; one carrying little of the question and not
    # stating what is asked does not join
    same = "Все атаки одного и того же профиля выполняются до атак другого профиля."
    little = "Каждый юнит можно выбрать только один раз за фазу."
    assert limiting_sentence(question, "ru", None, shown, shown, weights,
                             [("c", [_sentence(same)]), ("d", [_sentence(little)])]) is None


def test_a_yes_on_a_condition_sharing_no_word_with_the_case_the_question_tells_leads_nothing() -> None:
    ruling = "Если на поле боя есть подходящие юниты вашей армии, вы можете выбрать эти юниты, чтобы объявить атаку."
    weights = {"выбрать": 1.0, "атака": 1.0, "глубокий": 2.0, "удар": 1.0}
    # the permission holds on a case the question does not tell: no verdict rather than «Да, если …»
    assert yes_no_lead(ruling, "ru", weights, "Можно выбрать их для атаки после глубокого удара?") is None
    # a question telling no case of its own gets the condition as the answer
    assert str(yes_no_lead(ruling, "ru", weights, "Можно выбрать их для атаки?")).startswith("Да, если на поле боя")
    told = {**weights, "юнит": 1.0, "армия": 1.0}
    assert str(yes_no_lead(ruling, "ru", told, "Юниты армии рядом. Можно выбрать их для атаки?")).startswith("Да, если")
