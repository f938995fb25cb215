"""The citation label, built in one place: «Книга, с. 58, строки 13–15» (or «lines 13–15» in English).

The CLI, the API's ``citation.text``/``short``, the pages and the answer card's plain text all call
these; templates reach them through the ``lines_label`` filter and the ``cite_label`` macro of
``_macros.html``.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["citation_label", "lines_label"]


def lines_label(lines: Sequence[int], lang: str = "ru") -> str:
    """«строка 13» for one line, «строки 13–15» for a span (``lang="en"``: «line 13», «lines 13–15»)."""
    start, end = int(lines[0]), int(lines[-1])
    if lang == "en":
        return f"line {start}" if start == end else f"lines {start}–{end}"
    return f"строка {start}" if start == end else f"строки {start}–{end}"


def citation_label(where: str, lines: Sequence[int], page: int | None = None, lang: str = "ru") -> str:
    """``where`` (a book's title or a source id; empty for none), the page when printed, and the lines,
    joined by commas: «Книга правил, с. 58, строки 13–15»."""
    page_text = "" if page is None else (f"p. {page}" if lang == "en" else f"с. {page}")
    return ", ".join(part for part in (where, page_text, lines_label(lines, lang)) if part)
