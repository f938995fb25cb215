"""Per-source parse figures for the README: nodes by kind, leaf lengths, parse issues, time.

    .venv/bin/python benchmarks/corpus_stats.py
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

from rulekb.corpus.parser import parse_corpus


def main() -> None:
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        corpus = parse_corpus()
        runs.append((time.perf_counter() - t0) * 1000)
    kinds = sorted({n.kind.value for n in corpus.nodes})
    print("| source | " + " | ".join(kinds) + " | leaf lines p50 / p90 / max | issues |")
    print("|---|" + "---|" * len(kinds) + "---|---|")
    for parsed in corpus.sources:
        count = Counter(n.kind.value for n in parsed.nodes)
        spans = sorted(n.lines[1] - n.lines[0] + 1 for n in parsed.nodes if n.is_leaf)
        p90 = spans[int(0.9 * (len(spans) - 1))]
        cells = " | ".join(str(count.get(k, 0)) for k in kinds)
        print(f"| {parsed.source.id} | {cells} | {statistics.median(spans):g} / {p90} / {spans[-1]} | {len(parsed.issues)} |")
    print(f"\nparse time for all five sources: median {statistics.median(runs):.0f} ms over {len(runs)} runs")


if __name__ == "__main__":
    main()
