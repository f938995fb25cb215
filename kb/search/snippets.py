"""Snippets: a leaf's best window of text with the query's words in ``<b>…</b>``."""

from __future__ import annotations

import html
from functools import lru_cache

from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.hits import Hit
from rulekb.kb.search.knowledge_index import KnowledgeIndex
from rulekb.kb.search.query import ParsedQuery
from rulekb.kb.text.analysis import tokens

__all__ = ["fill_snippets", "snippet"]


@lru_cache(maxsize=4096)
def _token_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """The analysed terms of a leaf's text with their spans (a leaf is analysed once per process)."""
    return tuple((t.text, t.start, t.end) for t in tokens(text))


def snippet(features: NodeFeatures, terms: set[str], width: int = 240) -> str:
    """The leaf's best window of about ``width`` characters, matched words in ``<b>…</b>``."""
    text = features.text
    marks: list[tuple[int, int]] = [(a, b) for term, a, b in _token_spans(text) if term in terms]
    if len(text) <= width:
        start, end = 0, len(text)
    else:
        best_start, best_count = 0, -1
        for mark_start, _ in marks or [(0, 0)]:
            window_start = max(0, mark_start - width // 4)
            count = sum(1 for s, e in marks if s >= window_start and e <= window_start + width)
            if count > best_count:
                best_start, best_count = window_start, count
        start, end = best_start, min(len(text), best_start + width)
        while start > 0 and not text[start - 1].isspace():
            start -= 1
    parts: list[str] = ["…" if start > 0 else ""]
    cursor = start
    for mark_start, mark_end in marks:
        if mark_start < start or mark_end > end:
            continue
        parts.append(html.escape(text[cursor:mark_start]))
        parts.append(f"<b>{html.escape(text[mark_start:mark_end])}</b>")
        cursor = mark_end
    parts.append(html.escape(text[cursor:end]))
    if end < len(text):
        parts.append("…")
    return " ".join("".join(parts).split())


def fill_snippets(parsed: ParsedQuery, hits: list[Hit], index: KnowledgeIndex) -> None:
    """Set each hit's highlighted snippet (done only for the hits that are shown)."""
    terms = {t.text for t in parsed.terms if t.origin != "light"}
    for concept in parsed.concepts:
        for phrase in parsed.concept_phrases.get(concept, ()):
            terms.update(index.lemmas_of(phrase))
    for hit in hits:
        if not hit.snippet:
            hit.snippet = snippet(index.features[hit.node_id], terms)
