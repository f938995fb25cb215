"""FAQ gating: an entry leads the card only when it answers *this* question.

An entry leads when (1) its edition is the edition the card answers, (2) its cited leaves are among
the top passages retrieval found for that edition, (3) it matches well enough, and (4) its own
phrasings and answer cover the question's words — a question about melee that the shooting entry
does not mention, about *ending* a move on a marker that the *placing* entry never says, about an
exception the general entry leaves out, leaves words uncovered. Otherwise the ruling from the text
leads and the entry is offered below as related. The thresholds are calibrated on the development
sets for a precision of at least 95% (see docs/search.md, «The answer card»).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulekb.kb.faq.entries import FaqEntry, faq_matcher

__all__ = ["CLOSE_SCORE", "CLOSE_UNCOVERED", "GATE_DEPTH", "GATE_SCORE", "GATE_UNCOVERED", "Gate", "gate_entry"]

#: Lowest match score for an entry to lead.
GATE_SCORE = 0.45
#: Highest share of the question's (weighted) words the entry may leave uncovered.
GATE_UNCOVERED = 0.4
#: The entry's cited leaves must be among this many of the edition's top passages.
GATE_DEPTH = 3
#: A weaker match (a new phrasing shares fewer of the entry's words) still leads when its phrasings and
#: answer leave at most ``CLOSE_UNCOVERED`` of the question's words uncovered: it asks what the entry answers.
CLOSE_SCORE = 0.35
CLOSE_UNCOVERED = 0.12


@dataclass(frozen=True)
class Gate:
    entry: FaqEntry
    score: float
    uncovered: float
    leads: bool
    reason: str


def gate_entry(
    entries: Sequence[FaqEntry],
    entry: FaqEntry,
    score: float,
    question: str,
    edition: str | None,
    cited: Sequence[str],
    top_ids: Sequence[str],
) -> Gate:
    """Whether ``entry`` (matched with ``score``) may lead a card answering ``edition``."""
    uncovered = faq_matcher(entries).uncovered(question, entry)
    reason = ""
    if edition is not None and entry.edition != edition:
        reason = "edition"
    elif score < GATE_SCORE and not (score >= CLOSE_SCORE and uncovered <= CLOSE_UNCOVERED):
        reason = "score"
    elif not set(cited) & set(top_ids[:GATE_DEPTH]):
        reason = "passages"
    elif uncovered > GATE_UNCOVERED:
        reason = "aspect"
    return Gate(entry, score, uncovered, not reason, reason)


def related_json(gate: Gate) -> dict[str, Any]:
    return {"id": gate.entry.id, "question": gate.entry.question, "edition": gate.entry.edition,
            "score": round(gate.score, 4), "uncovered": round(gate.uncovered, 4), "leads": gate.leads,
            "reason": gate.reason or None}
