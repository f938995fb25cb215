"""The answer card: what a player reads first, composed from the ask result.

:func:`compose_card` returns the ``card`` object of the ``rulekb ask --json`` contract::

    {"kind": "ruling" | "terminology" | "comparison" | "none", "lang": "ru" | "en",
     "text": "...",                 # what the player reads first
     "edition": "10" | null,        # the edition it answers; null when it answers several
     "per_edition": [{"edition", "text", "node_id", "lines"}],
     "source": "faq" | "text" | "termbase" | "engine" | null,
     "citations": [{"source_id", "lines", "quote"}],
     "confidence": 0.0 … 1.0}

The web's answer card renders exactly this object.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = ["EDITION_LABELS", "compose_card", "edition_label", "empty_card", "question_lang"]

EDITION_LABELS: dict[str, dict[str, str]] = {
    "ru": {"10": "10-я редакция", "6": "6-я редакция", "7": "7-я редакция", "kt": "Kill Team"},
    "en": {"10": "10th edition", "6": "6th edition", "7": "7th edition", "kt": "Kill Team"},
}

_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def question_lang(question: str) -> str:
    """``"en"`` when the question is written mostly in Latin letters, else ``"ru"``."""
    latin = len(_LATIN.findall(question))
    cyrillic = len(_CYRILLIC.findall(question))
    return "en" if latin > cyrillic else "ru"


def edition_label(edition: str, lang: str = "ru") -> str:
    return EDITION_LABELS.get(lang, EDITION_LABELS["ru"]).get(edition, edition)


def empty_card(lang: str = "ru") -> dict[str, Any]:
    """The card when the texts are silent on the question."""
    text = "Answer not found in the rules." if lang == "en" else "Ответ не найден: в правилах нет подходящего места."
    return {
        "kind": "none",
        "lang": lang,
        "text": text,
        "edition": None,
        "per_edition": [],
        "source": None,
        "citations": [],
        "confidence": 0.0,
    }


def per_edition_text(parts: Sequence[dict[str, Any]], lang: str) -> str:
    """Each edition's text, labelled, one after another (the first leads)."""
    return "\n".join(f"{edition_label(str(p['edition']), lang)}: {p['text']}" for p in parts)


def compose_card(result: dict[str, Any], faq_citations: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The card of an ask ``result`` as it stands: the FAQ answer when one matched, else the
    answer sentence; one part per edition when the answer has parts."""
    lang = question_lang(str(result.get("question") or ""))
    answer = result.get("answer")
    faq = result.get("faq")
    if answer is None and faq is None:
        return empty_card(lang)
    hits = result.get("hits") or []
    by_id = {hit["node_id"]: hit for hit in hits}
    card = empty_card(lang)
    card["confidence"] = float(result.get("confidence") or 0.0)
    parts = (answer or {}).get("parts") or []
    if faq is not None and not parts:
        card.update(kind="ruling", text=str(faq["answer"]), edition=faq["edition"], source="faq")
        card["citations"] = [
            {"source_id": c["source"], "lines": list(c["lines"]), "quote": " … ".join(c["quotes"])}
            for c in faq_citations
        ]
        card["confidence"] = float(faq.get("score") or card["confidence"])
        return card
    assert answer is not None
    if parts:
        per = []
        for part in parts:
            hit = by_id.get(part["node_id"])
            per.append({"edition": part["edition"], "text": part["text"], "node_id": part["node_id"],
                        "lines": list(hit["lines"]) if hit else None})
        card.update(kind="comparison", text=per_edition_text(per, lang), edition=None, per_edition=per, source="text")
        card["citations"] = [
            {"source_id": by_id[p["node_id"]]["source_id"], "lines": p["lines"], "quote": p["text"]}
            for p in per if p["node_id"] in by_id
        ]
        return card
    top = by_id.get(answer["node_id"])
    card.update(kind="ruling", text=str(answer["text"]), edition=top["edition"] if top else None, source="text")
    if top is not None:
        card["per_edition"] = [{"edition": top["edition"], "text": answer["text"], "node_id": top["node_id"],
                                "lines": list(top["lines"])}]
        card["citations"] = [{"source_id": top["source_id"], "lines": list(top["lines"]), "quote": answer["text"]}]
    return card
