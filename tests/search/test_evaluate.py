"""The metric code, on a hand-made gold set whose ranks are known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekb.corpus.errors import QueryError
from rulekb.kb.evaluation.retrieval import (
    MAX_HIT_LINES,
    Gold,
    Question,
    Ranked,
    evaluate,
    is_relevant,
    load_questions,
    rank_of_first_relevant,
)
from rulekb.webapp.commands.eval_text import format_report

GOLD = (Gold("10e-core", (100, 105)),)


def test_relevance_needs_source_overlap_and_a_tight_span() -> None:
    assert is_relevant(Ranked("10e-core", (105, 110)), GOLD)
    assert is_relevant(Ranked("10e-core", (90, 100)), GOLD)
    assert not is_relevant(Ranked("10e-core", (106, 110)), GOLD)
    assert not is_relevant(Ranked("6e-rules", (100, 105)), GOLD)
    assert not is_relevant(Ranked("10e-core", (80, 80 + MAX_HIT_LINES)), GOLD)  # 41 lines: a chapter
    assert is_relevant(Ranked("10e-core", (80, 80 + MAX_HIT_LINES - 1)), GOLD)


def test_rank_of_first_relevant() -> None:
    miss = Ranked("10e-core", (1, 2))
    hit = Ranked("10e-core", (101, 101))
    assert rank_of_first_relevant([hit], GOLD) == 1
    assert rank_of_first_relevant([miss, miss, hit, hit], GOLD) == 3
    assert rank_of_first_relevant([miss] * 10 + [hit], GOLD) is None
    assert rank_of_first_relevant([], GOLD) is None


def test_metrics_on_known_ranks() -> None:
    miss = Ranked("kt", (1, 1))
    hit = Ranked("10e-core", (100, 100))
    # ranks 1, 2, 4, None, 6 → R@1 1/5, R@3 2/5, R@5 3/5, MRR (1 + 1/2 + 1/4 + 0 + 1/6) / 5
    ranks = {"a": 1, "b": 2, "c": 4, "d": None, "e": 6}
    questions = [
        Question(qid, "?", GOLD, lang="en" if qid in "ab" else "ru", kind="lookup" if qid == "a" else "numeric")
        for qid in ranks
    ]

    def ranker(question: Question) -> list[Ranked]:
        rank = ranks[question.id]
        return [miss] * 10 if rank is None else [miss] * (rank - 1) + [hit]

    report = evaluate(questions, {"fake": ranker})
    overall = report.systems["fake"]["overall"]
    assert overall["n"] == 5
    assert overall["R@1"] == pytest.approx(0.2)
    assert overall["R@3"] == pytest.approx(0.4)
    assert overall["R@5"] == pytest.approx(0.6)
    assert overall["MRR@10"] == pytest.approx(round((1 + 1 / 2 + 1 / 4 + 1 / 6) / 5, 4))
    assert report.systems["fake"]["lang"]["en"]["R@3"] == pytest.approx(1.0)
    assert report.systems["fake"]["kind"]["lookup"]["MRR@10"] == pytest.approx(1.0)
    assert report.systems["fake"]["source"]["10e-core"]["n"] == 5
    assert report.systems["fake"]["ranks"] == ranks
    table = format_report(report)
    assert "overall" in table and "lang=en" in table and "kind=numeric" in table


def test_load_questions_maps_upstream_names(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        json.dumps({"id": "x", "question": "q", "lang": "ru", "kind": "lookup",
                    "gold": [{"source": "002_2d379d230b4554ec.txt", "lines": [1, 2]}]}) + "\n",
        encoding="utf-8",
    )
    (question,) = load_questions(path)
    assert question.gold == (Gold("6e-assault", (1, 2)),)
    path.write_text('{"id": "y", "question": "q", "gold": [{"source": "nope.txt", "lines": [1, 2]}]}', encoding="utf-8")
    with pytest.raises(QueryError, match="q.jsonl:1: .*unknown gold source 'nope.txt'"):
        load_questions(path)
