"""Paragraphs: the fallback. A paragraph that starts in lower case or with punctuation is the
rest of a sentence the source split over lines (where it had a link): a ``continuation``."""

from __future__ import annotations

from rulekb.corpus.normalize import starts_continuation
from rulekb.corpus.rules.base import Block, BlockKind, Context


def continuation(ctx: Context, i: int) -> Block | None:
    if not starts_continuation(ctx.raw[i]):
        return None
    return Block(BlockKind.CONTINUATION, i, i)


def paragraph(ctx: Context, i: int) -> Block | None:
    return Block(BlockKind.PARAGRAPH, i, i)
