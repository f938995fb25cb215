"""``rulekb ask`` in the terminal: the answer object as readable text (the JSON contract is ``--json``)."""

from __future__ import annotations

from typing import Any

from rulekb.corpus.editions import by_id
from rulekb.kb.contracts.cite import citation_label, lines_label

__all__ = ["format_answer"]


def format_answer(result: dict[str, Any]) -> str:
    """A readable answer for the terminal."""
    lines: list[str] = []
    if result.get("did_you_mean"):
        lines.append(f"Возможно, вы имели в виду: {result['did_you_mean']}")
    if result.get("concepts"):
        lines.append("Понятия: " + ", ".join(result["concepts"]))
    card = result.get("card") or {}
    if card.get("kind") not in (None, "none"):
        played = f" · вы играете: {card['played']}" if card.get("played") else ""
        lines += ["", f"[{card['kind']} · {card.get('source')}{played}]", card["text"]]
        for citation in card.get("citations", [])[:6]:
            lines.append(f"  — {citation_label(citation['source_id'], citation['lines'])}")
    faq = result.get("faq")
    if faq and card.get("source") != "faq":
        lines += ["", f"Похожий частый вопрос: {faq['question']}", f"  {faq['answer']}"]
    answer = result.get("answer")
    if answer is None:
        lines += ["", "Ответ не найден: в правилах нет подходящего места. Уточните вопрос или назовите редакцию."]
        return "\n".join(lines)
    hits = result["hits"]
    top = hits[0] if hits else None
    lines.append("")
    if answer.get("parts"):
        by_id = {hit["node_id"]: hit for hit in hits}
        for part in answer["parts"]:
            hit = by_id.get(part["node_id"])
            lines.append(f"[{part['edition']}] {part['text']}")
            if hit is not None:
                lines.append(f"  — {_citation(hit)}")
    else:
        lines.append(answer["text"])
        if top is not None:
            lines.append(f"  — {_citation(top)}")
    if len(hits) > 1:
        lines += ["", "Ещё по теме:"]
        for hit in hits[1:]:
            lines.append(f"  • {hit['heading'] or hit['title']} — {_citation(hit)}")
    if result.get("other_editions"):
        lines += ["", "В других редакциях:"]
        for other in result["other_editions"]:
            lines.append(f"  • {other['edition']}: {other['title']} ({citation_label(other['source_id'], other['lines'])})")
    return "\n".join(lines)


def _citation(hit: dict[str, Any]) -> str:
    page = f", с. {hit['page']}" if hit.get("page") is not None else ""
    span = lines_label(hit["lines"])
    edition = by_id().get(hit["edition"])
    label = edition.short if edition else hit["edition"]
    return f"{hit['source_id']} ({label}{page}, {span})"
