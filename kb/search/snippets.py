"""Snippets: a leaf's best window of text with the query's words in ``<b>…</b>``."""

from __future__ import annotations

import html
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache

from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.hits import Hit
from rulekb.kb.search.knowledge_index import KnowledgeIndex
from rulekb.kb.search.query import ParsedQuery
from rulekb.kb.text.analysis import tokens

__all__ = ["fill_snippets", "snippet"]


@lru_cache(maxsize=4096)
def _term_spans(text: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """Each analysed term of a leaf's text → its spans, in text order (a leaf is analysed once per
    process; a question looks up its own terms instead of walking every word of the leaf)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for t in tokens(text):
        spans.setdefault(t.text, []).append((t.start, t.end))
    return {term: tuple(found) for term, found in spans.items()}


def snippet(features: NodeFeatures, terms: set[str], width: int = 240) -> str:
    """The leaf's best window of about ``width`` characters, matched words in ``<b>…</b>``."""
    text = features.text
    spans = _term_spans(text)
    # the words of a text do not overlap: in order of their starts they are in text order
    marks: list[tuple[int, int]] = sorted(span for term in terms & spans.keys() for span in spans[term])
    if len(text) <= width:
        start, end = 0, len(text)
    else:
        # the window holding the most matched words, starting a quarter width before one of them;
        # the marks' starts and ends both ascend, so the marks inside a window are a run of them
        starts = [s for s, _ in marks]
        ends = [e for _, e in marks]
        best_start, best_count = 0, -1
        for mark_start in starts or [0]:
            window_start = max(0, mark_start - width // 4)
            count = max(0, bisect_right(ends, window_start + width) - bisect_left(starts, window_start))
            if count > best_count:
                best_start, best_count = window_start, count
        start, end = best_start, min(len(text), best_start + width)
        while start > 0 and not text[start - 1].isspace():
            start -= 1
    return marked_window(text, marks, start, end)


def marked_window(text: str, marks: Sequence[tuple[int, int]], start: int, end: int) -> str:
    """``text[start:end]`` as HTML, the ``marks`` inside it in ``<b>…</b>``, «…» where it is cut."""
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
