"""The assistant: the JSON contract, answer sentences, «no answer», FAQ first, other editions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rulekb.corpus.errors import QueryError
from rulekb.corpus.reader import find_source
from rulekb.kb.ask.answer import ask, ask_batch, highlight_numbers
from rulekb.kb.search.searcher import get_index
from rulekb.webapp.commands.answer_text import format_answer

OFF_TOPIC = [
    "Как приготовить борщ со сметаной?",
    "Какая завтра погода в Москве?",
    "How do I bake a chocolate cake?",
    "Рецепт пасты карбонара",
    "Как настроить вай-фай роутер?",
]


def check_contract(result: dict[str, Any]) -> None:
    """The keys and types other tools rely on (ARCHITECTURE.md, «JSON contracts»)."""
    assert {"id", "question", "edition", "concepts", "answer", "hits"} <= set(result)
    assert result["id"] is None or isinstance(result["id"], str)
    assert isinstance(result["question"], str)
    assert result["edition"] in (None, "10", "6", "7", "kt")
    assert isinstance(result["concepts"], list) and all(isinstance(c, str) for c in result["concepts"])
    answer = result["answer"]
    assert answer is None or (isinstance(answer["text"], str) and isinstance(answer["node_id"], str))
    assert isinstance(result["hits"], list)
    for hit in result["hits"]:
        assert {"node_id", "title", "edition", "source_id", "source_sha256", "lines", "page", "score", "snippet"} <= set(hit)
        assert isinstance(hit["node_id"], str) and isinstance(hit["title"], str)
        assert hit["edition"] in ("10", "6", "7", "kt")
        assert re.fullmatch(r"[0-9a-f]{64}", hit["source_sha256"])
        assert hit["source_sha256"] == find_source(hit["source_id"]).sha256
        assert isinstance(hit["lines"], list) and len(hit["lines"]) == 2
        assert all(isinstance(n, int) for n in hit["lines"]) and hit["lines"][0] <= hit["lines"][1]
        assert hit["page"] is None or isinstance(hit["page"], int)
        assert isinstance(hit["score"], float)
        assert isinstance(hit["snippet"], str)


def test_contract_of_an_answered_question(built: Path) -> None:
    result = ask("Как проходится проверка боевого шока?", build_dir=built, question_id="q1")
    check_contract(result)
    assert result["id"] == "q1"
    assert result["answer"] is not None
    assert result["answer"]["node_id"] == result["hits"][0]["node_id"]
    assert len(result["hits"]) <= 5


def test_answer_is_sentences_of_the_best_leaf_with_numbers(built: Path) -> None:
    result = ask("Сколько кубов бросать на проверку боевого шока в 10-ке?", build_dir=built)
    best = get_index(built).features[result["answer"]["node_id"]]
    assert result["edition"] == "10"
    for sentence in re.split(r"(?<=[.:;!?])\s+", result["answer"]["text"].rstrip("…")):
        assert sentence.strip().rstrip("…") in best.text
    assert "2D6" in result["answer"]["text"]
    assert "<b>2D6</b>" in result["answer"]["html"]


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_no_answer_for_an_unrelated_question(built: Path, question: str) -> None:
    result = ask(question, build_dir=built)
    check_contract(result)
    assert result["answer"] is None
    assert result["hits"] == []
    assert "Ответ не найден" in format_answer(result)


@pytest.mark.parametrize("question", ["", "   ", "?!", "🎲🎲🎲", "\x00\x01\x02", '"(', "title:x AND (", "*"])
def test_hostile_questions_keep_the_contract(built: Path, question: str) -> None:
    check_contract(ask(question, build_dir=built))


def test_ten_kilobytes_is_refused_clearly(built: Path) -> None:
    with pytest.raises(QueryError, match="characters long"):
        ask("щ" * 10_240, build_dir=built)


def test_batch_keeps_ids_and_survives_a_bad_row(built: Path) -> None:
    rows = [
        {"id": "a", "question": "бросок на ранение", "edition": "6+10"},  # a gold field must not filter
        {"id": 7, "question": None},
        {"id": "c", "question": "х" * 20_000},
    ]
    results = list(ask_batch(rows, build_dir=built, limit=3))
    assert [r["id"] for r in results] == ["a", 7, "c"]
    check_contract(results[0])
    assert results[0]["hits"] and results[0]["edition"] is None
    assert "error" in results[1] and "error" in results[2]


def test_faq_entry_leads_with_its_cited_passages(built: Path) -> None:
    from rulekb.kb.faq.entries import load_faq

    entry = next(e for e in load_faq() if e.edition == "10")
    result = ask(entry.question, build_dir=built, limit=10)
    assert result["faq"] is not None and result["faq"]["id"] == entry.id
    def cited(hit: dict[str, Any]) -> bool:
        return any(
            hit["source_id"] == c.source and hit["lines"][0] <= c.lines[1] and hit["lines"][1] >= c.lines[0]
            for c in entry.citations
        )

    # a confident match leads with its cited passages (in retrieval order)
    assert cited(result["hits"][0])
    leading = 0
    while leading < len(result["hits"]) and cited(result["hits"][leading]):
        leading += 1
    assert not any(cited(hit) for hit in result["hits"][leading:])
    assert ask(entry.question, build_dir=built, use_faq=False)["faq"] is None


def test_a_weak_faq_match_only_lifts_what_retrieval_found(built: Path) -> None:
    from rulekb.kb.ask.faq_pick import FAQ_BOOST, FAQ_CONFIRM_DEPTH, faq_hits
    from rulekb.kb.search.searcher import get_index, search_parsed

    index = get_index(built)
    parsed = index.parse("Сколько кубов бросать на проверку боевого шока?")
    hits = search_parsed(index, parsed, 10, snippets=False)
    far = hits[-1].node_id
    near = hits[1].node_id
    # a leaf retrieval ranked last stays behind the leaves that outscore it even when boosted
    moved = faq_hits(index, parsed, hits, [far], 0.4)
    assert [h.node_id for h in moved][: FAQ_CONFIRM_DEPTH] == [h.node_id for h in hits][: FAQ_CONFIRM_DEPTH]
    # a close second, boosted, passes the first; nothing else changes order
    moved = faq_hits(index, parsed, hits, [near], 0.5)
    if hits[1].score * (1.0 + FAQ_BOOST * 0.5) > hits[0].score:
        assert moved[0].node_id == near
    assert [h.node_id for h in moved if h.node_id != near] == [h.node_id for h in hits if h.node_id != near]
    # a confident match puts a cited leaf first whatever its rank
    assert faq_hits(index, parsed, hits, [far], 0.9)[0].node_id == far


def test_highlight_numbers() -> None:
    assert highlight_numbers('Бросьте 2D6 в пределах 6" <x>') == 'Бросьте <b>2D6</b> в пределах <b>6"</b> &lt;x&gt;'


def test_readable_answer_cites_lines(built: Path) -> None:
    text = format_answer(ask("проверка боевого шока", build_dir=built))
    assert re.search(r"строк[аи] \d+", text)


def test_other_editions_name_the_same_concept_once_each(built: Path) -> None:
    result = ask("Консолидация в 6-й: на сколько дюймов?", build_dir=built)
    assert result["edition"] == "6" and result["hits"][0]["edition"] == "6"
    others = result["other_editions"]
    assert others and {o["edition"] for o in others} >= {"10"}
    assert all(o["edition"] != "6" for o in others)
    assert len({o["node_id"] for o in others}) == len(others)
    index = get_index(built)
    for other in others:
        assert other["concept"] in index.features[other["node_id"]].defines


def test_a_quantity_question_prefers_a_sentence_with_a_number(built: Path) -> None:
    from rulekb.kb.ask.answer import _sentence_score

    index = get_index(built)
    weights = {"модель": 1.0, "двигаться": 1.0}
    plain = ("модель", "двигаться", "вперед", "по", "поле")
    number = ("модель", "двигаться", "на", '6"', "вперед")
    assert _sentence_score(index, number, weights, set(), 0.5) > _sentence_score(index, plain, weights, set(), 0.5)
    # without a quantity asked, the number is no reason to prefer a sentence
    assert _sentence_score(index, number, weights, set(), 0.0) == _sentence_score(index, plain, weights, set(), 0.0)
    # a label of two words is not a ruling
    assert _sentence_score(index, ("модель", "двигаться"), weights, set(), 0.0) < _sentence_score(
        index, plain, weights, set(), 0.0
    )


def test_how_many_is_answered_with_a_number(built: Path) -> None:
    result = ask("Сколько очков командования получает каждый игрок в фазе командования?", build_dir=built)
    assert result["answer"] is not None
    assert re.search(r"\d", result["answer"]["text"])


def test_quantity_words_are_lemmas_as_questions_are_read() -> None:
    """The set is compared with the question's lemmas: «distance» is read «distanc», «скока» «скок»."""
    from rulekb.kb.ask.answer import QUANTITY_WORDS
    from rulekb.kb.text.analysis import lemma

    assert {"distanc", "rang", "скок", "сколько"} <= QUANTITY_WORDS
    assert all(lemma(word) == word for word in QUANTITY_WORDS)
