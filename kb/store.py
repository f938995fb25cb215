"""Where builds live and how they are kept whole: the ``build`` link, ``builds/``, the manifest.

Each build is written into a fresh directory ``builds/.tmp-<stamp>`` beside ``build/``; only when
every stage succeeded is it renamed to ``builds/<stamp>`` and ``build`` — a symbolic link — switched
to it with one ``os.replace`` (:func:`switch_link`). One build runs at a time (:class:`BuildLock`);
each build first removes what killed builds left (:func:`clean_leftovers`) and afterwards prunes old
builds (:func:`prune`). ``manifest.json`` lists every file with its size and sha256, so readers can
tell a damaged build (:func:`verify_build`); :func:`build_stamp` is how every cache over a build
detects a new one. Of kb it imports only :mod:`rulekb.kb.context` and :mod:`rulekb.kb.paths`.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from rulekb.corpus.errors import CorpusError, IndexMissingError, RulebaseError
from rulekb.corpus.models import RuleNode
from rulekb.kb.context import dump_json
from rulekb.kb.paths import PROJECT_ROOT

__all__ = [
    "KEEP_BUILDS",
    "SCHEMA_VERSION",
    "BuildLock",
    "BuildLockedError",
    "build_stamp",
    "clean_leftovers",
    "damaged",
    "default_build_dir",
    "file_table",
    "fsync_tree",
    "load_nodes",
    "prune",
    "read_manifest",
    "require_build",
    "seal_build",
    "stamps_held",
    "store_dir",
    "switch_link",
    "verify_build",
]

SCHEMA_VERSION = 1


def default_build_dir() -> Path:
    return PROJECT_ROOT / "build"



#: the stamps read during one request (:func:`stamps_held`), by the directory as given
_HELD: ContextVar[dict[str, tuple[Path, int]] | None] = ContextVar("rulekb_build_stamps", default=None)


@contextmanager
def stamps_held() -> Iterator[None]:
    """Within the block each build directory's stamp is read once: a web request asks for it
    from several caches (the knowledge base, the search index, the entity tag), and one request
    reads one build; the next block reads it afresh, so a new build is picked up as before. A block
    inside another (an answer inside a web request) keeps the enclosing block's stamps."""
    if _HELD.get() is not None:
        yield
        return
    token = _HELD.set({})
    try:
        yield
    finally:
        _HELD.reset(token)


def build_stamp(build_dir: Path) -> tuple[Path, int]:
    """What identifies one build: the directory ``build_dir`` resolves to and its manifest's mtime
    (0 when there is no manifest). The one way every cache over a build detects a new one."""
    held = _HELD.get()
    if held is None:
        return _read_stamp(build_dir)
    key = os.fspath(build_dir)
    found = held.get(key)
    if found is None:
        found = held[key] = _read_stamp(build_dir)
        # the directory it resolves to is held too: the web app asks by the ``build`` link, the search
        # index by the directory the link resolved to (a path already resolved resolves to itself)
        held.setdefault(os.fspath(found[0]), found)
    return found


def _read_stamp(build_dir: Path) -> tuple[Path, int]:
    path = Path(os.path.realpath(build_dir))
    try:
        return path, os.stat(path / "manifest.json").st_mtime_ns
    except OSError:
        return path, 0


# --- keeping builds whole -----------------------------------------------------------------------------

#: Old builds kept besides the current one (a worker may still be reading one).
KEEP_BUILDS = 2


class BuildLockedError(RulebaseError):
    """Another build is writing the same build directory."""


def store_dir(out: Path) -> Path:
    """Where the builds behind the ``out`` link live: ``builds/`` beside ``build``."""
    return out.with_name(out.name + "s")


class BuildLock:
    """An exclusive ``flock`` on ``builds/.lock`` for the whole build; released when the process dies."""

    def __init__(self, store: Path, out: Path) -> None:
        self.path = store / ".lock"
        self.out = out
        self.fd = -1

    def __enter__(self) -> None:
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


def clean_leftovers(out: Path, store: Path, log: Callable[[str], None]) -> None:
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


def switch_link(out: Path, final: Path, store: Path, stamp: str) -> None:
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


def prune(out: Path, store: Path, log: Callable[[str], None]) -> None:
    """Remove old builds, keeping the newest :data:`KEEP_BUILDS` besides the current one."""
    current = out.resolve()
    builds = sorted(
        (p for p in store.iterdir() if p.is_dir() and not p.name.startswith(".") and p.resolve() != current),
        key=lambda p: p.name,
    )
    for path in builds[: max(len(builds) - KEEP_BUILDS, 0)]:
        shutil.rmtree(path, ignore_errors=True)


def file_table(directory: Path) -> dict[str, dict[str, Any]]:
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


def fsync_tree(directory: Path) -> None:
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
            raise damaged(path, f"{name} is missing") from None
        if not isinstance(entry, dict) or size != entry.get("bytes"):
            raise damaged(path, f"{name} has {size} bytes, the build wrote {entry.get('bytes')!r}")
        if hashes and hashlib.sha256(target.read_bytes()).hexdigest() != entry.get("sha256"):
            raise damaged(path, f"{name} was changed after the build")
    return manifest


def seal_build(build_dir: Path) -> None:
    """Record the files of a build again after it was edited by hand (tests, experiments)."""
    manifest = read_manifest(build_dir)
    manifest["files"] = file_table(build_dir)
    dump_json(build_dir / "manifest.json", manifest)


def damaged(path: Path, what: str) -> IndexMissingError:
    """The error for a build whose ``what`` is wrong, with the fix."""
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
    """The build's ``manifest.json``, checked for its schema version."""
    path = require_build(build_dir) / "manifest.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise damaged(path.parent, f"manifest.json cannot be read: {exc}") from exc
    if not isinstance(data, dict):
        raise damaged(path.parent, "manifest.json is not an object")
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
        raise damaged(path.parent, f"nodes.json is not a valid node list: {str(exc)[:200]}") from exc
