"""Boxed rules printed as labelled fields, such as the 10th-edition stratagems («КОГДА:»,
«ЦЕЛЬ:», «ЭФФЕКТ:», «ОГРАНИЧЕНИЯ:»). The source's ``box_start`` regex marks the line that opens
a box; the tree builder makes the box one leaf and takes its printed name from ``box_title``
(the machine translation glues the name to the end of the line before).
"""

from __future__ import annotations

import re

from rulekb.corpus.rules.base import Block, BlockKind, Context


def box_start(ctx: Context, i: int) -> Block | None:
    pattern = ctx.source.parser.box_start
    if not pattern or not re.search(pattern, ctx.stripped[i]):
        return None
    return Block(BlockKind.BOX, i, i)


def box_field(ctx: Context, i: int) -> Block | None:
    """A later field of a box («ЭФФЕКТ:»): where a box runs long, the builder cuts it here."""
    pattern = ctx.source.parser.box_field
    if not pattern:
        return None
    match = re.search(pattern, ctx.stripped[i])
    return None if match is None else Block(BlockKind.BOX_FIELD, i, i)
