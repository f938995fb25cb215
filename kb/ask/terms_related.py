"""The related-terms line of a terminology card: the concepts the termbase relates to a term, as
the books the term's block shows print them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["MAX_RELATED", "RELATED_RENDERINGS", "related_renderings"]

#: Related concepts listed on a card, and renderings shown for each.
MAX_RELATED = 5
RELATED_RENDERINGS = 2
_ACCEPTABLE_FIRST = {"preferred": 0, "admitted": 1, "deprecated": 2, "mistranslation": 3}


def related_renderings(known: Mapping[str, Any], record: Mapping[str, Any], sources: Mapping[str, str],
                       editions: Sequence[str]) -> list[str]:
    """The concepts the termbase relates to ``record`` («Blast marker»: the small and the large blast
    marker, the template; ``known``: every concept's record) as the books of ``sources`` (those the
    term's own block shows) print them, within ``editions`` when given: «English — «rendering»
    (source)». A translator asking for one term reads its neighbours' renderings beside it, and a
    question's term printed only as a narrower neighbour («Малый маркер взрыва») is on the card."""
    found: list[str] = []
    for concept in list(dict.fromkeys(str(c) for c in record.get("related", [])))[:MAX_RELATED]:
        other = known.get(concept)
        if other is None:
            continue
        shown: list[str] = []
        for r in sorted(other.get("renderings", []),
                        key=lambda r: (_ACCEPTABLE_FIRST.get(str(r["status"]), 4), -int(r.get("count") or 0))):
            source_id = str(r["source_id"])
            if source_id not in sources or not r.get("count") or (editions and sources[source_id] not in editions):
                continue
            item = f"«{r['text']}» ({source_id})"
            if all(not s.startswith(f"«{r['text']}»") for s in shown):
                shown.append(item)
            if len(shown) >= RELATED_RENDERINGS:
                break
        if shown:
            found.append(f"{other.get('english') or concept} — {', '.join(shown)}")
    return found
