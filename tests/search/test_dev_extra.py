"""The extra development questions (tests/data/dev-extra.jsonl) and the second held-out set
(tests/data/fresh.jsonl) are well formed and answerable."""

from __future__ import annotations

import json
from pathlib import Path

from rulekb.kb.evaluation.retrieval import Ranked, is_relevant, load_questions
from rulekb.kb.search.searcher import get_index

DATA = Path(__file__).resolve().parent.parent / "data"
EXTRA = DATA / "dev-extra.jsonl"
FRESH = DATA / "fresh.jsonl"


def test_the_extra_questions_load_and_do_not_reuse_evaluation_ids() -> None:
    questions = load_questions(EXTRA)
    assert len(questions) >= 100
    ids = [q.id for q in questions]
    assert len(ids) == len(set(ids))
    taken = {json.loads(line)["id"] for line in (DATA / "eval.jsonl").read_text(encoding="utf-8").splitlines() if line}
    assert not taken & set(ids)
    assert {q.kind for q in questions} >= {"lookup", "numeric", "procedure"}
    assert any(q.lang == "en" for q in questions)


def test_the_fresh_questions_are_new_and_span_every_source_and_style() -> None:
    fresh = load_questions(FRESH)
    assert len(fresh) >= 100
    ids = [q.id for q in fresh]
    assert len(ids) == len(set(ids))
    taken = {q.id for q in load_questions(EXTRA)} | {
        json.loads(line)["id"] for line in (DATA / "eval.jsonl").read_text(encoding="utf-8").splitlines() if line
    }
    assert not taken & set(ids)
    questions = {q.question for q in load_questions(EXTRA)} | {q.question for q in load_questions(DATA / "eval.jsonl")}
    assert not questions & {q.question for q in fresh}
    assert {g.source_id for q in fresh for g in q.gold} == {"10e-core", "6e-rules", "6e-assault", "7e-pp58-67", "kt"}
    assert {q.kind for q in fresh} == {"lookup", "numeric", "procedure", "terminology", "compare"}
    assert sum(q.lang == "en" for q in fresh) >= 20


def test_every_gold_range_is_a_citable_leaf(built: Path) -> None:
    index = get_index(built)
    leaves = [Ranked(f.source_id, f.lines) for f in index.features.values()]
    for question in [*load_questions(EXTRA), *load_questions(FRESH)]:
        assert any(is_relevant(leaf, question.gold) for leaf in leaves), question.id
