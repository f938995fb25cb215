"""Page markers («С. 58» alone on a line): not rules; they set ``page`` on what follows."""

from __future__ import annotations

from rulekb.corpus.rules.base import Block, BlockKind, Context


def page_marker(ctx: Context, i: int) -> Block | None:
    if ctx.page_re is None:
        return None
    match = ctx.page_re.match(ctx.stripped[i])
    if match is None:
        return None
    return Block(BlockKind.PAGE, i, i, page=int(match.group(1)))
