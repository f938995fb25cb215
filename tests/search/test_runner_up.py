"""The runner-up passage's ruling joins the card when its sentence scores nearly as much as the chosen one."""

from __future__ import annotations

from rulekb.kb.text.choice import choose
from rulekb.kb.text.runner_up import RUNNER_UP, RUNNER_UP_NEW, with_runner_up
from rulekb.kb.text.sentences import Sentence

sentence = Sentence.read


TURBO = sentence("Мотоциклы и гравициклы не могут бегать, но при турбоускорении передвигаются максимум на 12 дюймов.")
FALL_BACK = sentence("Мотоциклы и гравициклы передвигаются на 3D6 дюймов при отступлении, а не на 2D6.")
WEIGHTS = {"мотоцикл": 2.0, "гравицикл": 2.0, "отступление": 1.0}


def test_the_second_passage_s_sentence_scoring_nearly_as_much_joins_the_first_s() -> None:
    choice = choose([("bikes", "rule", [TURBO]), ("fall-back", "rule", [FALL_BACK])], WEIGHTS, set(), "number")
    assert choice is not None and choice.node_id == "bikes"
    # the chosen text stays the first passage's (a verdict is read off it); the runner-up rules beside it
    assert choice.text == TURBO.text and choice.runner == FALL_BACK.text and choice.runner_node == "fall-back"


def test_a_second_passage_scoring_much_less_does_not_join() -> None:
    weak = sentence("Мотоциклы передвигаются при отступлении по обычным правилам для отступления.")
    choice = choose([("bikes", "rule", [TURBO]), ("fall-back", "rule", [weak])], WEIGHTS, set(), "number")
    assert choice is not None and choice.text == TURBO.text and choice.runner == "" and choice.runner_node is None


def test_a_runner_up_adding_no_asked_term_or_marked_non_ruling_does_not_join() -> None:
    usable = [("bikes", "rule", [TURBO]), ("again", "rule", [sentence("Мотоциклы и гравициклы быстры: 12 дюймов.")])]
    assert with_runner_up(usable, 0, TURBO.text, 5.0, [(5.0, 0), (4.9, 0)], WEIGHTS) is None
    flavour = [("bikes", "rule", [TURBO]), ("story", "rule", [sentence(FALL_BACK.text, "flavour")])]
    assert with_runner_up(flavour, 0, TURBO.text, 5.0, [(5.0, 0), (4.9, 0)], WEIGHTS) is None
    # the same sentence, marked as a rule, joins at the share and not below it
    ruling = [("bikes", "rule", [TURBO]), ("fall-back", "rule", [FALL_BACK])]
    assert with_runner_up(ruling, 0, TURBO.text, 5.0, [(5.0, 0), (RUNNER_UP * 5.0, 0)], WEIGHTS) == (
        "fall-back", FALL_BACK.text)
    assert with_runner_up(ruling, 0, TURBO.text, 5.0, [(5.0, 0), (RUNNER_UP * 5.0 - 0.01, 0)], WEIGHTS) is None


def test_a_comparison_part_does_not_take_the_runner_up() -> None:
    choice = choose([("bikes", "rule", [TURBO]), ("fall-back", "rule", [FALL_BACK])], WEIGHTS, set(), "comparison")
    assert choice is not None and FALL_BACK.text not in choice.text and choice.runner == ""


def test_a_runner_up_whose_new_terms_are_light_does_not_join() -> None:
    ruling = [("bikes", "rule", [TURBO]), ("fall-back", "rule", [FALL_BACK])]
    scores = [(5.0, 0), (4.9, 0)]
    light = {**WEIGHTS, "отступление": 2.0 * RUNNER_UP_NEW * 0.9}  # «мотоцикл» weighs 2.0
    assert with_runner_up(ruling, 0, TURBO.text, 5.0, scores, light) is None
    weighty = {**WEIGHTS, "отступление": 2.0 * RUNNER_UP_NEW * 1.1}
    assert with_runner_up(ruling, 0, TURBO.text, 5.0, scores, weighty) == ("fall-back", FALL_BACK.text)
