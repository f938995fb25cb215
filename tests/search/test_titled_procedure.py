"""A procedure question's card reads the ordered steps printed under the heading naming what it asks,
though retrieval ranks that passage below one that prints the question's other words more often."""

from __future__ import annotations

from rulekb.kb.text.choice import choose
from rulekb.kb.text.context import heading_lemmas
from rulekb.kb.text.sentences import Sentence
from rulekb.kb.text.steps import acts, is_titled_procedure

BANNERS = (
    "Для отрядов с знамёнами используются два разных знамени и штандарт:",
    "•Малое знамя отряда (2\" в высоту)",
    "•Большое знамя отряда (4\" в высоту)",
)
OTHER = ("Отряд, который бежит, не может стрелять и объявлять нападение.",)
STEPS = (
    "Иногда отряд должен перегруппироваться после бегства.",
    "В этом случае следуйте нижеприведенному порядку:",
    "•Бросьте 2D6 за отряд, который хочет перегруппироваться.",
    "•Если результат не больше его лидерства, перегруппировка удалась: отряд больше не бежит.",
    "•Если перегруппировка провалена, отряд продолжает бежать.",
)
WEIGHTS = {"перегруппировка": 5.5, "знамя": 5.0, "отряд": 1.0, "отыграть": 6.0}


def _passage(texts: tuple[str, ...]) -> list[Sentence]:
    return [Sentence.read(t) for t in texts]


def _candidates() -> list[tuple[str, str, list[Sentence]]]:
    return [("banners", "rule", _passage(BANNERS)), ("other", "rule", _passage(OTHER)),
            ("steps", "rule", _passage(STEPS))]


def test_an_item_naming_a_thing_does_not_act_and_a_step_does() -> None:
    assert not acts(BANNERS[1])
    assert acts(STEPS[2])
    assert acts("• Отряд залегает")


def test_the_steps_under_the_heading_naming_the_asked_word_lead_a_procedure() -> None:
    headings = {"banners": heading_lemmas("Знамёна"), "other": (), "steps": heading_lemmas("Перегруппировка")}
    choice = choose(_candidates(), WEIGHTS, set(), "procedure", headings=headings)
    assert choice is not None and choice.node_id == "steps"


def test_without_such_a_heading_the_first_passage_leads() -> None:
    headings = {"banners": heading_lemmas("Знамёна"), "other": (), "steps": heading_lemmas("Бегство")}
    choice = choose(_candidates(), WEIGHTS, set(), "procedure", headings=headings)
    assert choice is not None and choice.node_id == "banners"


def test_a_lookup_question_keeps_the_ranking() -> None:
    headings = {"banners": heading_lemmas("Знамёна"), "other": (), "steps": heading_lemmas("Перегруппировка")}
    choice = choose(_candidates(), WEIGHTS, set(), "lookup", headings=headings)
    assert choice is not None and choice.node_id == "banners"


def test_a_heading_naming_it_over_items_that_do_not_act_is_no_procedure() -> None:
    items = _passage(("•Малая перегруппировка (2\")", "•Большая перегруппировка (4\")"))
    assert not is_titled_procedure(items, heading_lemmas("Перегруппировка"), WEIGHTS, None, 6.0)
    assert is_titled_procedure(_passage(STEPS), heading_lemmas("Перегруппировка"), WEIGHTS, None, 6.0)
