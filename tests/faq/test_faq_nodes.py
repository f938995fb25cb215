"""Mapping a citation to the rule nodes whose line spans overlap it."""

from __future__ import annotations

from dataclasses import dataclass

from rulekb.kb.faq.entries import FaqCitation, FaqEntry, citation_node_ids, entry_node_ids


@dataclass(frozen=True)
class Node:
    id: str
    source_id: str
    lines: tuple[int, int]
    is_leaf: bool = True


NODES = [
    Node("kt/ogon", "kt", (1, 1), is_leaf=False),
    Node("kt/ogon/text", "kt", (3, 3)),
    Node("kt/kontr", "kt", (7, 7), is_leaf=False),
    Node("kt/kontr/text", "kt", (9, 9)),
    Node("kt/podderzhka/text", "kt", (13, 15)),
    Node("6e-rules/other", "6e-rules", (1, 400)),
]


def cite(lines: tuple[int, int], source: str = "kt") -> FaqCitation:
    return FaqCitation(source=source, lines=lines, quotes=("x",))


def test_overlapping_leaves_in_text_order() -> None:
    assert citation_node_ids(cite((3, 9)), list(reversed(NODES))) == ["kt/ogon/text", "kt/kontr/text"]


def test_boundaries_are_inclusive() -> None:
    assert citation_node_ids(cite((15, 20)), NODES) == ["kt/podderzhka/text"]
    assert citation_node_ids(cite((10, 12)), NODES) == []


def test_headings_only_on_request() -> None:
    assert citation_node_ids(cite((1, 3)), NODES) == ["kt/ogon/text"]
    assert citation_node_ids(cite((1, 3)), NODES, leaves_only=False) == ["kt/ogon", "kt/ogon/text"]


def test_other_sources_are_ignored() -> None:
    assert "6e-rules/other" not in citation_node_ids(cite((1, 15)), NODES)
    assert citation_node_ids(cite((5, 5), source="6e-rules"), NODES) == ["6e-rules/other"]


def test_entry_node_ids_without_repeats() -> None:
    entry = FaqEntry(
        id="kt-probe",
        question="Проверочный вопрос?",
        variants=("один", "два"),
        edition="kt",
        concepts=("probe",),
        answer="Проверочный ответ.",
        citations=(cite((9, 9)), cite((3, 9)), cite((14, 14))),
    )
    assert entry_node_ids(entry, NODES) == ["kt/kontr/text", "kt/ogon/text", "kt/podderzhka/text"]


def test_every_faq_citation_lands_on_parsed_leaves() -> None:
    """With the real parser, each citation points to 1–6 leaves, and most to one or two."""
    from rulekb.corpus.parser import parse_corpus
    from rulekb.kb.faq.entries import load_faq

    nodes = parse_corpus().nodes
    counts: dict[str, int] = {}
    for entry in load_faq():
        for number, citation in enumerate(entry.citations):
            ids = citation_node_ids(citation, nodes)
            counts[f"{entry.id}#{number}"] = len(ids)
            assert 1 <= len(ids) <= 6, f"{entry.id}: {citation.source} {citation.lines} -> {ids}"
    tight = sum(1 for n in counts.values() if n <= 2)
    assert tight / len(counts) >= 0.8, f"only {tight} of {len(counts)} citations land on 1-2 leaves"
