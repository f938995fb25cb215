"""Characteristic profiles and other tables: rows of short cells («WS BS S T W I A Ld Sv»)."""

from __future__ import annotations

import re

from rulekb.corpus.rules.base import Block, BlockKind, Context

_CELL = re.compile(r"^(?:[–\-—]|\d+\+?|\d*[DД]\d+|[A-Z][A-Za-z]?|\d+\"?)$")
MIN_CELLS = 5


def is_row(text: str) -> bool:
    cells = text.split()
    if len(cells) < MIN_CELLS:
        return False
    short = sum(1 for cell in cells if _CELL.match(cell))
    return short / len(cells) >= 0.7


def table(ctx: Context, i: int) -> Block | None:
    if not is_row(ctx.stripped[i]):
        return None
    end = i
    j = i + 1
    while j < len(ctx.raw):
        if ctx.blank(j):
            nxt = ctx.next_nonblank(j)
            if nxt is not None and nxt - j == 1 and is_row(ctx.stripped[nxt]):
                j = nxt
                continue
            break
        if not is_row(ctx.stripped[j]):
            break
        end = j
        j += 1
    return Block(BlockKind.TABLE, i, end)
