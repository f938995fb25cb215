"""A comparison part names the sections it quotes that name the compared mechanic (``card_sections``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekb.kb.ask.card_sections import SECTION_WEIGHT, cited_leaves, section_names, with_section_names
from rulekb.kb.ask.part import Part
from rulekb.kb.search.features import concepts_in
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.analysis import fold


def _headed_leaf(index: Any) -> tuple[Any, str]:
    """A leaf whose heading names a specific concept its text does not print the heading of."""
    for leaf in index.features.values():
        heading = " ".join((leaf.heading or "").split()).rstrip(" .:")
        if not heading or fold(heading) in fold(leaf.text):
            continue
        specific = [c for c in concepts_in(index.matcher, heading) if index.concept_weight(c) >= SECTION_WEIGHT]
        if specific and len(leaf.text) < 400:
            return leaf, specific[0]
    raise AssertionError("no leaf headed by a concept's name")


def _part(leaf: Any, text: str, source: str = "text") -> Part:
    citation = {"source_id": leaf.source_id, "lines": list(leaf.lines), "quote": text}
    return Part(leaf.edition, text, leaf.id, list(leaf.lines), source, [citation])


def test_a_comparison_part_opens_with_the_section_that_names_the_mechanic(built: Path) -> None:
    index = get_index(built)
    leaf, concept = _headed_leaf(index)
    heading = " ".join(leaf.heading.split()).rstrip(" .:")
    part = _part(leaf, "Правило.")
    assert leaf.id in {x.id for x in cited_leaves(index, part.citations)}
    assert heading in section_names(index, part, [concept])
    named = with_section_names(index, part, [concept])
    assert named.text.startswith(f"§ {heading}")
    assert named.text.endswith(": Правило.")
    assert named.citations == part.citations  # a name, not a new quote
    # a FAQ part's quote line is opened the same way, its answer line stays first
    faq = with_section_names(index, _part(leaf, "Ответ.\n«Цитата»", "faq"), [concept])
    assert faq.text.startswith("Ответ.\n§ ")
    # an English part's lead line stays first
    english = with_section_names(index, _part(leaf, "10th edition — Term.\nПравило."), [concept])
    assert english.text.split("\n")[0] == "10th edition — Term." and english.text.split("\n")[1].startswith("§ ")


def test_a_section_name_the_part_prints_or_that_names_nothing_asked_is_not_added(built: Path) -> None:
    index = get_index(built)
    leaf, concept = _headed_leaf(index)
    heading = " ".join(leaf.heading.split()).rstrip(" .:")
    printed = _part(leaf, f"{heading}: правило.")
    assert with_section_names(index, printed, [concept]).text == printed.text
    # neither asked nor named by the ruling: no name
    plain = _part(leaf, "Правило.")
    assert section_names(index, plain, []) == []
    assert with_section_names(index, plain, []).text == "Правило."
    # an engine's part is not a quote: nothing to name
    engine = _part(leaf, "Правило.", "engine")
    assert with_section_names(index, engine, [concept]).text == "Правило."
