"""Worked examples printed in the rules: paragraphs opening «Пример:» or «Например,»."""

from __future__ import annotations

import re

from rulekb.corpus.rules.base import Block, BlockKind, Context

_EXAMPLE = re.compile(r"^(?:Пример|Например|К\s?примеру|Example)\b", re.IGNORECASE)


def example(ctx: Context, i: int) -> Block | None:
    if not _EXAMPLE.match(ctx.stripped[i]):
        return None
    return Block(BlockKind.EXAMPLE, i, i)
