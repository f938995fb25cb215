"""Share of rule leaves demonstrated by a passing worked example, per source and per kind of fact.

Reads the built artefacts (run ``rulekb build`` first): ``build/nodes.json`` for the leaves (nodes of the
kinds rule, summary, step and example with no children — a numbered step with sub-headings is not a leaf) and ``build/examples.json`` for the examples, their ``ok`` and the leaves their
citations resolve to (``rule_ids``). A leaf counts when at least one passing example cites it.

Kinds of fact are read from each leaf's clean text by vocabulary (a leaf may state several):
dice (rolls, re-rolls, saves), distance/position (inches, within, bases, terrain, moving, visibility),
sequence (phases, steps, turns, order) and resources (command points, stratagems, points, VP, reserves).

    .venv/bin/python benchmarks/examples_coverage.py [--build-dir build] [--uncovered SOURCE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

LEAF_KINDS = ("rule", "summary", "step", "example")
FACTS: dict[str, re.Pattern[str]] = {
    "dice": re.compile(r"\bD[36]\b|\d\s*D\s*[36]|кубик|брос|переброс|спас|ранени|попадани|\d\+", re.I),
    "distance/position": re.compile(r"дюйм|[\"″”]|в пределах|расстояни|дальност|подстав|основани|видим|ландшафт"
                                    r"|рельеф|поле боя|перемещ|передвиг|движени|контакт|зон[аеуы] поражения|lin", re.I),
    "sequence": re.compile(r"фаз|шаг|этап|\bход|раунд|порядк|сначала|затем|после того|по очереди|последовательн"
                           r"|инициатив|начал[ое]", re.I),
    "resources": re.compile(r"\bCP\b|очк|командн|стратеги|стратагем|\bVP\b|победн|резерв|стоимост|лимит|вместимост",
                            re.I),
}


def load(build: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    try:
        nodes = json.loads((build / "nodes.json").read_text(encoding="utf-8"))
        examples = json.loads((build / "examples.json").read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        sys.exit(f"examples_coverage: {exc.filename} is missing; run `rulekb build` first.")
    return nodes, examples


def facts_of(text: str) -> list[str]:
    return [name for name, pattern in FACTS.items() if pattern.search(text)] or ["other"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build", type=Path)
    parser.add_argument("--uncovered", metavar="SOURCE", help="list the leaves of SOURCE no passing example cites")
    args = parser.parse_args(argv)
    nodes, examples = load(args.build_dir)
    parents = {n.get("parent_id") for n in nodes}
    leaves = [n for n in nodes if n["kind"] in LEAF_KINDS and n["id"] not in parents]
    cited = {rid for e in examples if e.get("ok") for rid in e.get("rule_ids", ())}
    passing = sum(1 for e in examples if e.get("ok"))
    print(f"{passing} of {len(examples)} examples pass; "
          f"{sum(1 for e in examples if e.get('svg'))} are drawn from positions, "
          f"{sum(1 for e in examples if e.get('figure'))} restore a lost diagram.")
    total, covered = Counter(), Counter()
    fact_total, fact_covered = Counter(), Counter()
    for leaf in leaves:
        hit = leaf["id"] in cited
        total[leaf["source_id"]] += 1
        covered[leaf["source_id"]] += hit
        for fact in facts_of(leaf.get("text_clean") or leaf.get("text") or ""):
            fact_total[fact] += 1
            fact_covered[fact] += hit
    print()
    print("| source | leaves | demonstrated | share |")
    print("|---|---:|---:|---:|")
    for source in total:
        print(f"| {source} | {total[source]} | {covered[source]} | {covered[source] / total[source]:.0%} |")
    all_t, all_c = sum(total.values()), sum(covered.values())
    print(f"| all | {all_t} | {all_c} | {all_c / all_t:.0%} |")
    print()
    print("| kind of fact | leaves | demonstrated | share |")
    print("|---|---:|---:|---:|")
    for fact in [*FACTS, "other"]:
        if fact_total[fact]:
            print(f"| {fact} | {fact_total[fact]} | {fact_covered[fact]} | {fact_covered[fact] / fact_total[fact]:.0%} |")
    if args.uncovered:
        print()
        for leaf in leaves:
            if leaf["source_id"] == args.uncovered and leaf["id"] not in cited:
                text = " ".join((leaf.get("text_clean") or "").split())[:100]
                print(f"{leaf['lines'][0]}-{leaf['lines'][1]} {leaf['kind']}: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
