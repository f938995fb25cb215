"""Citations: (source, line span) pairs, the quotes they carry, and the nodes they point to.

The FAQ, the worked examples and the curated definitions all cite the text the same way, so
they share these helpers: a quote must occur in the cited raw lines (whitespace runs, no-break
spaces included, count as one space), and a citation points to the leaves overlapping its span.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from rulekb.corpus.reader import read_lines

__all__ = ["NodeLike", "missing_quotes", "normalise_space", "overlapping_nodes"]


class NodeLike(Protocol):
    """What the helpers need of a rule node (``rulekb.corpus.models.RuleNode`` fits)."""

    @property
    def id(self) -> str: ...

    @property
    def source_id(self) -> str: ...

    @property
    def lines(self) -> tuple[int, int]: ...

    @property
    def is_leaf(self) -> bool: ...


def normalise_space(text: str) -> str:
    """Collapse every run of whitespace (no-break spaces included) to one space and strip."""
    return " ".join(text.split())


def missing_quotes(
    source_id: str,
    lines: tuple[int, int],
    quotes: Iterable[str],
    read: Callable[[str], Sequence[str]] = read_lines,
) -> list[str]:
    """The quotes that do not occur in lines ``a``–``b`` (1-based, inclusive) of the raw source."""
    raw = read(source_id)
    a, b = lines
    cited = normalise_space(" ".join(raw[a - 1 : b]))
    return [quote for quote in quotes if normalise_space(quote) not in cited]


def overlapping_nodes(
    source_id: str, lines: tuple[int, int], nodes: Iterable[NodeLike], *, leaves_only: bool = True
) -> list[str]:
    """Ids of the nodes of ``source_id`` whose span overlaps ``lines``, in text order."""
    start, end = lines
    hits = [
        node
        for node in nodes
        if node.source_id == source_id
        and (node.is_leaf or not leaves_only)
        and node.lines[0] <= end
        and node.lines[1] >= start
    ]
    hits.sort(key=lambda node: (node.lines[0], node.lines[1], node.id))
    return [node.id for node in hits]
