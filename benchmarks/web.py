"""Web figures: a slow phone's transfer size and time to content, and throughput under gunicorn.

Prints figures, asserts nothing. Starts ``gunicorn -c webapp/gunicorn_conf.py 'rulekb.webapp:create_app()'``
with 2 sync workers on 127.0.0.1 over a knowledge base built into a temporary directory (or
``--build-dir``), warms every worker, then:

1. **A slow phone** (Playwright driving ``/usr/bin/chromium``, Chromium's network emulation through
   CDP: 400 kbit/s down and up, 400 ms latency, 360×640; ``--no-phone`` skips it,
   ``--no-throughput`` stops after it): each main page loaded with a cold cache —
   the bytes transferred (compressed, every resource) and the time to content (first contentful
   paint) — and again with a warm HTTP cache (revalidations answered 304). The termbase is measured
   on its first page, a later page, its report and the whole table on one page. Then what the service
   worker downloads to go offline (every precached URL, gzipped) and stores.
2. **Throughput**: client threads with ``http.client`` keep-alive connections, ``Accept-Encoding:
   gzip`` like a browser, a fixed number of requests per route and a time limit, in the same run:

   * ``static``: the content-hashed stylesheet (``/assets/style.<hash>.css``), the server's ceiling;
   * ``search``: the search page over evaluation questions no worker has answered yet;
   * ``search-top``: the search page over 20 popular questions asked again and again;
   * ``search-304``: the popular questions revalidated with the page's ETag (what a browser or the
     service worker's background refresh sends);
   * ``api/ask``: the unseen questions as JSON (limit 5);
   * ``rule``: rule pages in reading order (each leaf once, then again: the second time from the
     worker's response cache).

   Beside req/s and latencies each route prints the CPU time the server's processes spent per
   request (``/proc``: the gunicorn master and workers), a figure that swings less than req/s when
   other work shares the cores; the ratios print both against the static route. Last, each
   worker's peak resident memory (``VmHWM``) after everything it served.

   The routes are interleaved in ``--rounds`` rounds (a quarter of each route's requests, then
   the next route, …), so a drift in the machine's load falls on every route alike.

   Unseen questions come from every evaluation file, each asked once (``--requests`` at most).

    .venv/bin/python benchmarks/web.py [--threads 16] [--requests 800] [--rounds 4] [--time-limit 30]
                                       [--build-dir DIR] [--no-phone] [--no-throughput] [--cpu-slowdown 1]

Targets: the search page with results ≤ 30 KB compressed and ≤ 1.5 s to content on the slow
network; search at ≥ 50 % of the static route's throughput (the script prints the ratios).
Loopback only: the server binds 127.0.0.1 and the clients connect there.
"""

from __future__ import annotations

import argparse
import gzip
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
    server_cpu: float = 0.0

    def line(self) -> str:
        done = len(self.latencies)
        rps = done / self.wall if self.wall else 0.0
        ms = [x * 1000 for x in self.latencies] or [0.0]
        return (
            f"{self.name:<12} {done:>5} req in {self.wall:6.2f} s  {rps:8.1f} req/s  "
            f"p50 {percentile(ms, 0.5):7.1f} ms  p99 {percentile(ms, 0.99):7.1f} ms  "
            f"max {max(ms):7.1f} ms  server CPU {self.cpu_ms:6.2f} ms/req  errors {self.errors}  "
            f"statuses {dict(sorted(self.statuses.items()))}"
        )

    @property
    def cpu_ms(self) -> float:
        """CPU time the server's processes spent per request (steadier than req/s on a shared machine)."""
        return 1000 * self.server_cpu / len(self.latencies) if self.latencies else 0.0

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0


HEADERS = {"Accept-Encoding": "gzip"}
TICK = os.sysconf("SC_CLK_TCK")


def server_cpu(group: int) -> float:
    """CPU seconds (user + system) used so far by the processes of process group ``group`` (the
    gunicorn master and its workers), from /proc."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def peak_memory(group: int, master: int) -> list[float]:
    """Peak resident memory (``VmHWM``, MB) of each process of process group ``group`` but the
    gunicorn master: the workers, after what they served."""
    peaks = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != group or int(stat.parent.name) == master:
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, ValueError):
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peaks.append(int(line.split()[1]) / 1024)
    return sorted(peaks)


def load(
    name: str,
    port: int,
    paths: list[str],
    requests: int,
    threads: int,
    time_limit: float,
    headers: dict[str, str] | None = None,
) -> Run:
    """``requests`` GETs spread over ``threads`` keep-alive clients, stopping early at ``time_limit``."""
    sent = {**HEADERS, **(headers or {})}
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
                conn.request("GET", path, headers=sent)
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


def fetch(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


#: Chromium's emulated slow network: 400 kbit/s each way, 400 ms latency
SLOW = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}


def phone(port: int, pages: list[tuple[str, str]], cpu_slowdown: float) -> None:
    """Transfer size and time to content of each page on the emulated slow network, cold and warm."""
    from playwright.sync_api import sync_playwright

    base = f"http://{HOST}:{port}"
    print(
        f"slow phone: Chromium network emulation {SLOW['downloadThroughput'] * 8 / 1000:.0f} kbit/s, "
        f"{SLOW['latency']} ms latency, 360x640, CPU slowdown {cpu_slowdown:g}x; "
        "transfer = compressed bytes of every resource; content = first contentful paint"
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        try:
            for name, path in pages:
                context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True,
                                              service_workers="block")
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", SLOW)
                if cpu_slowdown > 1:
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
                figures = []
                for visit in ("cold", "warm"):
                    sizes: dict[str, float] = {}
                    cdp.on("Network.loadingFinished", lambda e, sizes=sizes: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
                    page.goto(base + path, wait_until="load")
                    page.wait_for_timeout(300)
                    fcp = page.evaluate(
                        "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime"
                    )
                    html = page.evaluate("performance.getEntriesByType('navigation')[0].transferSize")
                    figures.append(
                        f"{visit} {sum(sizes.values()) / 1024:5.1f} KB in {len(sizes):2d} req "
                        f"(page {html / 1024:4.1f} KB)  content {fcp / 1000:4.2f} s"
                    )
                print(f"  {name:<16} " + " | ".join(figures))
                context.close()
        finally:
            browser.close()


def offline_cost(port: int) -> None:
    """What the service worker downloads (gzipped) and stores to go offline."""
    _, _, body = fetch(port, "/sw.js")
    precache = body.decode().split('const PRECACHE_URL = "', 1)[1].split('"', 1)[0]
    listing = json.loads(fetch(port, precache)[2])
    urls = [*listing["shell"], *listing["pages"]]
    sent = stored = 0
    started = time.perf_counter()
    for url in urls:
        _, headers, packed = fetch(port, url, HEADERS)
        sent += len(packed)
        stored += len(gzip.decompress(packed)) if headers.get("content-encoding") == "gzip" else len(packed)
    print(
        f"offline: the service worker stores {len(urls)} URLs ({len(listing['shell'])} shell, {len(listing['pages'])} pages): "
        f"{sent / 1e6:.1f} MB transferred gzipped, {stored / 1e6:.1f} MB stored (budget {listing['budget'] / 1e6:.1f} MB); "
        f"{time.perf_counter() - started:.1f} s on loopback, one client"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=800, help="requests per route")
    parser.add_argument("--threads", type=int, default=16, help="concurrent client connections")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per route at most")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=0, help="serve on this port (default: a free one)")
    parser.add_argument("--build-dir", type=Path, default=None, help="serve this build (default: build a fresh one)")
    parser.add_argument(
        "--questions", type=Path, nargs="+",
        default=[ROOT / "tests" / "data" / name for name in ("eval.jsonl", "fresh.jsonl", "dev.jsonl", "dev-extra.jsonl")],
        help="JSONL files with a question per line (each question is asked once as an unseen one)",
    )
    parser.add_argument("--rounds", type=int, default=4, help="interleave the routes in this many rounds")
    parser.add_argument("--no-phone", action="store_true", help="skip the slow-phone measurements")
    parser.add_argument("--no-throughput", action="store_true", help="only the slow-phone and offline figures")
    parser.add_argument("--cpu-slowdown", type=float, default=1.0, help="Chromium CPU throttling for the phone")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="rulekb-web-bench-"))
    build_dir = args.build_dir
    if build_dir is None:
        from rulekb.kb.build import build

        started = time.perf_counter()
        build_dir = build(out=tmp / "build").out
        print(f"built the knowledge base in {time.perf_counter() - started:.1f} s")

    from rulekb.kb.build import load_nodes

    leaves = [n for n in load_nodes(build_dir) if n.is_leaf and n.kind.value == "rule"]
    every = list(dict.fromkeys(q for path in args.questions for q in questions(path, 10_000)))
    warm, asked = every[:20], every[20 : 20 + args.requests]
    unseen = min(args.requests, len(asked))  # every request of `search` and `api/ask` a new question
    search_paths = [f"/search?q={quote(q)}" for q in asked]
    top_paths = [f"/search?q={quote(q)}" for q in warm]
    api_paths = [f"/api/ask?q={quote(q)}&limit=5" for q in asked]
    rule_paths = [f"/rules/{quote(n.id)}" for n in leaves]

    port = args.port or free_port()
    env = {**os.environ, "RULEKB_BUILD_DIR": str(build_dir), "RULEKB_BIND": f"{HOST}:{port}",
           "RULEKB_WORKERS": str(args.workers)}
    command = [str(ROOT / ".venv" / "bin" / "gunicorn"), "-c", "webapp/gunicorn_conf.py", "--access-logfile", "/dev/null",
               "--log-level", "warning", "rulekb.webapp:create_app()"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_ready(port)
        about = fetch(port, "/about")[2].decode()
        static = "/assets/" + about.split('href="/assets/', 1)[1].split('"', 1)[0]
        # warm every worker: index, features, termbase matchers, templates, the leaves' snippets
        warm_paths = [*top_paths, *(f"/api/ask?q={quote(q)}&limit=5" for q in warm), *rule_paths[:20]]
        for path in [*warm_paths, static] * args.workers:
            fetch(port, path, HEADERS)
        time.sleep(3)  # the background warm-up of each worker
        etag = fetch(port, top_paths[0], HEADERS)[1]["etag"]

        if not args.no_phone:
            sample = leaves[len(leaves) // 2]
            phone(port, [
                ("search+results", "/search?q=" + quote("на сколько дюймов чардж")),
                ("home", "/"),
                ("rule", f"/rules/{quote(sample.id)}"),
                ("concept", "/concepts/charge"),
                ("concepts", "/concepts"),
                ("terms", "/terms"),
                ("terms page 5", "/terms?page=5"),
                ("terms report", "/terms/report"),
                ("terms, all", "/terms?page=all"),
                ("calc", "/calc"),
            ], args.cpu_slowdown)
            offline_cost(port)
        if args.no_throughput:
            return

        print(
            f"gunicorn {args.workers} sync workers on {HOST}:{port}; {args.threads} client threads; "
            f"{args.requests} requests per route (time limit {args.time_limit:.0f} s); "
            f"{unseen} unseen questions ({len(rule_paths)} rule pages); cpu count {os.cpu_count()}; "
            f"Accept-Encoding: gzip; the routes interleaved in {args.rounds} rounds"
        )
        routes: list[tuple[str, list[str], int, dict[str, str] | None]] = [
            ("static", [static], args.requests, None),
            ("search", search_paths[:unseen], unseen, None),
            ("search-top", top_paths, args.requests, None),
            ("search-304", top_paths, args.requests, {"If-None-Match": etag}),
            ("api/ask", api_paths[:unseen], unseen, None),
            ("rule", rule_paths, args.requests, None),
        ]
        runs = {name: Run(name) for name, _, _, _ in routes}
        for round_ in range(args.rounds):  # interleaved, so every route sees the same drift in load
            for name, paths, total, headers in routes:
                share = total // args.rounds + (1 if round_ < total % args.rounds else 0)
                offset = sum(total // args.rounds + (1 if r < total % args.rounds else 0) for r in range(round_))
                chunk = [paths[(offset + i) % len(paths)] for i in range(share)]
                cpu_before = server_cpu(server.pid)
                part = load(name, port, chunk, share, args.threads, args.time_limit / args.rounds, headers)
                run = runs[name]
                run.server_cpu += server_cpu(server.pid) - cpu_before
                run.latencies.extend(part.latencies)
                run.errors += part.errors
                run.wall += part.wall
                for status, count in part.statuses.items():
                    run.statuses[status] = run.statuses.get(status, 0) + count
        for run in runs.values():
            print(run.line())
        ceiling = runs["static"].rps or 1.0
        for run in list(runs.values())[1:]:
            cpu = run.cpu_ms / (runs["static"].cpu_ms or 1.0)
            print(f"{run.name:<12} {run.rps / ceiling:6.1%} of the static route's throughput; "
                  f"{cpu:5.1f}x its server CPU per request")
        search_run = runs["search"]
        ms = [x * 1000 for x in search_run.latencies] or [0.0]
        print(f"search page: mean {statistics.fmean(ms):.1f} ms per request under load")
        peaks = ", ".join(f"{mb:.0f}" for mb in peak_memory(server.pid, server.pid))
        print(f"peak memory per worker (VmHWM): {peaks} MB")
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
