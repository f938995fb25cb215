"""The outline of a build's rule nodes: ancestors (the breadcrumb) and reading order (previous/next).

One :class:`Outline` computes both, from each node's parent, source, first line and title. The
graph build chains consecutive rule leaves of its reading order with ``next`` edges
(:mod:`rulekb.kb.graph.build`); :class:`rulekb.kb.graph.queries.KnowledgeGraph` reads its
breadcrumbs from an outline of the graph's nodes, and :class:`rulekb.kb.knowledge.KnowledgeBase`
its trail, breadcrumb, depth and previous/next from an outline of the built nodes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from rulekb.corpus.models import NodeKind, RuleNode

__all__ = ["Outline", "OutlineEntry"]


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """What the outline needs of one node."""

    id: str
    parent_id: str | None
    source_id: str
    first_line: int
    title: str
    is_source: bool = False

    @classmethod
    def of(cls, node: RuleNode) -> OutlineEntry:
        return cls(
            node.id, node.parent_id, node.source_id, node.lines[0], node.title_clean or node.title, node.kind is NodeKind.SOURCE
        )


class Outline:
    """Ancestors and reading order of a set of nodes."""

    def __init__(self, entries: Iterable[OutlineEntry]) -> None:
        self.entries: dict[str, OutlineEntry] = {e.id: e for e in entries}

    @classmethod
    def of_nodes(cls, nodes: Iterable[RuleNode]) -> Outline:
        return cls(OutlineEntry.of(node) for node in nodes)

    def trail(self, node_id: str) -> list[str]:
        """The ids of the ancestors of ``node_id``, root first (a parent missing or met twice ends it)."""
        out: list[str] = []
        entry = self.entries.get(node_id)
        parent = entry.parent_id if entry is not None else None
        while parent is not None and parent in self.entries and parent not in out:
            out.append(parent)
            parent = self.entries[parent].parent_id
        return list(reversed(out))

    def breadcrumb(self, node_id: str) -> list[str]:
        """The titles of the ancestors, root (the source) first."""
        return [self.entries[a].title for a in self.trail(node_id)]

    def depth(self, node_id: str) -> int:
        return len(self.trail(node_id))

    @cached_property
    def reading_order(self) -> dict[str, list[str]]:
        """Source id → its nodes (not the source node itself) in reading order: by first line, a
        parent before the child that starts on its line."""
        per_source: dict[str, list[str]] = defaultdict(list)
        for entry in self.entries.values():
            if not entry.is_source:
                per_source[entry.source_id].append(entry.id)
        for ids in per_source.values():
            ids.sort(key=lambda i: (self.entries[i].first_line, self.depth(i)))
        return dict(per_source)

    @cached_property
    def _position(self) -> dict[str, int]:
        return {nid: i for ids in self.reading_order.values() for i, nid in enumerate(ids)}

    def adjacent(self, node_id: str) -> tuple[str | None, str | None]:
        """The previous and next node of the same source in reading order."""
        pos = self._position.get(node_id)
        if pos is None:
            return None, None
        ids = self.reading_order[self.entries[node_id].source_id]
        return (ids[pos - 1] if pos > 0 else None), (ids[pos + 1] if pos + 1 < len(ids) else None)
