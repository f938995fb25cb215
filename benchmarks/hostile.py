"""A hostile visitor against a running gunicorn: every request's status, time and the workers' memory growth.

    .venv/bin/python benchmarks/hostile.py [--port 5121] [--no-start]

Starts ``gunicorn -w 2`` (sync workers) on 127.0.0.1:PORT over ``build/`` (unless ``--no-start``:
then it talks to a server already there), sends the cases of the reliability report — huge dice
on the calculator form and both API methods, the largest profiles the engine's limits accept,
bodies with lone surrogates, deep nesting and wrong types, malformed Host headers — and prints
one line per case: status, milliseconds, and how much the resident memory of the larger worker
grew while it ran (sampled every 10 ms from /proc). Then a second server on PORT+1 serves a copy
of the build with ``nodes.json`` truncated, and every route is checked for 503 (or 200 where no
build is needed). The figures at the end: the slowest request, the largest growth, any 5xx.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulekb.engine.calc import parse_profile  # noqa: E402
from rulekb.engine.errors import EngineError  # noqa: E402
from rulekb.engine.limits import check_profile  # noqa: E402

Case = tuple[str, str, str, bytes | None, dict[str, str]]


def _largest(extra: dict[str, Any]) -> dict[str, Any]:
    """The largest number of attacks of one model the limits accept for this profile shape."""

    def make(n: int) -> dict[str, Any]:
        profile: dict[str, Any] = {"edition": "10", "weapon": {"attacks": str(n), "damage": "D6", "skill": 2,
                                                               "strength": 8},
                                   "defender": {"models": 100, "wounds": 30, "save": None}}
        for key, value in extra.items():
            profile[key] = {**profile.get(key, {}), **value}
        return profile

    low, high = 1, 100
    while low < high:
        mid = (low + high + 1) // 2
        try:
            check_profile(parse_profile(make(mid))[1])
            low = mid
        except EngineError:
            high = mid - 1
    return make(low)


def cases() -> list[Case]:
    post = {"Content-Type": "application/json"}
    out: list[Case] = [
        ("form 99D999", "GET", "/calc?attacks=99D999", None, {}),
        ("api 10D999", "GET", "/api/calc?attacks=10D999", None, {}),
        ("form 998 attacks vs 100 x W30", "GET",
         "/calc?attackers=1&attacks=998&models=100&wounds=30&damage=D6", None, {}),
        ("form 100 x D6 attacks vs 100 x W30", "GET",
         "/calc?attackers=100&attacks=D6&models=100&wounds=30&damage=D6", None, {}),
        ("POST attacks D1000000000", "POST", "/api/calc", b'{"edition":"10","weapon":{"attacks":"D1000000000"}}', post),
        ("POST damage D1000000000", "POST", "/api/calc", b'{"edition":"10","weapon":{"damage":"D1000000000"}}', post),
        ("POST attacks 1000000D6", "POST", "/api/calc", b'{"edition":"10","weapon":{"attacks":"1000000D6"}}', post),
        ("POST lone surrogate", "POST", "/api/calc", b'{"edition": "\\ud800"}', post),
        ("POST 60 KB of brackets", "POST", "/api/calc", b"[" * 30_000 + b"]" * 30_000, post),
        ("POST wrong types", "POST", "/api/calc", b'{"edition": 10, "weapon": [], "defender": {"models": "x"}}', post),
        ("POST 1 MB body", "POST", "/api/calc", b'{"edition": "' + b"x" * 1_000_000 + b'"}', post),
        ("Host 64-char label", "GET", "/", None, {"Host": "a" * 64 + ".example"}),
        ("Host a..b", "GET", "/static/style.css", None, {"Host": "a..b"}),
        ("search 10 KB", "GET", "/search?" + urlencode({"q": "я" * 10_000}), None, {}),
        ("search 500 characters", "GET", "/search?" + urlencode({"q": ("чардж овервотч " * 40)[:500]}), None, {}),
        ("draft check 60 KB", "POST", "/terms/check",
         urlencode({"draft": ("Отряд совершает чардж и получает укрытие. " * 1500)[:30_000]}).encode()[:64_000],
         {"Content-Type": "application/x-www-form-urlencoded"}),
        ("termbase export", "GET", "/terms.tbx", None, {}),
        ("termbase JSON", "GET", "/api/terms", None, {}),
        ("unknown rule with a long id", "GET", "/rules/" + "x" * 3000, None, {}),
    ]
    shapes = {
        "largest plain profile": {},
        "largest plain unit (10 models)": {"attacker": {"models": 10}},
        "largest with Sustained Hits D6": {"weapon": {"abilities": ["sustained-hits d6"]}},
        "largest with single wound re-roll": {"rerolls": {"wound": "single"}},
        "largest with single re-rolls + Devastating": {"rerolls": {"hit": "single", "wound": "single"},
                                                        "weapon": {"abilities": ["devastating-wounds"]}},
        "largest with Feel No Pain, 2D6 damage": {"weapon": {"damage": "2D6"}, "defender": {"fnp": 5}},
        "largest with spilling mortal wounds": {"weapon": {"abilities": ["devastating-wounds"]},
                                                "options": {"devastating_spill": True}},
    }
    for name, extra in shapes.items():
        out.append((name, "POST", "/api/calc", json.dumps(_largest(extra)).encode(), post))
    return out


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _workers(master: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            found.append(int(stat.parent.name))
    return found


@contextmanager
def _peak(pids: list[int]) -> Iterator[dict[str, int]]:
    """The largest RSS growth (kB) of any of ``pids`` while the block runs."""
    before = {pid: _rss_kb(pid) for pid in pids}
    result = {"growth": 0}
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            for pid in pids:
                result["growth"] = max(result["growth"], _rss_kb(pid) - before[pid])
            time.sleep(0.01)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield result
    finally:
        stop.set()
        thread.join()


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _settle(pids: list[int], quiet: float = 0.05, most: float = 90.0) -> None:
    """Wait until the workers are idle (their warm-up threads done), at most ``most`` seconds."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        before = [_cpu(pid) for pid in pids]
        time.sleep(0.5)
        if all(_cpu(pid) - b < quiet for pid, b in zip(pids, before, strict=True)):
            return


def request(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    conn.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
    for name, value in headers.items():
        conn.putheader(name, value)
    if body is not None:
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - started


@contextmanager
def server(port: int, build_dir: Path | None) -> Iterator[int]:
    env = dict(os.environ)
    if build_dir is not None:
        env["RULEKB_BUILD_DIR"] = str(build_dir)
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "-w", "2", "-b", f"127.0.0.1:{port}", "--timeout", "30",
         "rulekb.webapp:create_app()"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            try:
                request(port, "GET", "/about", None, {})
                break
            except OSError:
                time.sleep(0.1)
        yield process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def hostile(port: int, master: int | None) -> tuple[float, int, int]:
    workers = _workers(master) if master else []
    # Both workers loaded and their caches warmed (a background thread per worker's first request):
    # concurrent requests so that each worker gets some, then wait until both are idle.
    warmers = [threading.Thread(target=request, args=(port, "GET", "/terms", None, {})) for _ in range(6)]
    for thread in warmers:
        thread.start()
    for thread in warmers:
        thread.join()
    _settle(workers)
    slowest, largest, errors = 0.0, 0, 0
    print(f"{'case':<46} {'status':>6} {'ms':>7} {'RSS +MB':>8}")
    for name, method, path, body, headers in cases():
        with _peak(workers) as peak:
            status, seconds = request(port, method, path, body, headers)
        slowest, largest = max(slowest, seconds), max(largest, peak["growth"])
        errors += status >= 500
        print(f"{name:<46} {status:>6} {seconds * 1000:>7.0f} {peak['growth'] / 1024:>8.1f}", flush=True)
    return slowest, largest, errors


def damaged(port: int) -> int:
    """Serve a copy of the build with nodes.json truncated; count answers other than the documented ones."""
    wrong = 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "build"
        shutil.copytree((ROOT / "build").resolve(), copy)
        data = (copy / "nodes.json").read_bytes()
        (copy / "nodes.json").write_bytes(data[: len(data) // 2])
        with server(port, copy):
            print(f"\ndamaged build (nodes.json truncated) on port {port}:")
            for path, wanted in (("/", 503), ("/search?q=%D1%87%D0%B0%D1%80%D0%B4%D0%B6", 503), ("/api/ask?q=%D1%87%D0%B0%D1%80%D0%B4%D0%B6", 503), ("/sources", 503),
                                 ("/api/sources", 503), ("/calc?attacks=D6", 200), ("/api/calc?attacks=D6", 200),
                                 ("/static/style.css", 200)):
                status, seconds = request(port, "GET", path, None, {})
                wrong += status != wanted
                print(f"  {path:<24} {status} (want {wanted}) {seconds * 1000:.0f} ms")
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5121)
    parser.add_argument("--no-start", action="store_true", help="use a server already listening on PORT")
    args = parser.parse_args()
    if args.no_start:
        slowest, largest, errors = hostile(args.port, None)
    else:
        with server(args.port, None) as master:
            slowest, largest, errors = hostile(args.port, master)
    wrong = damaged(args.port + 1)
    print(f"\nslowest request {slowest * 1000:.0f} ms (target < 2000); largest worker growth "
          f"{largest / 1024:.1f} MB (target < 100); 5xx answers {errors}; damaged-build answers not as documented "
          f"{wrong}")


if __name__ == "__main__":
    main()
