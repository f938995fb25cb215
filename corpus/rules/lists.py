"""«•» lists and «-»/«–» or numbered list items.

A bullet list runs over consecutive lines (indented sub-bullets included). Whether it is a
``summary`` (a box that restates the rule above, as in the 10th-edition text) or part of the
rule's own text is the source's ``bullets`` setting, applied by the tree builder.
"""

from __future__ import annotations

import re

from rulekb.corpus.normalize import starts_continuation
from rulekb.corpus.rules.base import Block, BlockKind, Context

_BULLET = re.compile(r"^[•●▪◦]")
_ITEM = re.compile(r"^(?:[-–—]\s*\S|\d{1,2}\s*[.)]\s*\S|\d{1,2}\s+[-–—]\s+\S)")


def _run(ctx: Context, i: int, pattern: re.Pattern[str]) -> int:
    """Extend a list over following lines that are items or wrapped parts of an item."""
    end = i
    j = i + 1
    while j < len(ctx.raw) and not ctx.blank(j):
        raw = ctx.raw[j]
        if not (pattern.match(ctx.stripped[j]) or raw[:1].isspace() or starts_continuation(raw)):
            break
        end = j
        j += 1
    return end


def bullet(ctx: Context, i: int) -> Block | None:
    if not _BULLET.match(ctx.stripped[i]):
        return None
    return Block(BlockKind.BULLETS, i, _run(ctx, i, _BULLET))


def list_item(ctx: Context, i: int) -> Block | None:
    text = ctx.stripped[i]
    if not _ITEM.match(text):
        return None
    numbered = text[0].isdigit()
    if numbered:
        # A lone numbered line is a step heading or a paragraph; a list has neighbours.
        nxt = ctx.next_nonblank(i)
        prev = ctx.prev_nonblank(i)
        neighbours = [j for j in (prev, nxt) if j is not None and abs(j - i) <= 2]
        if not any(_ITEM.match(ctx.stripped[j]) for j in neighbours):
            return None
    return Block(BlockKind.LIST, i, _run(ctx, i, _ITEM))
