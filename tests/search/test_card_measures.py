"""Number leads read off a rule: the distances a procedure or lookup card leads with."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.ask.answer import ask
from rulekb.kb.ask.card_measures import MAX_DISTANCES, distance_lead, rule_text
from rulekb.kb.search.searcher import get_index


def test_a_rule_s_distances_lead_after_those_of_the_quoted_ruling() -> None:
    ruling = "• В первом случае отряд ставят в пределах 6 дюймов от края стола, бросив 2D6."
    rule = ruling + " • Во втором случае отряд ставят не ближе чем в 9 дюймах от врага и тратят 1 CP."
    assert distance_lead(ruling) == "6″"
    assert distance_lead(ruling, rule) == "6″, 9″"  # the dice and the CP are no distance
    assert distance_lead("Бросьте 2D6 и потратьте 1 CP.") is None


def test_at_most_a_few_distances_lead() -> None:
    rule = " ".join(f"Случай {n}: в пределах {n} дюймов." for n in range(1, 8))
    assert distance_lead("", rule) == ", ".join(f"{n}″" for n in range(1, MAX_DISTANCES + 1))


def test_a_rule_reads_on_into_the_next_leaves_of_its_section_only(built: Path) -> None:
    index = get_index(built)
    ids = list(index.features)
    within = next(i for i, k in enumerate(ids[:-1]) if k.rsplit("/", 1)[0] == ids[i + 1].rsplit("/", 1)[0]
                  and index.features[ids[i + 1]].kind != "example")
    text = rule_text(index, ids[within])
    assert text.startswith(index.features[ids[within]].text)
    assert index.features[ids[within + 1]].text in text
    last = next(i for i, k in enumerate(ids[:-1]) if k.rsplit("/", 1)[0] != ids[i + 1].rsplit("/", 1)[0])
    assert rule_text(index, ids[last]) == index.features[ids[last]].text
    assert rule_text(index, "no/such/leaf") == ""


def test_a_how_question_naming_no_measure_is_led_by_the_rule_s_distance(built: Path) -> None:
    card = ask("Как выполняется консолидация в 10-й редакции?", build_dir=built)["card"]
    assert "3″." in card["text"].split("\n")[0]


def test_a_dice_distance_is_a_distance() -> None:
    from rulekb.kb.ask.card_measures import measures

    assert measures('Модели бегут на D6" вперёд, затем ещё на 2D6 дюймов; бросьте 2D6.') == ["D6″", "2D6″", "2D6"]
    assert distance_lead('Модели бегут на D6" вперёд.') == "D6″"


def test_a_how_far_question_reads_the_rest_of_the_rule_for_its_unit() -> None:
    from rulekb.kb.ask.card_measures import number_lead

    chosen = 'Модели должны остановиться в 1" от врага.'
    rule = 'Модели двигаются на расстояние до D6" в любом направлении, тратя 1 CP. ' + chosen
    assert number_lead(chosen, "На сколько дюймов они двигаются?") == "1″"
    assert number_lead(chosen, "На сколько дюймов они двигаются?", rule) == "1″, D6″"
    assert number_lead(chosen, "Сколько CP это стоит?", rule) == "1 CP"


def test_a_distance_the_rule_leaves_open_is_the_one_the_question_gives() -> None:
    from rulekb.kb.ask.card_measures import given_value, number_lead

    ruling = "Отряд со способностью «Прыжок x» перемещается на расстояние до x дюймов, но не ближе 9 дюймов к врагу."
    question = "Как работает «Прыжок 4\"» и как близко к врагу можно встать?"
    assert given_value(ruling, question).startswith("Отряд со способностью «Прыжок x» перемещается на расстояние до 4 дюймов")
    assert number_lead(ruling, question) == "4″, 9″"
    assert distance_lead(ruling, "", question) == "4″, 9″"
    assert given_value(ruling, "Как работает «Прыжок»?") == ruling  # no distance given
    assert given_value(ruling, "Прыжок 4\" или 6\"?") == ruling  # two distances: which one is x?
    assert number_lead(ruling, "Как работает «Прыжок»?") == "9″"


def test_an_english_line_gives_the_rest_of_the_rule_s_distances_and_counts(built: Path) -> None:
    from rulekb.kb.ask.card_english import english_line

    ruling = "Отряд может вместо этого переместиться к ближайшему маркеру цели."
    rule = ("Каждая модель перемещается на расстояние до 3 дюймов и при 5+ получает 3 смертельных ранения. "
            + ruling)
    assert ": 3″" not in english_line(built, "10", [], ruling, None)
    line = english_line(built, "10", [], ruling, None, rule)
    assert "3 mortal wounds" in line and "3″, 5+" in line


def test_a_distance_the_question_gives_for_something_else_does_not_fill_the_open_one() -> None:
    # review 13-1, finding 1: «Враг в 12"» measures the enemy, not the Scouts value
    from rulekb.kb.ask.card_measures import OPEN_DISTANCE, given_value, number_lead

    ruling = "Разведчики x): Подразделение может совершить обычное перемещение на расстояние до x дюймов."
    enemy = "Враг стоит в 12\" от моего отряда с Разведчиками: на сколько дюймов они могут пройти?"
    assert given_value(ruling, enemy) == ruling
    assert number_lead(ruling, enemy) is None
    assert distance_lead(ruling, "", enemy) == OPEN_DISTANCE
    given = "У отряда «Разведчики 6\"», враг в 12\": на сколько дюймов они могут пройти?"
    assert given_value(ruling, given).endswith("до 6 дюймов.")
    assert number_lead(ruling, given) == "6″"
    # the name may stand in the rest of the rule, the open distance in the ruling chosen
    assert given_value("Перемещение на расстояние до x дюймов.", "Разведчикам 6 дюймов хватит?", ruling).endswith("6 дюймов.")


def test_a_distance_the_rule_leaves_open_is_named_in_the_lead_before_the_others() -> None:
    # review 13-1, finding 2: «9″.» alone read as the Scouts move; it is the distance kept from the enemy
    from rulekb.kb.ask.card_measures import OPEN_DISTANCE

    ruling = "• Разведчики x): Подразделение может переместиться на расстояние до x дюймов."
    rule = ruling + " • Этот ход необходимо завершить на расстоянии более 9 дюймов от всех вражеских моделей."
    assert distance_lead(ruling, rule, "Как развернуть Разведчиков?") == f"{OPEN_DISTANCE}, 9″"
    assert distance_lead(ruling, rule, "Как развернуть «Разведчики 6\"»?") == "6″, 9″"


def test_a_dice_distance_with_a_capitalised_unit_is_a_distance() -> None:
    # review 13-1, finding 5: the rewrite was case-sensitive and the dice branch left out «“»
    from rulekb.kb.ask.card_measures import measures

    assert measures('двигается на D6 Дюймов и ещё 2D6" и 3 дюйма') == ["D6″", "2D6″", "3″"]
    assert measures("двигается на D3“") == ["D3″"]
    assert distance_lead("Модели бегут на 2D6 Дюймов.") == "2D6″"
