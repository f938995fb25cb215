"""A table of contents: the first run of short title lines (single blank lines allowed).

Kept as a ``toc`` node, not a rule; its titles help the heading rules tell a chapter-level
heading from a box inside a section.
"""

from __future__ import annotations

import re

from rulekb.corpus.rules.base import Block, BlockKind, Context

MAX_ENTRY = 70
MIN_ENTRIES = 5


def _entry(text: str) -> bool:
    return 0 < len(text) <= MAX_ENTRY and not re.search(r"[.,;:]$", text)


def toc(ctx: Context, i: int) -> Block | None:
    if not ctx.source.parser.toc or ctx.toc_done or not _entry(ctx.stripped[i]):
        return None
    end = i
    entries = 0
    j = i
    while j < len(ctx.raw):
        if ctx.blank(j):
            if ctx.blank(j + 1):
                break
            j += 1
            continue
        if not _entry(ctx.stripped[j]):
            break
        entries += 1
        end = j
        j += 1
    if entries < MIN_ENTRIES:
        return None
    ctx.toc_done = True
    ctx.toc_titles.update(t.casefold() for t in ctx.stripped[i : end + 1] if t)
    return Block(BlockKind.TOC, i, end)
