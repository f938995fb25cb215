"""Translator credits (to the end of the text) and a translator's preface (one paragraph).

Both are per-source settings (``credits`` and ``preface`` regexes in ``sources.toml``).
"""

from __future__ import annotations

import re

from rulekb.corpus.rules.base import Block, BlockKind, Context


def credits(ctx: Context, i: int) -> Block | None:
    pattern = ctx.source.parser.credits
    if not pattern or not re.search(pattern, ctx.stripped[i]):
        return None
    end = len(ctx.raw) - 1
    while end > i and ctx.blank(end):
        end -= 1
    return Block(BlockKind.CREDITS, i, end)


def preface(ctx: Context, i: int) -> Block | None:
    pattern = ctx.source.parser.preface
    if not pattern or not re.search(pattern, ctx.stripped[i]):
        return None
    return Block(BlockKind.PREFACE, i, i)
