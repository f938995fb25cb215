"""The build stage that marks every leaf's sentences (``build/sentences.json``) and writes the
edition vocabulary beside it; it runs after the index stage, whose features it reads."""

from __future__ import annotations

import json
from typing import Any

from rulekb.kb.ask.form import build_edition_vocabulary
from rulekb.kb.context import BuildContext
from rulekb.kb.search.index import read_features
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.sentences import SENTENCES_FILE, mark_sentences

__all__ = ["stage_sentences"]


def stage_sentences(ctx: BuildContext) -> None:
    """Build stage: mark every leaf's sentences (``sentences.json``); runs after the index stage."""
    data = read_features(ctx.out)
    out: dict[str, list[list[Any]]] = {}
    counts: dict[str, int] = {}
    for node in data["nodes"]:
        marked = mark_sentences(node["sentences"], node["kind"])
        out[node["id"]] = [[s, m, [t.text for t in tokens(s)]] for s, m in marked]
        for _, m in marked:
            counts[m] = counts.get(m, 0) + 1
    (ctx.out / SENTENCES_FILE).write_text(json.dumps(out, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    ctx.counts["sentences"] = counts
    editions = {node["id"]: node["edition"] for node in data["nodes"]}
    lemmas = {node_id: [list(lem) for _, _, lem in items] for node_id, items in out.items()}
    ctx.counts["edition_vocabulary"] = build_edition_vocabulary(ctx.out, lemmas, editions)
