"""Figure labels: a run of short title-like lines with no text between them («НАКАЧИВАЙТЕСЬ 2»,
«СОВЕРШАЙТЕ ХУДШИЕ АТАКИ», «Выберите оружие»… beside a diagram; «Маркер большого взрыва»,
«Шаблон», «Малый маркер взрыва» under the templates' picture). They are not headings: a heading
has text under it. This pass runs over the blocks after the chain: in a run of at least
``MIN_RUN`` + 1 consecutive headings, all but the last (which has the text) become one leaf of kind ``list``.
"""

from __future__ import annotations

from rulekb.corpus.rules.base import HEADING_BLOCKS, Block, BlockKind, Context

MIN_RUN = 3


def label_runs(ctx: Context, blocks: list[Block]) -> list[Block]:
    del ctx
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        j = i
        while j < len(blocks) and blocks[j].kind in HEADING_BLOCKS:
            j += 1
        labels = blocks[i : j - 1] if j > i else []  # the last heading of the run keeps its text
        if len(labels) >= MIN_RUN:
            out.append(Block(BlockKind.LABELS, labels[0].start, labels[-1].end, rule="label_runs"))
            out.append(blocks[j - 1])
            i = j
        else:
            out.append(blocks[i])
            i += 1
    return out
