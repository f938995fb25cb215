"""Held-out search questions must not copy a FAQ phrasing (search indexes the phrasings): such
rows carry ``removed`` and the evaluation skips them."""

from __future__ import annotations

import json
from pathlib import Path

from rulekb.kb.evaluation.retrieval import load_questions
from rulekb.kb.faq.entries import faq_terms as _terms
from rulekb.kb.faq.entries import load_faq

DATA = Path(__file__).resolve().parents[1] / "data"
HELD_OUT = (("eval.jsonl", "e-"), ("fresh.jsonl", ""), ("he.jsonl", ""), ("hf.jsonl", ""), ("hg.jsonl", ""), ("hh.jsonl", ""), ("hi.jsonl", ""), ("hj.jsonl", ""), ("hk.jsonl", ""))


def copies(question: str, phrasings: list[frozenset[str]]) -> bool:
    """Shares 70% of its terms with a phrasing (Jaccard), or all of its three or more terms."""
    words = _terms(question)
    if not words:
        return False
    for terms in phrasings:
        shared = len(words & terms)
        if shared / len(words | terms) >= 0.7 or (len(words) >= 3 and shared == len(words)):
            return True
    return False


def test_no_held_out_question_left_in_copies_a_faq_phrasing() -> None:
    phrasings = [_terms(p) for e in load_faq() for p in (e.question, *e.variants)]
    left, removed = [], 0
    for name, prefix in HELD_OUT:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if not row["id"].startswith(prefix):
                continue
            if row.get("removed"):
                removed += 1
                continue
            if copies(row["question"], phrasings):
                left.append(f"{name} {row['id']}: {row['question']}")
    assert not left, "\n".join(left)
    assert removed >= 20


def test_removed_rows_are_not_measured() -> None:
    ids = {q.id for q in load_questions(DATA / "fresh.jsonl")}
    assert "fd-051" not in ids and "fi-015" not in ids and ids
    assert "e-105" not in {q.id for q in load_questions(DATA / "eval.jsonl")}
