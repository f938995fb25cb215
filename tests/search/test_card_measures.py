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
