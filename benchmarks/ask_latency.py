"""How fast `ask` answers: hot in-process latency and the wall time of `rulekb ask --batch`.

Prints figures, asserts nothing. Uses the built knowledge base (``rulekb build`` first, or
``--build-dir``) and the questions of an evaluation file (default ``tests/data/eval.jsonl``).

    .venv/bin/python benchmarks/ask_latency.py [--build-dir build] [--questions FILE] [--rounds 3]

1. Hot in-process: the index is opened and every question asked once to warm the caches; then
   every question is asked ``--rounds`` times and each call is timed: p50, p90, p99, max.
2. Batch: ``rulekb ask --batch`` in a fresh process over 200 questions (the evaluation questions,
   repeated if there are fewer), wall time including start-up and index opening.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build")
    parser.add_argument("--questions", type=Path, default=ROOT / "tests" / "data" / "eval.jsonl")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=200)
    args = parser.parse_args()

    from rulekb.kb.ask.answer import ask
    from rulekb.kb.search.searcher import get_index

    rows = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = [str(row["question"]) for row in rows]

    started = time.perf_counter()
    get_index(args.build_dir)
    opened = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    for question in questions:
        ask(question, build_dir=args.build_dir)
    warm = (time.perf_counter() - started) * 1000

    timings: list[float] = []
    for _ in range(args.rounds):
        for question in questions:
            t0 = time.perf_counter()
            ask(question, build_dir=args.build_dir)
            timings.append((time.perf_counter() - t0) * 1000)
    print(f"questions: {len(questions)} from {args.questions.name}; rounds: {args.rounds}")
    print(f"open index: {opened:.0f} ms; first pass (cold caches): {warm:.0f} ms, {warm / len(questions):.1f} ms/question")
    print(
        "hot ask, ms: "
        f"p50 {percentile(timings, 0.5):.2f}  p90 {percentile(timings, 0.9):.2f}  "
        f"p99 {percentile(timings, 0.99):.2f}  max {max(timings):.2f}  mean {statistics.fmean(timings):.2f}"
    )

    batch_rows = [{"id": f"b{i}", "question": questions[i % len(questions)]} for i in range(args.batch_size)]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as handle:
        for row in batch_rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        batch_path = handle.name
    rulekb = Path(sys.executable).with_name("rulekb")
    command = [str(rulekb), "ask", "--batch", batch_path, "--build-dir", str(args.build_dir)]
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    Path(batch_path).unlink()
    answered = len([line for line in done.stdout.splitlines() if line.strip()])
    status = "ok" if done.returncode == 0 and answered == len(batch_rows) else f"exit {done.returncode}"
    print(f"rulekb ask --batch, {len(batch_rows)} questions: {wall:.2f} s wall ({status}, {answered} lines)")


if __name__ == "__main__":
    main()
