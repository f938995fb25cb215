"""The raw source texts as the termbase reads them: the whole text, lines, pages, and blocks.

A :class:`Block` is a run of raw lines that one heading or one passage holds; occurrences never
cross a block's edge. Everything is read once per process and source.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache

from rulekb.corpus.models import RuleNode
from rulekb.corpus.parser import parse_corpus
from rulekb.corpus.reader import find_source, read_lines

__all__ = ["Block", "block_span", "blocks", "line_of", "line_starts", "page_numbers", "page_of", "source_nodes", "source_text"]


@cache
def source_text(source_id: str) -> str:
    """The raw text of a source (verified against its sha256)."""
    return "\n".join(read_lines(source_id))


@cache
def line_starts(source_id: str) -> tuple[int, ...]:
    """The character offset where each raw line of a source starts."""
    starts = [0]
    for line in read_lines(source_id)[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return tuple(starts)


def line_of(source_id: str, offset: int) -> int:
    """The 1-based line holding character ``offset`` of the raw text."""
    return bisect.bisect_right(line_starts(source_id), offset)


@cache
def source_nodes(source_id: str) -> tuple[RuleNode, ...]:
    """The parsed nodes of one source (headings and passages, with their raw lines)."""
    return tuple(parse_corpus([find_source(source_id)]).sources[0].nodes)


@dataclass(frozen=True)
class Block:
    """A run of raw lines that one heading or one passage holds: occurrences never cross a
    block's edge, so a heading is never read together with the paragraph after it."""

    first: int
    last: int
    node_id: str
    headings: tuple[str, ...]
    """The titles the block sits under, nearest first (a heading's own title first)."""
    heading: bool = False
    """The block is a heading's title."""


@cache
def blocks(source_id: str) -> tuple[Block, ...]:
    """The blocks of a source in line order: each line belongs to the innermost node covering it;
    lines no node covers (blank lines between passages) start new blocks."""
    nodes = source_nodes(source_id)
    count = len(read_lines(source_id))
    owner: list[RuleNode | None] = [None] * (count + 1)
    for node in sorted((n for n in nodes if n.parent_id is not None), key=lambda n: n.lines[1] - n.lines[0], reverse=True):
        for number in range(node.lines[0], min(node.lines[1], count) + 1):
            owner[number] = node
    by_id = {n.id: n for n in nodes}

    def titles(node: RuleNode | None) -> tuple[str, ...]:
        out: list[str] = []
        while node is not None:
            if not node.is_leaf and node.parent_id is not None and (node.title_clean or node.title):
                out.append(node.title_clean or node.title)
            node = by_id.get(node.parent_id) if node.parent_id else None
        return tuple(out)

    lines = read_lines(source_id)
    out: list[Block] = []
    number = 1
    while number <= count:
        here = owner[number]
        if here is None and not lines[number - 1].strip():
            number += 1
            continue
        last = number
        while last + 1 <= count and owner[last + 1] is here and (here is not None or lines[last].strip()):
            last += 1
        out.append(
            Block(number, last, here.id if here is not None else "", titles(here), here is not None and not here.is_leaf)
        )
        number = last + 1
    return tuple(out)


def block_span(source_id: str, block: Block) -> tuple[int, int]:
    """The raw character offsets of a block (its first line's start, its last line's end)."""
    starts = line_starts(source_id)
    end = starts[block.last] - 1 if block.last < len(starts) else len(source_text(source_id))
    return starts[block.first - 1], end


@cache
def page_numbers(source_id: str) -> tuple[int | None, ...]:
    """Page per line (index 0 = line 1): from the parsed nodes, else from the page markers."""
    lines = read_lines(source_id)
    source = find_source(source_id)
    if not source.page_markers:
        return (None,) * len(lines)
    pages: list[int | None] = [None] * len(lines)
    nodes = [n for n in source_nodes(source_id) if n.parent_id is not None]
    for node in sorted(nodes, key=lambda n: n.lines[1] - n.lines[0], reverse=True):
        for number in range(node.lines[0], node.lines[1] + 1):
            pages[number - 1] = node.page
    marker = re.compile(source.page_markers)
    current: int | None = None
    for index, line in enumerate(lines):
        found = marker.match(line)
        if found:
            current = int(found.group(1))
        if pages[index] is None:
            pages[index] = current
    return tuple(pages)


def page_of(source_id: str, line: int) -> int | None:
    """The printed page of a line, where the source has page markers."""
    pages = page_numbers(source_id)
    return pages[line - 1] if 0 < line <= len(pages) else None
