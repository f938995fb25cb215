"""``rulekb build``: corpus → nodes → (termbase, graph, examples, index) into ``build/``.

Each build is written into a fresh directory ``builds/.tmp-<stamp>`` beside ``build/``; only when
every stage succeeded is it renamed to ``builds/<stamp>`` and ``build`` — a symbolic link — switched
to it with one ``os.replace``, so ``build/`` is never missing or partial, whatever moment a build is
killed at, and a failed build never damages the last good one. One build runs at a time (an
``flock`` on ``builds/.lock``; a second one is refused with a clear message); each build first
removes what killed builds left (``.tmp-*`` directories, half-made links) and afterwards prunes old
builds, keeping the newest :data:`~rulekb.kb.store.KEEP_BUILDS` besides the current one for readers
still using them. Keeping builds whole and reading their manifest is :mod:`rulekb.kb.store`'s; this
module re-exports its readers.

Stages are plain functions in :data:`STAGES`, imported directly and run in order; each takes the
typed :class:`~rulekb.kb.context.BuildContext`, writes its artefacts into ``ctx.out`` and may record
counts. Nothing in kb imports this module, so the stages never import it back. Outputs are
deterministic (sorted keys, stable order).
"""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekb.corpus.errors import CorpusError
from rulekb.corpus.models import ParseIssue
from rulekb.corpus.parser import parse_corpus
from rulekb.kb.ask.stage import stage_sentences
from rulekb.kb.context import BuildContext, Stage, dump_json
from rulekb.kb.examples.worked import run_examples
from rulekb.kb.faq.loader import stage_faq
from rulekb.kb.graph.build import stage_graph, stage_terms
from rulekb.kb.search.index import stage_index
from rulekb.kb.search.offline import stage_offline_index
from rulekb.kb.store import (
    SCHEMA_VERSION,
    BuildLock,
    BuildLockedError,
    clean_leftovers,
    default_build_dir,
    file_table,
    fsync_tree,
    load_nodes,
    prune,
    read_manifest,
    require_build,
    seal_build,
    store_dir,
    switch_link,
    verify_build,
)
from rulekb.kb.termbase.built import stage_termbase
from rulekb.kb.text.vocabulary import stage_vocabulary

__all__ = [
    "SCHEMA_VERSION",
    "STAGES",
    "BuildContext",
    "BuildLockedError",
    "BuildResult",
    "build",
    "default_build_dir",
    "dump_json",
    "load_nodes",
    "read_manifest",
    "require_build",
    "seal_build",
    "store_dir",
    "verify_build",
]


def _stage_nodes(ctx: BuildContext) -> None:
    nodes = [node.model_dump(mode="json") for node in ctx.nodes]
    sha = {parsed.source.id: parsed.sha256 for parsed in ctx.corpus.sources}
    for node in nodes:
        node["source_sha256"] = sha[node["source_id"]]
    dump_json(ctx.out / "nodes.json", nodes)
    dump_json(ctx.out / "issues.json", [issue.model_dump(mode="json") for issue in ctx.corpus.issues])
    ctx.issues.extend(ctx.corpus.issues)


def _stage_examples(ctx: BuildContext) -> None:
    """Run every worked example through the engine and check its quotes: ``examples.json``."""
    results = run_examples(nodes=ctx.nodes)
    dump_json(ctx.out / "examples.json", results)
    ctx.counts["examples"] = len(results)
    failed = [r for r in results if not r["ok"]]
    ctx.counts["examples_failed"] = len(failed)
    for result in failed:
        citation = result["citations"][0] if result["citations"] else {"lines": [0, 0]}
        ctx.issues.append(
            ParseIssue(
                source_id=citation.get("source", ""),
                file="kb/examples",
                line=citation["lines"][0],
                reason=f"example {result['id']!r} does not reproduce: {'; '.join(result['problems'])}",
                severity="error",
            )
        )
    if failed:
        ctx.log(f"{len(failed)} worked example(s) failed; see `rulekb examples`")



#: The build stages in order: (name, function).
STAGES: list[tuple[str, Stage]] = [
    ("nodes", _stage_nodes),
    ("examples", _stage_examples),
    ("faq", stage_faq),
    ("terms", stage_terms),
    ("termbase", stage_termbase),
    ("vocabulary", stage_vocabulary),
    ("graph", stage_graph),
    ("index", stage_index),
    ("sentences", stage_sentences),
    ("offline-index", stage_offline_index),
]


@dataclass
class BuildResult:
    out: Path
    manifest: dict[str, Any]
    issues: list[ParseIssue]


def _manifest(ctx: BuildContext, timings: dict[str, float]) -> dict[str, Any]:
    sources = []
    for parsed in ctx.corpus.sources:
        kinds = Counter(node.kind.value for node in parsed.nodes)
        leaf_lengths = [n.lines[1] - n.lines[0] + 1 for n in parsed.nodes if n.is_leaf]
        source = parsed.source
        sources.append(
            {
                "id": source.id,
                "file": source.file,
                "upstream_file": source.upstream_file,
                "title": source.title,
                "title_en": source.title_en,
                "edition": source.edition,
                "game": source.game,
                "translation": source.translation,
                "credits": source.credits,
                "sha256": parsed.sha256,
                "lines": parsed.nodes[0].lines[1],
                "nodes": len(parsed.nodes),
                "kinds": dict(sorted(kinds.items())),
                "leaf_lines_max": max(leaf_lengths, default=0),
                "parse_issues": len(parsed.issues),
            }
        )
    return {
        "schema_version": SCHEMA_VERSION,
        "sources": sources,
        "counts": dict(sorted(ctx.counts.items())),
        "timings_ms": {name: round(ms, 1) for name, ms in timings.items()},
    }


def build(
    out: Path | None = None,
    strict: bool = False,
    log: Callable[[str], None] = lambda message: None,
    corpus_dir: Path | None = None,
) -> BuildResult:
    """Run every stage into a new directory of ``builds/``, then switch the ``build`` link to it atomically."""
    out = Path(os.path.abspath(out or default_build_dir()))
    store = store_dir(out)
    store.mkdir(parents=True, exist_ok=True)
    with BuildLock(store, out):
        clean_leftovers(out, store, log)
        stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 1_000_000_000:09d}-{os.getpid()}"
        tmp = store / f".tmp-{stamp}"
        tmp.mkdir()
        try:
            manifest, issues = _run_stages(tmp, strict, log, corpus_dir)
            final = store / stamp
            tmp.rename(final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        switch_link(out, final, store, stamp)
        prune(out, store, log)
    return BuildResult(out=out, manifest=manifest, issues=issues)


def _run_stages(
    tmp: Path, strict: bool, log: Callable[[str], None], corpus_dir: Path | None
) -> tuple[dict[str, Any], list[ParseIssue]]:
    timings: dict[str, float] = {}
    started = time.perf_counter()
    corpus = parse_corpus(directory=corpus_dir)
    timings["parse"] = (time.perf_counter() - started) * 1000
    log(f"parsed {len(corpus.sources)} sources into {len(corpus.nodes)} nodes")
    ctx = BuildContext(out=tmp, corpus=corpus, strict=strict, log=log)
    ctx.counts["nodes"] = len(corpus.nodes)
    for name, stage in STAGES:
        t0 = time.perf_counter()
        stage(ctx)
        timings[name] = (time.perf_counter() - t0) * 1000
        log(f"stage {name}: {timings[name]:.0f} ms")
    timings["total"] = (time.perf_counter() - started) * 1000
    if strict and ctx.issues:
        first = ctx.issues[0]
        raise CorpusError(
            f"--strict: {len(ctx.issues)} issue(s), first {first}; run `rulekb check` to list them all."
        )
    manifest = _manifest(ctx, timings)
    manifest["files"] = file_table(tmp)
    dump_json(tmp / "manifest.json", manifest)
    fsync_tree(tmp)
    return manifest, ctx.issues
