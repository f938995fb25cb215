"""``rulekb build``: corpus → nodes → (termbase, graph, examples, index) into ``build/``.

Each build is written into a fresh directory ``builds/.tmp-<stamp>`` beside ``build/``; only when
every stage succeeded is it renamed to ``builds/<stamp>`` and ``build`` — a symbolic link — switched
to it with one ``os.replace``, so ``build/`` is never missing or partial, whatever moment a build is
killed at, and a failed build never damages the last good one. One build runs at a time (an
``flock`` on ``builds/.lock``; a second one is refused with a clear message); each build first
removes what killed builds left (``.tmp-*`` directories, half-made links) and afterwards prunes old
builds, keeping the newest :data:`KEEP_BUILDS` besides the current one for readers still using them.
``manifest.json`` lists every file with its size and sha256, so readers can tell a damaged build
(:func:`verify_build`). Stages are plain functions in :data:`STAGES`, run in order; each writes its
artefacts into ``ctx.out`` and may record counts. Outputs are deterministic (sorted keys, stable order).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekb.corpus.errors import CorpusError, IndexMissingError, RulebaseError
from rulekb.corpus.models import ParseIssue, RuleNode
from rulekb.corpus.parser import ParsedCorpus, parse_corpus
from rulekb.kb.paths import PROJECT_ROOT

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

SCHEMA_VERSION = 1


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
    from rulekb.kb.examples.worked import run_examples

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
    """A stage provided by another module of ``kb``; imported lazily so ``rulekb.kb.build`` stays light."""

    def run(ctx: BuildContext) -> None:
        import importlib

        getattr(importlib.import_module(module), function)(ctx)

    run.__name__ = f"{module}.{function}"
    return run


#: The build stages in order: (name, function).
STAGES: list[tuple[str, Stage]] = [
    ("nodes", _stage_nodes),
    ("examples", _stage_examples),
    ("faq", _optional_stage("rulekb.kb.faq.entries", "stage_faq")),
    ("terms", _optional_stage("rulekb.kb.graph.build", "stage_terms")),
    ("termbase", _optional_stage("rulekb.kb.termbase.built", "stage_termbase")),
    ("vocabulary", _optional_stage("rulekb.kb.search.vocabulary", "stage_vocabulary")),
    ("graph", _optional_stage("rulekb.kb.graph.build", "stage_graph")),
    ("index", _optional_stage("rulekb.kb.search.index", "stage_index")),
    ("sentences", _optional_stage("rulekb.kb.text.sentences", "stage_sentences")),
    ("offline-index", _optional_stage("rulekb.kb.search.offline", "stage_offline_index")),
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
    with _BuildLock(store, out):
        _clean_leftovers(out, store, log)
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
        _switch_link(out, final, store, stamp)
        _prune(out, store, log)
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
    manifest["files"] = _file_table(tmp)
    dump_json(tmp / "manifest.json", manifest)
    _fsync_tree(tmp)
    return manifest, ctx.issues


# --- keeping builds whole -----------------------------------------------------------------------------

#: Old builds kept besides the current one (a worker may still be reading one).
KEEP_BUILDS = 2


class BuildLockedError(RulebaseError):
    """Another build is writing the same build directory."""


def store_dir(out: Path) -> Path:
    """Where the builds behind the ``out`` link live: ``builds/`` beside ``build``."""
    return out.with_name(out.name + "s")


class _BuildLock:
    """An exclusive ``flock`` on ``builds/.lock`` for the whole build; released when the process dies."""

    def __init__(self, store: Path, out: Path) -> None:
        self.path = store / ".lock"
        self.out = out
        self.fd = -1

    def __enter__(self) -> None:
        import fcntl

        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self.fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(self.fd)
            raise BuildLockedError(
                f"Another `rulekb build` (pid {holder}) is writing {str(self.out)!r}: wait until it finishes "
                "(the knowledge base it writes replaces the current one), then run it again if you still need to."
            ) from None
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, str(os.getpid()).encode(), 0)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing the descriptor releases the lock


def _clean_leftovers(out: Path, store: Path, log: Callable[[str], None]) -> None:
    """Remove what killed builds left: temporary directories and links (only while holding the lock)."""
    leftovers = [p for p in store.glob(".tmp-*")]
    leftovers += [p for p in out.parent.glob(".build-*") if p.is_dir() and not p.is_symlink()]  # older rulekb
    old = out.with_name(out.name + ".old")
    if old.is_dir() and not old.is_symlink():
        leftovers.append(old)
    for path in leftovers:
        shutil.rmtree(path, ignore_errors=True)
    for link in out.parent.glob(f".{out.name}.link-*"):
        link.unlink(missing_ok=True)
    if leftovers:
        log(f"removed {len(leftovers)} directory(ies) left by interrupted builds")


def _switch_link(out: Path, final: Path, store: Path, stamp: str) -> None:
    """Point ``out`` at ``final`` with one rename of a new link over the old one (atomic on POSIX)."""
    link = out.with_name(f".{out.name}.link-{os.getpid()}")
    link.unlink(missing_ok=True)
    os.symlink(os.path.relpath(final, out.parent), link)
    if out.is_dir() and not out.is_symlink():
        # A build directory written by an older rulekb: moved into the store once, then replaced by the link.
        if not (out / "manifest.json").is_file() and any(out.iterdir()):
            link.unlink()
            raise CorpusError(
                f"{str(out)!r} is a directory that is not a rulekb build (no manifest.json): give "
                "`--build-dir` a path of its own; nothing was changed there."
            )
        out.rename(store / f"legacy-{stamp}")
    os.replace(link, out)
    _fsync_dir(out.parent)


def _prune(out: Path, store: Path, log: Callable[[str], None]) -> None:
    current = out.resolve()
    builds = sorted(
        (p for p in store.iterdir() if p.is_dir() and not p.name.startswith(".") and p.resolve() != current),
        key=lambda p: p.name,
    )
    for path in builds[: max(len(builds) - KEEP_BUILDS, 0)]:
        shutil.rmtree(path, ignore_errors=True)


def _file_table(directory: Path) -> dict[str, dict[str, Any]]:
    """Every file of a build (manifest aside) with its size and sha256."""
    table: dict[str, dict[str, Any]] = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.name != "manifest.json":
            data = path.read_bytes()
            table[path.relative_to(directory).as_posix()] = {
                "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
    return table


def _fsync_tree(directory: Path) -> None:
    """Flush a finished build to disk before it is switched in (a crash then never shows a torn file)."""
    for path in directory.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def verify_build(build_dir: Path | None = None, hashes: bool = False, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The manifest, after checking every file it lists is there with its size (and sha256 with ``hashes``).

    A missing, truncated or changed file raises :class:`IndexMissingError` naming it and the fix;
    files whose path starts with one of ``skip`` are not checked. Builds from before the file table
    carry no ``files``: only the manifest is checked then.
    """
    manifest = read_manifest(build_dir)
    path = require_build(build_dir)
    files = manifest.get("files")
    if not isinstance(files, dict):
        return manifest
    for name, entry in files.items():
        if name.startswith(skip):
            continue
        target = path / name
        try:
            size = target.stat().st_size
        except OSError:
            raise _damaged(path, f"{name} is missing") from None
        if not isinstance(entry, dict) or size != entry.get("bytes"):
            raise _damaged(path, f"{name} has {size} bytes, the build wrote {entry.get('bytes')!r}")
        if hashes and hashlib.sha256(target.read_bytes()).hexdigest() != entry.get("sha256"):
            raise _damaged(path, f"{name} was changed after the build")
    return manifest


def seal_build(build_dir: Path) -> None:
    """Record the files of a build again after it was edited by hand (tests, experiments)."""
    manifest = read_manifest(build_dir)
    manifest["files"] = _file_table(build_dir)
    dump_json(build_dir / "manifest.json", manifest)


def _damaged(path: Path, what: str) -> IndexMissingError:
    return IndexMissingError(f"The knowledge base at {str(path)!r} is damaged ({what}): run `rulekb build`.")


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
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise _damaged(path.parent, f"manifest.json cannot be read: {exc}") from exc
    if not isinstance(data, dict):
        raise _damaged(path.parent, "manifest.json is not an object")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise IndexMissingError(
            f"The build at {str(path.parent)!r} has schema {data.get('schema_version')!r}, this rulekb "
            f"reads {SCHEMA_VERSION}: run `rulekb build` again."
        )
    return data


def load_nodes(build_dir: Path | None = None) -> list[RuleNode]:
    """The rule nodes of the last good build."""
    path = require_build(build_dir) / "nodes.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [RuleNode.model_validate({k: v for k, v in n.items() if k != "source_sha256"}) for n in raw]
    except (OSError, ValueError, TypeError, AttributeError, RecursionError) as exc:
        raise _damaged(path.parent, f"nodes.json is not a valid node list: {str(exc)[:200]}") from exc
