"""``rulekb build``: corpus → nodes → (termbase, graph, examples, index) into ``build/``.

Everything is written into a fresh temporary directory beside ``build/``; only when every
stage succeeded is it renamed into place, so a failed build never damages the last good one.
Stages are plain functions in :data:`STAGES`, run in order; each writes its artefacts into
``ctx.out`` and may record counts. Outputs are deterministic (sorted keys, stable order).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpus.errors import CorpusError, IndexMissingError, RulebaseError
from corpus.models import ParseIssue, RuleNode
from corpus.parser import ParsedCorpus, parse_corpus

__all__ = [
    "SCHEMA_VERSION",
    "STAGES",
    "BuildContext",
    "BuildResult",
    "build",
    "default_build_dir",
    "dump_json",
    "load_nodes",
    "read_manifest",
    "require_build",
]

SCHEMA_VERSION = 1
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def default_build_dir() -> Path:
    return PROJECT_ROOT / "build"


def dump_json(path: Path, data: Any) -> None:
    """Write JSON deterministically: sorted keys, UTF-8, a trailing newline."""
    path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n", encoding="utf-8")


@dataclass
class BuildContext:
    """What the stages share."""

    out: Path
    corpus: ParsedCorpus
    strict: bool = False
    counts: dict[str, Any] = field(default_factory=dict)
    issues: list[ParseIssue] = field(default_factory=list)
    log: Callable[[str], None] = lambda message: None

    @property
    def nodes(self) -> list[RuleNode]:
        return self.corpus.nodes


Stage = Callable[[BuildContext], None]


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
    from kb.examples import run_examples

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


def _optional_stage(module: str, function: str) -> Stage:
    """A stage provided by another module of ``kb``; imported lazily so ``kb.build`` stays light."""

    def run(ctx: BuildContext) -> None:
        import importlib

        getattr(importlib.import_module(module), function)(ctx)

    run.__name__ = f"{module}.{function}"
    return run


#: The build stages in order: (name, function).
STAGES: list[tuple[str, Stage]] = [
    ("nodes", _stage_nodes),
    ("examples", _stage_examples),
    ("faq", _optional_stage("kb.faq", "stage_faq")),
    ("terms", _optional_stage("kb.graph_build", "stage_terms")),
    ("graph", _optional_stage("kb.graph_build", "stage_graph")),
    ("index", _optional_stage("kb.index", "stage_index")),
    ("offline-index", _optional_stage("kb.offline_index", "stage_offline_index")),
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
    """Run every stage into a temporary directory, then move it into place atomically."""
    out = (out or default_build_dir()).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=out.parent))
    try:
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
        dump_json(tmp / "manifest.json", manifest)
        _swap_into_place(tmp, out)
        return BuildResult(out=out, manifest=manifest, issues=ctx.issues)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap_into_place(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with two renames; the old build is removed only afterwards."""
    old = out.with_name(out.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    if old.exists():
        shutil.rmtree(old)


def require_build(build_dir: Path | None = None) -> Path:
    """The build directory, or a clear error saying how to make it."""
    path = build_dir or default_build_dir()
    if not (path / "manifest.json").is_file():
        raise IndexMissingError(
            f"No knowledge base built at {str(path)!r}: run `rulekb build` first."
        )
    return path


def read_manifest(build_dir: Path | None = None) -> dict[str, Any]:
    path = require_build(build_dir) / "manifest.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("schema_version") != SCHEMA_VERSION:
        raise IndexMissingError(
            f"The build at {str(path.parent)!r} has schema {data.get('schema_version')!r}, this rulekb "
            f"reads {SCHEMA_VERSION}: run `rulekb build` again."
        )
    return data


def load_nodes(build_dir: Path | None = None) -> list[RuleNode]:
    """The rule nodes of the last good build."""
    path = require_build(build_dir) / "nodes.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    try:
        return [RuleNode.model_validate({k: v for k, v in n.items() if k != "source_sha256"}) for n in raw]
    except ValueError as exc:  # pragma: no cover - only a hand-edited build gets here
        raise RulebaseError(f"{str(path)!r} is not a valid node list ({exc}); run `rulekb build`.") from exc
