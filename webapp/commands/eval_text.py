"""``rulekb eval`` in the terminal: the retrieval and answer-card reports as plain-text tables (the
JSON is ``--json``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulekb.kb.evaluation.answers import AnswerReport, AnswerScores
from rulekb.kb.evaluation.retrieval import CUTOFFS, MRR_DEPTH, Report

__all__ = ["format_answer_report", "format_report"]


def format_report(report: Report) -> str:
    """A plain-text table: one row per group, one column block per system."""
    systems = list(report.systems)
    metrics = [f"R@{c}" for c in CUTOFFS] + [f"MRR@{MRR_DEPTH}"]
    header = f"{'group':<28}{'n':>4}  " + "  ".join(
        f"{name + ' ' + m:>{max(len(name) + len(m) + 1, 8)}}" for name in systems for m in metrics
    )
    rows = [header, "-" * len(header)]

    def row(label: str, picks: Iterable[dict[str, Any]]) -> str:
        picked = list(picks)
        cells = []
        for name, data in zip(systems, picked, strict=True):
            for m in metrics:
                cells.append(f"{data.get(m, 0):>{max(len(name) + len(m) + 1, 8)}.3f}")
        return f"{label:<28}{picked[0]['n']:>4}  " + "  ".join(cells)

    first = report.systems[systems[0]]
    rows.append(row("overall", (report.systems[s]["overall"] for s in systems)))
    for group in ("kind", "lang", "source"):
        for label in first[group]:
            rows.append(row(f"{group}={label}", (report.systems[s][group][label] for s in systems)))
    return "\n".join(rows)


def format_answer_report(report: AnswerReport) -> str:
    """The card report: share carried overall and per group, wrong-edition cards, FAQ precision."""
    lines = [f"{'group':<28}{'n':>5}{'carried':>9}{'share':>8}", "-" * 50]

    def row(label: str, scores: AnswerScores) -> str:
        return f"{label:<28}{scores.n:>5}{scores.carried:>9}{scores.share:>8.3f}"

    lines.append(row("overall", report.overall))
    for group in ("kind", "lang", "style", "source", "card"):
        for label, scores in sorted(report.groups.get(group, {}).items()):
            lines.append(row(f"{group}={label}", scores))
    n = report.overall.n
    lines.append(f"wrong-edition cards: {len(report.wrong_edition)} of {n}"
                 + (f" ({', '.join(report.wrong_edition[:12])}{' …' if len(report.wrong_edition) > 12 else ''})"
                    if report.wrong_edition else ""))
    precision = report.faq_precision
    lines.append(f"FAQ leads: {report.faq_shown}, right {report.faq_right}"
                 + (f", precision {precision:.3f}" if precision is not None else ""))
    return "\n".join(lines)
