"""Why answer cards fail: shares over several evaluation sets, and counts of failure categories.

Prints figures, asserts nothing. Uses the built knowledge base (``rulekb build`` first).

    .venv/bin/python benchmarks/card_failures.py [--rows] SET [SET ...]

``SET`` names a file ``tests/data/SET.jsonl``; ``dev`` sets: ``devsets`` stands for all eleven development sets.
Each set's share of cards carrying the answer and its FAQ precision are printed, then pooled by kind
and language, then the failing cards counted by category: the verdict a yes/no card leads with
(none, wrong, right), a ruling keyword missing, the card's source, whether it cites a gold range,
the gold passage's rank in the hits, whether that passage holds the keywords, wrong-edition cards.
Counts name no question, so a validation split can be measured without being read. ``--rows``
prints each failing card (development sets only: a validation or held-out set is never read).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulekb.corpus.reader import load_manifest  # noqa: E402
from rulekb.kb.ask.answer import ask  # noqa: E402
from rulekb.kb.evaluation.answers import (  # noqa: E402
    VERDICTS,
    AnswerRow,
    card_editions,
    carries,
    fold_answer,
    load_answer_rows,
    overlaps,
    verdict_leads,
)

DEVELOPMENT = ("ha", "hb", "hc", "hd", "he", "hf", "hg", "hh", "hk", "eval", "dev")
#: Sets never read row by row: the validation split and the held-out batches (tests/data/EVAL.md).
UNREAD = frozenset({"hi", "hj", "hl"})


class Sources:
    """The source texts' lines, read once."""

    def __init__(self) -> None:
        self.paths = {s.id: ROOT / "corpus" / "sources" / s.file for s in load_manifest()}
        self.lines: dict[str, list[str]] = {}

    def passage(self, source: str, lines: Sequence[int]) -> str:
        if source not in self.lines:
            self.lines[source] = self.paths[source].read_text(encoding="utf-8").split("\n")
        return " ".join(self.lines[source][lines[0] - 1:lines[1]])


def categories(row: AnswerRow, result: dict[str, Any], sources: Sources) -> list[str]:
    """The failure categories of ``row``'s card."""
    card = result["card"]
    found: list[str] = []
    verdict = [k for k in row.keywords if fold_answer(k) in VERDICTS]
    rest = [k for k in row.keywords if fold_answer(k) not in VERDICTS]
    if verdict:
        leads = verdict_leads(card["text"])
        found.append("verdict:" + ("none" if not leads else "right" if fold_answer(verdict[0]) in leads else "wrong"))
    text = fold_answer(card["text"])
    if any(fold_answer(k) not in text for k in rest):
        found.append("keyword-missing")
    found.append(f"source:{card.get('source')}")
    if card.get("kind") != "ruling":
        found.append(f"card:{card.get('kind')}")
    if row.gold:
        found.append("cites-gold" if overlaps(card.get("citations") or [], row.gold) else "cites-other")
        rank = next((i for i, h in enumerate(result["hits"][:10], 1) if overlaps([h], row.gold)), None)
        found.append("gold@" + ("1" if rank == 1 else "2-3" if rank and rank <= 3 else "4-10" if rank else ">10"))
        if rank:
            hit = result["hits"][rank - 1]
            body = fold_answer(sources.passage(hit["source_id"], hit["lines"]))
            found.append("gold-passage-" + ("holds" if all(fold_answer(k) in body for k in rest) else "lacks")
                         + "-keywords")
    editions = card_editions(card)
    if row.editions and editions and not editions & row.editions:
        found.append("WRONG-EDITION")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", help="set names (tests/data/SET.jsonl); devsets = the development sets")
    parser.add_argument("--rows", action="store_true", help="print each failing card (development sets only)")
    args = parser.parse_args(argv)
    names = [n for s in args.sets for n in (DEVELOPMENT if s == "devsets" else (s,))]
    if args.rows and UNREAD & set(names):
        parser.error(f"--rows reads rows: {sorted(UNREAD & set(names))} are never read (counts only)")
    sources = Sources()
    total: Counter[str] = Counter()
    carried: Counter[str] = Counter()
    failing: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for name in names:
        path = ROOT / "tests" / "data" / f"{name}.jsonl"
        if not path.exists():
            parser.error(f"no set {str(path)!r}: name a file of tests/data without .jsonl")
        rows = load_answer_rows(path)
        ok = 0
        for row in rows:
            result = ask(row.question)
            good = carries(result["card"]["text"], row.keywords)
            ok += good
            for key in (row.kind, f"lang={row.lang}", "all"):
                total[key] += 1
                carried[key] += good
            if good:
                continue
            found = categories(row, result, sources)
            failing.update(found)
            by_kind[row.kind].update([*found, "failing"])
            if args.rows:
                print(row.id, row.kind, row.lang, "|", row.question, "|", list(row.keywords), "|", " ".join(found))
                print("    card:", result["card"]["text"][:300].replace("\n", " / "))
        print(f"{name:6} {len(rows):4} {ok / max(len(rows), 1):.3f}")
    print("pooled:", " ".join(f"{k} {carried[k] / total[k]:.3f} ({total[k]})" for k in sorted(total)))
    print("failing:", " ".join(f"{k}={v}" for k, v in sorted(failing.items())))
    for kind, counts in sorted(by_kind.items()):
        print(f"  {kind:12}", " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
