"""Web throughput: requests per second and latency of the search page and /api/ask under gunicorn.

Prints figures, asserts nothing. Starts ``gunicorn -w 2 -b 127.0.0.1:<free port> 'webapp:create_app()'``
(sync workers) over a knowledge base built into a temporary directory (or ``--build-dir``), warms every
worker, then runs a bounded load loop — client threads with ``http.client`` keep-alive connections, a
fixed number of requests per route and a time limit — against, in the same run:

* ``/static/style.css``: a static file, the server's ceiling on this machine;
* ``search``: the search page over the evaluation questions, every request a question the worker has
  not answered yet (the warm-up used other questions), so no answer comes from the per-worker cache;
* ``search-top``: the search page over 20 popular questions asked again and again (what a table of
  players does: the per-worker answer cache serves them);
* ``api/ask``: the unseen questions again as JSON (``/api/ask``, limit 5; the page shows 10 hits);
* ``rule``: rule pages.

    .venv/bin/python benchmarks/web.py [--requests 400] [--threads 4] [--time-limit 30] [--build-dir DIR]

The target is search at ≥ 50 % of the static route's throughput; the script prints the ratio.
Loopback only: the server binds 127.0.0.1 and the client connects there.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Run:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    wall: float = 0.0

    def line(self) -> str:
        done = len(self.latencies)
        rps = done / self.wall if self.wall else 0.0
        ms = [x * 1000 for x in self.latencies] or [0.0]
        return (
            f"{self.name:<12} {done:>5} req in {self.wall:6.2f} s  {rps:8.1f} req/s  "
            f"p50 {percentile(ms, 0.5):7.1f} ms  p99 {percentile(ms, 0.99):7.1f} ms  "
            f"max {max(ms):7.1f} ms  errors {self.errors}  statuses {dict(sorted(self.statuses.items()))}"
        )

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0


def load(name: str, port: int, paths: list[str], requests: int, threads: int, time_limit: float) -> Run:
    """``requests`` GETs spread over ``threads`` keep-alive clients, stopping early at ``time_limit``."""
    run = Run(name)
    lock = threading.Lock()
    counter = iter(range(requests))
    deadline = time.perf_counter() + time_limit

    def worker() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        while time.perf_counter() < deadline:
            with lock:
                n = next(counter, None)
            if n is None:
                break
            path = paths[n % len(paths)]
            started = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                status = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection(HOST, port, timeout=30)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                with lock:
                    run.errors += 1
                continue
            elapsed = time.perf_counter() - started
            with lock:
                run.latencies.append(elapsed)
                run.statuses[status] = run.statuses.get(status, 0) + 1
        conn.close()

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    started = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    run.wall = time.perf_counter() - started
    return run


def questions(path: Path, limit: int) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            question = json.loads(line).get("question", "")
            if question and len(question) <= 500:
                out.append(question)
    return out[:limit]


def wait_ready(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            conn.request("GET", "/about")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer on {HOST}:{port} within {timeout:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="requests per route")
    parser.add_argument("--threads", type=int, default=4, help="concurrent client connections")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per route at most")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=0, help="serve on this port (default: a free one)")
    parser.add_argument("--build-dir", type=Path, default=None, help="serve this build (default: build a fresh one)")
    parser.add_argument("--questions", type=Path, default=ROOT / "tests" / "data" / "eval.jsonl")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="rulekb-web-bench-"))
    build_dir = args.build_dir
    if build_dir is None:
        from kb.build import build

        started = time.perf_counter()
        build_dir = build(out=tmp / "build").out
        print(f"built the knowledge base in {time.perf_counter() - started:.1f} s")

    from kb.build import load_nodes

    leaves = [n for n in load_nodes(build_dir) if n.is_leaf and n.kind.value == "rule"]
    every = questions(args.questions, 10_000)
    warm, asked = every[:20], every[20 : 20 + args.requests]
    search_paths = [f"/search?q={quote(q)}" for q in asked]
    top_paths = [f"/search?q={quote(q)}" for q in warm]
    api_paths = [f"/api/ask?q={quote(q)}&limit=5" for q in asked]
    rule_paths = [f"/rules/{quote(n.id)}" for n in leaves]

    port = args.port or free_port()
    env = {**os.environ, "RULEKB_BUILD_DIR": str(build_dir)}
    command = [
        str(ROOT / ".venv" / "bin" / "gunicorn"), "-w", str(args.workers), "-k", "sync",
        "-b", f"{HOST}:{port}", "--log-level", "warning", "webapp:create_app()",
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_ready(port)
        # warm every worker: index, features, termbase matchers, templates
        warm_paths = [*top_paths, *(f"/api/ask?q={quote(q)}&limit=5" for q in warm), *rule_paths[:20]]
        for path in [*warm_paths, "/static/style.css"] * args.workers:
            conn = http.client.HTTPConnection(HOST, port, timeout=60)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()
        print(
            f"gunicorn {args.workers} sync workers on {HOST}:{port}; {args.threads} client threads; "
            f"{args.requests} requests per route (time limit {args.time_limit:.0f} s); "
            f"{len(asked)} unseen questions; cpu count {os.cpu_count()}"
        )
        runs = [
            load("static", port, ["/static/style.css"], args.requests, args.threads, args.time_limit),
            load("search", port, search_paths, args.requests, args.threads, args.time_limit),
            load("search-top", port, top_paths, args.requests, args.threads, args.time_limit),
            load("api/ask", port, api_paths, args.requests, args.threads, args.time_limit),
            load("rule", port, rule_paths, args.requests, args.threads, args.time_limit),
        ]
        for run in runs:
            print(run.line())
        static = runs[0].rps or 1.0
        for run in runs[1:]:
            print(f"{run.name:<12} {run.rps / static:6.1%} of the static route's throughput")
        ms = [x * 1000 for x in runs[1].latencies] or [0.0]
        print(f"search page: mean {statistics.fmean(ms):.1f} ms per request under load")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
