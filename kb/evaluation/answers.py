"""Answer-card evaluation (``rulekb eval --answers FILE.jsonl``).

Each row needs ``id``, ``question`` and ``answer_keywords``; ``kind``, ``lang``, ``style``,
``edition`` (the gold edition, ``"6+10"`` for a comparison) and ``gold`` are used when present.
The question alone is asked (no gold edition). A card *carries the answer* when its ``text``
contains every keyword, both folded the same way (:func:`fold_answer`: case, ё = е, quotes and
dashes unified, whitespace runs as one space).

Figures: the share of cards carrying the answer, overall and by kind, language, style and card
source; the *wrong-edition* cards (a card whose editions are all outside the question's gold
editions); and the *FAQ precision*: of the cards a FAQ entry leads, the share whose entry is
right — its citations overlap a gold range, or (rows without gold) its card carries the answer.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekb.corpus.errors import QueryError
from rulekb.corpus.reader import load_manifest
from rulekb.kb.ask.answer import ask
from rulekb.kb.ask.card import compose_card
from rulekb.kb.evaluation.retrieval import Row, read_eval_file
from rulekb.kb.search.searcher import get_index

__all__ = [
    "AnswerRow",
    "AnswerScores",
    "carries",
    "evaluate_answers",
    "fold_answer",
    "load_answer_rows",
    "overlaps",
]

_QUOTES = str.maketrans({c: '"' for c in "«»„“”‟″"} | {c: "'" for c in "‘’‚‛′`"} | {c: "-" for c in "‐‑‒–—―−"})


def fold_answer(text: str) -> str:
    """Case, ё = е, every quote mark as ``"`` or ``'``, every dash as ``-``, whitespace runs as one space."""
    folded = text.casefold().replace("ё", "е").translate(_QUOTES)
    return re.sub(r"\s+", " ", folded).strip()


VERDICTS = frozenset({"да", "нет", "yes", "no"})
# A verdict leads the card or one edition's part of it: the first word of a line («Нет: …», "No. …"),
# or the first after a short label such as «10-я редакция:» or "10th edition:".
_LINE_START = re.compile(r"^[ \t]*(\w+)", re.M)
_AFTER_LABEL = re.compile(r"^[ \t]*[^\n:.!?]{1,40}:[ \t]*(\w+)", re.M)


def verdict_leads(text: str) -> set[str]:
    """The verdict words (folded) that lead ``text`` or one of its lines."""
    folded = text.casefold().replace("ё", "е")
    words = {m.group(1) for m in _LINE_START.finditer(folded)}
    words |= {m.group(1) for m in _AFTER_LABEL.finditer(folded)}
    return words & VERDICTS


def carries(text: str, keywords: Iterable[str]) -> bool:
    """Whether ``text`` contains every keyword (both folded by :func:`fold_answer`).

    A verdict keyword (Да, Нет, Yes, No) counts only where it leads the card or a line of it: the
    letters «да» inside «данного» or "no" inside "normal" are no verdict.
    """
    haystack = fold_answer(text)
    leads: set[str] | None = None
    for keyword in keywords:
        folded = fold_answer(keyword)
        if folded in VERDICTS:
            leads = verdict_leads(text) if leads is None else leads
            if folded not in leads:
                return False
        elif folded not in haystack:
            return False
    return True


@dataclass(frozen=True)
class AnswerRow:
    id: str
    question: str
    keywords: tuple[str, ...]
    kind: str = "-"
    lang: str = "ru"
    style: str = "-"
    editions: frozenset[str] = frozenset()
    gold: tuple[tuple[str, int, int], ...] = ()


def load_answer_rows(path: Path) -> list[AnswerRow]:
    """Rows with ``answer_keywords``; rows without them are skipped, a malformed line raises."""
    source_editions = {s.id: s.edition for s in load_manifest()}

    def answer_row(row: Row, gold_spans: Callable[[Row], list[tuple[str, int, int]]]) -> AnswerRow | None:
        keywords = row.get("answer_keywords")
        if not keywords:
            return None
        gold = gold_spans(row)
        edition = row.get("edition")
        editions = set(str(edition).split("+")) if edition else set()
        # the books the gold cites say which edition rules, whatever the row's label
        editions |= {source_editions[source] for source, _, _ in gold if source in source_editions}
        return AnswerRow(
            id=str(row["id"]),
            question=str(row["question"]),
            keywords=tuple(str(k) for k in keywords),
            kind=str(row.get("kind") or "-"),
            lang=str(row.get("lang") or "ru"),
            style=str(row.get("style") or "-"),
            editions=frozenset(editions),
            gold=tuple(gold),
        )

    return read_eval_file(path, answer_row)


def card_editions(card: dict[str, Any]) -> set[str]:
    """The editions a card answers: its edition, or those of its per-edition parts."""
    if card.get("edition"):
        return {str(card["edition"])}
    return {str(p["edition"]) for p in card.get("per_edition") or [] if p.get("edition")}


def overlaps(citations: Sequence[dict[str, Any]], gold: Sequence[tuple[str, int, int]]) -> bool:
    for citation in citations:
        lines = citation.get("lines") or [0, 0]
        for source, start, end in gold:
            if citation.get("source_id") == source and lines[0] <= end and lines[1] >= start:
                return True
    return False


@dataclass
class AnswerScores:
    n: int = 0
    carried: int = 0

    def add(self, ok: bool) -> None:
        self.n += 1
        self.carried += ok

    @property
    def share(self) -> float:
        return self.carried / self.n if self.n else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {"n": self.n, "carried": self.carried, "share": round(self.share, 4)}


@dataclass
class AnswerReport:
    overall: AnswerScores = field(default_factory=AnswerScores)
    groups: dict[str, dict[str, AnswerScores]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(AnswerScores)))
    wrong_edition: list[str] = field(default_factory=list)
    faq_shown: int = 0
    faq_right: int = 0
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def faq_precision(self) -> float | None:
        return self.faq_right / self.faq_shown if self.faq_shown else None

    def to_json(self) -> dict[str, Any]:
        return {
            "overall": self.overall.as_dict(),
            **{g: {label: s.as_dict() for label, s in sorted(v.items())} for g, v in self.groups.items()},
            "wrong_edition": {"n": len(self.wrong_edition), "ids": self.wrong_edition},
            "faq": {"shown": self.faq_shown, "right": self.faq_right,
                    "precision": None if self.faq_precision is None else round(self.faq_precision, 4)},
            "rows": self.rows,
        }


def _baseline_card(result: dict[str, Any], build_dir: Path | None) -> dict[str, Any]:
    """The card as ``ask`` composed it before the answer card: the FAQ answer when an entry matched,
    else the answer sentence of the first hit (``--baseline``)."""
    citations: list[dict[str, Any]] = []
    faq = result.get("faq")
    if faq is not None:
        for entry in get_index(build_dir).faq:
            if entry.id == faq["id"]:
                citations = [{"source": c.source, "lines": list(c.lines), "quotes": list(c.quotes)} for c in entry.citations]
    return compose_card(result, citations)


def evaluate_answers(
    rows: Sequence[AnswerRow], *, build_dir: Path | None = None, use_faq: bool = True, edition: str | None = None,
    baseline: bool = False,
) -> AnswerReport:
    """Ask every row's question and score its card (``baseline``: the composition before the card)."""
    report = AnswerReport()
    for row in rows:
        try:
            result = ask(row.question, build_dir=build_dir, use_faq=use_faq, edition=edition)
            card = _baseline_card(result, build_dir) if baseline else result["card"]
        except QueryError:
            card = {"text": "", "kind": "none", "source": None, "edition": None, "per_edition": [], "citations": []}
        ok = carries(str(card.get("text") or ""), row.keywords)
        report.overall.add(ok)
        source = str(card.get("source") or "none")
        for group, label in (("kind", row.kind), ("lang", row.lang), ("style", row.style), ("source", source),
                             ("card", str(card.get("kind")))):
            report.groups[group][label].add(ok)
        editions = card_editions(card)
        wrong = bool(row.editions and editions and not editions & row.editions)
        if wrong:
            report.wrong_edition.append(row.id)
        faq_right: bool | None = None
        if source == "faq":
            report.faq_shown += 1
            faq_right = overlaps(card.get("citations") or [], row.gold) if row.gold else ok
            faq_right = faq_right and not wrong
            report.faq_right += faq_right
        report.rows[row.id] = {"ok": ok, "source": source, "kind": card.get("kind"), "wrong_edition": wrong,
                               "faq_right": faq_right}
    return report
