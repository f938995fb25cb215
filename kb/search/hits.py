"""A ranked rule leaf as search and ask return it (:class:`Hit`), and a search's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.query import ParsedQuery

__all__ = ["Hit", "SearchResult", "make_hit"]


@dataclass
class Hit:
    """One ranked rule leaf with what a citation needs."""

    node_id: str
    title: str
    heading: str
    breadcrumb: list[str]
    edition: str
    source_id: str
    source_sha256: str
    lines: tuple[int, int]
    page: int | None
    kind: str
    score: float
    snippet: str
    """The best passage with matched words in ``<b>…</b>`` (HTML-escaped)."""

    def to_json(self) -> dict[str, Any]:
        """The hit as the ``ask``/``search`` JSON contract prints it."""
        return {
            "node_id": self.node_id,
            "title": self.title,
            "heading": self.heading,
            "breadcrumb": self.breadcrumb,
            "edition": self.edition,
            "source_id": self.source_id,
            "source_sha256": self.source_sha256,
            "lines": list(self.lines),
            "page": self.page,
            "kind": self.kind,
            "score": round(self.score, 4),
            "snippet": self.snippet,
        }


@dataclass
class SearchResult:
    parsed: ParsedQuery
    hits: list[Hit] = field(default_factory=list)

    @property
    def did_you_mean(self) -> str | None:
        return self.parsed.did_you_mean


def make_hit(features: NodeFeatures, score: float, text: str = "") -> Hit:
    return Hit(
        node_id=features.id,
        title=features.title,
        heading=features.heading,
        breadcrumb=list(features.breadcrumb),
        edition=features.edition,
        source_id=features.source_id,
        source_sha256=features.source_sha256,
        lines=features.lines,
        page=features.page,
        kind=features.kind,
        score=round(score, 6),
        snippet=text,
    )
