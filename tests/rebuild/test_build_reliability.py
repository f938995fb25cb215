"""``rulekb build`` under kills and races: the build link always names a whole build; nothing stale stays.

Each test runs real ``rulekb build`` processes on a build directory of its own. A reader thread
checks, as often as it can, that the build the link names has its manifest and every file it lists; kills come at random (seeded) moments of a build.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rulekb.corpus.errors import IndexMissingError
from rulekb.kb.build import BuildLockedError, build, store_dir, verify_build

RULEKB = Path(sys.executable).with_name("rulekb")


def _start(out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(RULEKB), "build", "--quiet", "--build-dir", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _leftovers(out: Path) -> list[Path]:
    store = store_dir(out)
    return [*store.glob(".tmp-*"), *out.parent.glob(f".{out.name}.link-*"), *out.parent.glob(".build-*")]


@contextmanager
def _watch(out: Path) -> Iterator[dict[str, Any]]:
    """Count reads of the build during the block (directly and through the web app), and failed ones."""
    seen: dict[str, Any] = {"reads": 0, "missing": 0, "errors": []}
    stop = threading.Event()

    from rulekb.webapp import create_app

    client = create_app({"TESTING": True, "BUILD_DIR": out, "WARM_UP": False}).test_client()

    def read() -> None:
        while not stop.is_set():
            seen["reads"] += 1
            if seen["reads"] % 500 == 1:  # and as the web app serves it
                seen["served"] = seen.get("served", 0) + 1
                response = client.get("/api/sources")
                if response.status_code != 200:
                    seen["missing"] += 1
                    seen["errors"].append(f"/api/sources: {response.status_code} {response.get_data(as_text=True)[:200]}")
            try:
                target = out.resolve()  # as the web app does: resolve the link once, then read that build
                manifest = json.loads((target / "manifest.json").read_bytes())
                absent = [name for name in manifest["files"] if not (target / name).is_file()]
                if absent:
                    seen["missing"] += 1
                    seen["errors"].append(f"{target}: {absent[:3]}")
            except (OSError, ValueError, KeyError) as exc:
                seen["missing"] += 1
                seen["errors"].append(repr(exc))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        stop.set()
        thread.join()


@pytest.fixture()
def first(tmp_path: Path) -> Path:
    out = tmp_path / "build"
    build(out=out)
    return out


def test_the_build_is_a_link_to_a_whole_build_and_old_builds_are_pruned(first: Path) -> None:
    assert first.is_symlink()
    verify_build(first, hashes=True)
    for _ in range(3):
        build(out=first)
    kept = [p for p in store_dir(first).iterdir() if not p.name.startswith(".")]
    assert len(kept) == 3  # the current build and two before it, for readers still using them
    assert first.resolve() in [p.resolve() for p in kept]


def test_a_build_killed_at_random_moments_never_leaves_the_build_missing_or_partial(first: Path) -> None:
    rng = random.Random(14)
    started = time.perf_counter()
    build(out=first)
    duration = time.perf_counter() - started
    kills = 0
    with _watch(first) as seen:
        for _ in range(4):
            process = _start(first)
            time.sleep(rng.uniform(0.05, duration * 1.1))
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                kills += 1
            process.communicate()
            verify_build(first, hashes=True)  # whole, whichever build it is
    assert kills >= 2
    assert seen["reads"] > 100 and seen["served"] > 3 and seen["missing"] == 0, seen
    stale = _leftovers(first)
    build(out=first)  # the next build removes what the killed ones left
    assert not _leftovers(first), stale
    verify_build(first, hashes=True)


def test_two_builds_at_once_never_crash_and_leave_one_whole_build(first: Path) -> None:
    with _watch(first) as seen:
        for _ in range(2):
            processes = [_start(first) for _ in range(3)]
            outcomes = [(p.wait(), p.communicate()) for p in processes]
            for code, (_, err) in outcomes:
                assert "Traceback" not in err, err
                assert code == 0 or (code == 2 and "Another `rulekb build`" in err), (code, err)
            assert any(code == 0 for code, _ in outcomes)
            verify_build(first, hashes=True)
    assert seen["missing"] == 0, seen
    assert not _leftovers(first)


def test_a_second_build_while_one_holds_the_lock_is_refused_with_the_fix(first: Path) -> None:
    import fcntl

    fd = os.open(store_dir(first) / ".lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(BuildLockedError, match="wait until it finishes"):
            build(out=first)
    finally:
        os.close(fd)
    verify_build(first)


def test_a_build_directory_of_an_older_rulekb_is_replaced_by_the_link(first: Path, tmp_path: Path) -> None:
    import shutil

    legacy = tmp_path / "old" / "build"
    shutil.copytree(first, legacy)  # a real directory, as builds were written before
    (tmp_path / "old" / ".build-abc123").mkdir()  # and a temporary directory a killed build left
    build(out=legacy)
    assert legacy.is_symlink() and not (tmp_path / "old" / ".build-abc123").exists()
    verify_build(legacy, hashes=True)


def test_verify_build_names_the_damaged_file(first: Path) -> None:
    target = first.resolve() / "terms.json"
    target.write_bytes(target.read_bytes()[:10])
    with pytest.raises(IndexMissingError, match=r"terms\.json.*rulekb build"):
        verify_build(first)


def test_a_directory_that_is_not_a_build_is_never_moved(tmp_path: Path) -> None:
    from rulekb.corpus.errors import CorpusError

    precious = tmp_path / "data"
    precious.mkdir()
    (precious / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(CorpusError, match="not a rulekb build"):
        build(out=precious)
    assert (precious / "notes.txt").read_text(encoding="utf-8") == "mine" and not precious.is_symlink()
