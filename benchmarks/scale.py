"""How cost grows with the corpus: the five texts repeated under new ids, through manifest entries only.

    .venv/bin/python benchmarks/scale.py [--sizes 1 3 10] [--questions 60]

For each size N a temporary corpus holds the five texts and a ``sources.toml`` listing every entry N
times (copies get the id ``<id>-x2`` …, the same file and parser settings): no code knows the new
ids, so a build that works proves a new book needs only a file and a manifest entry. Each size is
built in a fresh process (``RULEKB_CORPUS`` names the corpus) and the script prints the build's wall
and CPU time, its peak memory, the size of the build and of its Whoosh index, and ``ask`` latency
(p50/p99 over ``--questions`` development questions, asked in one warm process after one warm-up pass).
Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
BIN = Path(sys.executable).parent

_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": done.returncode, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                  "rss_mb": usage.ru_maxrss / 1024, "err": done.stderr[-400:]}))
"""

_ASK = """
import json, statistics, sys, time
from pathlib import Path
from rulekb.kb.ask.answer import ask as run_ask
build, questions = Path(sys.argv[1]), json.loads(sys.argv[2])
for q in questions:
    run_ask(q, build_dir=build)
times = []
for q in questions:
    t = time.perf_counter()
    run_ask(q, build_dir=build)
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print(json.dumps({"p50": statistics.median(times), "p99": times[min(len(times) - 1, int(len(times) * 0.99))]}))
"""


def make_corpus(target: Path, copies: int) -> int:
    """Write ``sources.toml`` with every entry ``copies`` times and the texts beside it; return the count."""
    text = (CORPUS / "sources.toml").read_text(encoding="utf-8")
    head, *entries = re.split(r"(?m)^\[\[source\]\]\n", text)
    out = [head]
    for k in range(1, copies + 1):
        for entry in entries:
            if k > 1:
                entry = re.sub(r'(?m)^id = "([^"]+)"', lambda m, k=k: f'id = "{m.group(1)}-x{k}"', entry, count=1)
            out.append("[[source]]\n" + entry)
    target.mkdir(parents=True)
    (target / "sources.toml").write_text("".join(out), encoding="utf-8")
    shutil.copytree(CORPUS / "sources", target / "sources")
    return copies * len(entries)


def size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 3, 10])
    parser.add_argument("--questions", type=int, default=60)
    args = parser.parse_args()
    rows = [json.loads(line) for line in (ROOT / "tests/data/dev.jsonl").read_text(encoding="utf-8").splitlines()]
    questions = [row["question"] for row in rows][: args.questions]
    print(f"{'size':>5} {'sources':>7} {'lines':>7} {'build s':>8} {'cpu s':>6} {'peak MB':>8} {'build MB':>9} "
          f"{'index MB':>9} {'ask p50 ms':>11} {'ask p99 ms':>11}")
    lines_once = sum(len(p.read_text(encoding="utf-8").split("\n")) for p in (CORPUS / "sources").glob("*.txt"))
    base: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="rulekb-scale-") as tmp:
        for copies in args.sizes:
            corpus = Path(tmp) / f"corpus-{copies}"
            count = make_corpus(corpus, copies)
            build = Path(tmp) / f"build-{copies}"
            env = {**os.environ, "RULEKB_CORPUS": str(corpus)}
            measured = json.loads(subprocess.run(
                [sys.executable, "-c", _MEASURE, str(BIN / "rulekb"), "build", "--quiet", "--build-dir", str(build)],
                capture_output=True, text=True, env=env, check=True).stdout)
            if measured["rc"] != 0:
                print(f"{copies:>5} build failed: {measured['err'].strip()}")
                continue
            served = build.resolve()
            latency = json.loads(subprocess.run([sys.executable, "-c", _ASK, str(served), json.dumps(questions)],
                                                capture_output=True, text=True, env=env, check=True).stdout)
            index = served / "index"
            print(f"{copies:>4}x {count:>7} {copies * lines_once:>7} {measured['wall']:>8.1f} {measured['cpu']:>6.1f} "
                  f"{measured['rss_mb']:>8.0f} {size_mb(served):>9.1f} {size_mb(index):>9.1f} "
                  f"{latency['p50']:>11.2f} {latency['p99']:>11.2f}")
            if not base:
                base = {"wall": measured["wall"] / copies, "p50": latency["p50"]}
            else:
                print(f"       build time per copy {measured['wall'] / copies / base['wall']:.2f}x the 1x figure; "
                      f"ask p50 {latency['p50'] / base['p50']:.2f}x")


if __name__ == "__main__":
    main()
