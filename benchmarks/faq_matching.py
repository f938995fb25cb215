"""FAQ matching speed: time per question over every FAQ phrasing, once warm (prints figures only).

    .venv/bin/python benchmarks/faq_matching.py [--rounds 5]

The matcher runs on every ``ask``; its target is under 1 ms per question once the index is built and
words are cached. Median of ``--rounds`` passes over all questions and variants of the FAQ.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulekb.kb.faq.entries import load_faq, match_faq


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    entries = load_faq()
    questions = [v for entry in entries for v in (entry.question, *entry.variants)]
    for question in questions:
        match_faq(question, entries)
    passes = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        for question in questions:
            match_faq(question, entries)
        passes.append((time.perf_counter() - start) / len(questions))
    print(f"{len(entries)} entries, {len(questions)} phrasings: {statistics.median(passes) * 1000:.3f} ms per question "
          f"(median of {args.rounds} passes; target < 1 ms)")


if __name__ == "__main__":
    main()
