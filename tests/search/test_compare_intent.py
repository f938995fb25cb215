"""A question comparing editions gets each edition's rule at the top, not a filter on one."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.kb.ask.answer import ask
from rulekb.kb.search.query import is_comparison, parse_query


@pytest.mark.parametrize(
    "question",
    [
        "Как изменился овервотч с 6-й редакции?",
        "Чем отличается консолидация в 6-й и 10-й?",
        "Разница между тестом на лидерство в шестёрке и боевым шоком",
        "overwatch 6th vs 10th",
        "How did charging change since 6th edition?",
    ],
)
def test_comparisons_are_recognised(question: str) -> None:
    assert is_comparison(question)


@pytest.mark.parametrize(
    "question",
    [
        "Как в 10-ке проходит тест на лидерство: сколько кубов и с чем сравнивать?",
        "Различные значения стойкости в отряде",
        "Сравните результат броска с лидерством",
        "What changes a hit roll modifier?",
    ],
)
def test_other_questions_are_not(question: str) -> None:
    assert not is_comparison(question)


def test_one_named_edition_is_compared_with_the_newest() -> None:
    parsed = parse_query("Как изменился овервотч с 6-й редакции?")
    assert parsed.compare and parsed.editions == ["6", "10"]
    assert parse_query("Как изменился овервотч в 10-й?").editions == ["10", "6"]
    assert not parse_query("Овервотч в 6-й").compare


@pytest.mark.parametrize(
    "question",
    ["Как изменился овервотч с 6-й редакции?", "Чем отличается консолидация в 6-й и 10-й?"],
)
def test_each_compared_edition_leads(built: Path, question: str) -> None:
    result = ask(question, build_dir=built, limit=5)
    assert {hit["edition"] for hit in result["hits"][:2]} == {"6", "10"}


def test_a_comparison_answers_with_one_sentence_per_edition(built: Path) -> None:
    result = ask("Чем отличается консолидация в 6-й и 10-й?", build_dir=built)
    parts = result["answer"]["parts"]
    assert {part["edition"] for part in parts} == {"6", "10"}
    hit_ids = {hit["node_id"] for hit in result["hits"]}
    assert all(part["node_id"] in hit_ids and part["text"] for part in parts)
    assert "parts" not in (ask("Как работает консолидация в 10-й?", build_dir=built)["answer"] or {})


def test_the_search_page_shows_each_edition_s_answer(built: Path) -> None:
    from rulekb.webapp import create_app

    client = create_app({"BUILD_DIR": str(built), "TESTING": True}).test_client()
    page = client.get("/search", query_string={"q": "Чем отличается консолидация в 6-й и 10-й?"})
    assert page.status_code == 200
    assert page.get_data(as_text=True).count('class="answer-part"') == 2
