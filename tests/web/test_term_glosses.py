"""A rule page's term tooltips use that book's senses and renderings only."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from rulekb.corpus.models import RuleNode


def _glossed(client: FlaskClient, node: RuleNode) -> list[tuple[str, str]]:
    """(concept, linked text) of every term link on the node's page body."""
    page = client.get(f"/rules/{node.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    return re.findall(r'<a class="term-link" href="[^"]*" data-concept="([^"]+)"[^>]*>([^<]+)</a>', html)


@pytest.mark.parametrize("line", [36, 57, 62, 304])
def test_a_sixth_edition_squad_is_a_unit(client: FlaskClient, leaf_at: Callable[[str, int], RuleNode], line: int) -> None:
    concepts = {c for c, _ in _glossed(client, leaf_at("6e-assault", line))}
    assert "squad" not in concepts  # Kill Team's «отряд»


def test_a_charging_unit_is_not_the_mission_attacker(client: FlaskClient, leaf_at: Callable[[str, int], RuleNode]) -> None:
    glossed = _glossed(client, leaf_at("6e-assault", 62))
    assert "attacker" not in {c for c, _ in glossed}
    assert any(c == "charge" and "нападающ" in text.casefold() for c, text in glossed)


def test_their_initiative_step_coming_is_not_a_charge(client: FlaskClient, leaf_at: Callable[[str, int], RuleNode]) -> None:
    glossed = _glossed(client, leaf_at("6e-assault", 135))
    assert not [text for c, text in glossed if c == "charge" and "наступ" in text.casefold()]


def test_a_heading_word_in_a_sentence_is_not_glossed(client: FlaskClient, leaf_at: Callable[[str, int], RuleNode]) -> None:
    # «Тяжелый» heads the Heavy rule; «Тяжелое вооружение» in the sentence under it is no gloss of it
    glossed = _glossed(client, leaf_at("10e-core", 863))
    assert not [text for c, text in glossed if c == "heavy" and text.startswith("Тяжел") and not text.isupper()]


def test_a_shared_string_is_glossed_in_its_sense(client: FlaskClient, leaf_at: Callable[[str, int], RuleNode]) -> None:
    glossed = _glossed(client, leaf_at("10e-core", 985))  # the charge phase: «атака» is a charge
    assert any(c == "charge" for c, _ in glossed)
    assert not [t for c, t in glossed if c == "attack" and t.casefold().startswith("атак")]


def test_the_term_page_shows_each_lines_sense(client: FlaskClient) -> None:
    html = client.get("/terms/range").get_data(as_text=True)
    assert "смысл: cue «оружия»" in html  # «досягаемость» at 10e-core 539 counts as weapon range, and why
