"""A comparison part's section names: the headings of the sections its ruling quotes that name the
compared mechanic, the name each book gives it («Проверки «Отчаянное бегство»» in the 10th edition,
«Непробиваемый спасбросок» in the 6th), shown before the ruling when the ruling does not print them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from rulekb.kb.ask.card_english import ruling_concepts
from rulekb.kb.ask.part import Part
from rulekb.kb.search.features import concepts_in
from rulekb.kb.text.analysis import fold

__all__ = ["SECTION_WEIGHT", "cited_leaves", "section_names", "with_section_names"]

#: A section name a comparison part shows must name a concept at least this specific (its weight in the index).
SECTION_WEIGHT = 0.55


def cited_leaves(index: Any, citations: Sequence[dict[str, Any]]) -> list[Any]:
    """The leaves a part's citations quote, in citation order (a citation joining a passage and its list
    holds both)."""
    leaves: dict[str, Any] = {}
    for citation in citations:
        lines = citation.get("lines") or (0, 0)
        first, last = int(lines[0]), int(lines[-1])
        for leaf in index.by_source.get(str(citation.get("source_id")), ()):
            if leaf.lines[0] <= last and leaf.lines[1] >= first:
                leaves.setdefault(leaf.id, leaf)
    return list(leaves.values())


def section_names(index: Any, part: Part, asked: Sequence[str]) -> list[str]:
    """The headings of the sections a comparison part quotes that name the compared mechanic — a concept
    the question asks or the part's ruling names, specific enough (:data:`SECTION_WEIGHT`) — and that the
    part does not print: the name each book gives the mechanic («Проверки «Отчаянное бегство»» above a
    summary that says «Отчаянный побег»)."""
    ruling = part.text.rpartition("\n")[2]
    named = set(asked) | set(ruling_concepts(index.build_dir, ruling))
    named = {c for c in named if index.concept_weight(c) >= SECTION_WEIGHT}
    shown = fold(part.text)
    names: list[str] = []
    for leaf in cited_leaves(index, part.citations):
        heading = " ".join((leaf.heading or "").split()).rstrip(" .:")
        if not heading or fold(heading) in shown or heading in names:
            continue
        if named & set(concepts_in(index.matcher, heading)):
            names.append(heading)
    return names


def with_section_names(index: Any, part: Part, asked: Sequence[str]) -> Part:
    """A comparison part from the text, its ruling opened by the sections it quotes that name the
    mechanic (:func:`section_names`), «§ Проверки «Отчаянное бегство»: …»."""
    if part.source not in ("text", "faq"):
        return part
    names = section_names(index, part, asked)
    if not names:
        return part
    head, _, ruling = part.text.rpartition("\n")  # an English card's lead line stays first
    opened = "; ".join(f"§ {n}" for n in names) + ": " + ruling
    return dataclasses.replace(part, text=(f"{head}\n" if head else "") + opened)
