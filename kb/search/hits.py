"""A ranked rule leaf as search and ask return it (:class:`Hit`), and a search's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.query import ParsedQuery

__all__ = ["Hit", "SearchResult", "lead_each_edition", "make_hit"]


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


def lead_each_edition(hits: list[Hit], editions: list[str]) -> list[Hit]:
    """A comparison's hits with the first hit of each compared edition first (in their order), then
    the rest in order: what reorders the hits after ranking (a FAQ entry's cited passages, all of one
    edition) must not hide the other edition's rule."""
    leaders: list[Hit] = []
    for hit in hits:
        if hit.edition in editions and all(h.edition != hit.edition for h in leaders):
            leaders.append(hit)
    return leaders + [hit for hit in hits if all(hit is not h for h in leaders)]
