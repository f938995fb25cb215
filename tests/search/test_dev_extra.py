"""The extra development questions (tests/data/dev-extra.jsonl) are well formed and answerable."""

from __future__ import annotations

import json
from pathlib import Path

from kb.evaluate import Ranked, is_relevant, load_questions
from kb.search import get_index

DATA = Path(__file__).resolve().parent.parent / "data"
EXTRA = DATA / "dev-extra.jsonl"


def test_the_extra_questions_load_and_do_not_reuse_evaluation_ids() -> None:
    questions = load_questions(EXTRA)
    assert len(questions) >= 100
    ids = [q.id for q in questions]
    assert len(ids) == len(set(ids))
    taken = {json.loads(line)["id"] for line in (DATA / "eval.jsonl").read_text(encoding="utf-8").splitlines() if line}
    assert not taken & set(ids)
    assert {q.kind for q in questions} >= {"lookup", "numeric", "procedure"}
    assert any(q.lang == "en" for q in questions)


def test_every_gold_range_is_a_citable_leaf(built: Path) -> None:
    index = get_index(built)
    leaves = [Ranked(f.source_id, f.lines) for f in index.features.values()]
    for question in load_questions(EXTRA):
        assert any(is_relevant(leaf, question.gold) for leaf in leaves), question.id
