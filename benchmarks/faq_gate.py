"""Does the card's FAQ gate hold on questions its entries were not written for?

Prints figures, asserts nothing. Uses the built knowledge base (``rulekb build`` first, or
``--build-dir``) and the FAQ's own phrasings, never an evaluation set:

    .venv/bin/python benchmarks/faq_gate.py [--build-dir build] [--sample 80] [--seed 11] [--only loo|lopo]
        [--without-screening]

1. **Leave one entry out** (``loo``): each entry is removed from the FAQ in turn and each of its
   phrasings (question and variants) is asked. The entry that answers it is gone, so an entry leading
   the card is a neighbour; it counts as right only when it cites the same leaf or overlapping lines
   in the same edition (it then rules on the same passage). Precision = right / leads; the fewer
   leads, the better the gate knows when no entry answers.
2. **Leave one phrasing out** (``lopo``, paraphrase robustness): for ``--sample`` entries, each
   phrasing in turn is taken out of its entry and asked — a question the entry was not written with,
   as a player's new question is. Precision as above; ``own`` counts the cards the entry itself leads.

``another edition's`` counts the wrong leads by an entry of another edition than the phrasing's: a
phrasing that names no edition («сближение в конце боя») gets the player's edition first (else the
10th), whose entry then leads that edition's part — the edition choice, not the gate.

The search index still holds every phrasing (``questions`` field) unless the build was made
without them; a build without (``--build-dir`` of a build whose ``faq_questions`` was empty) is the
stricter measure: retrieval then knows none of the words the phrasings share with the question.
``--without-screening`` measures the gate as it was before :func:`rulekb.kb.ask.faq_pick.screen_matches`
(every match goes to the card's gate).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build")
    parser.add_argument("--sample", type=int, default=80, help="entries whose phrasings are left out in turn")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--only", choices=("loo", "lopo"))
    parser.add_argument("--without-screening", action="store_true", help="the gate before screening, for comparison")
    args = parser.parse_args()

    if args.without_screening:
        import rulekb.kb.ask.card as card_module

        def unscreened(index: Any, question: str, form: str, hits: Any, matches: Any) -> tuple[list[Any], list[Any]]:
            return list(matches), []

        setattr(card_module, "screen_matches", unscreened)  # noqa: B010 — the module's own name, replaced

    from rulekb.kb.ask.answer import ask
    from rulekb.kb.search.searcher import get_index

    index = get_index(args.build_dir)
    full = index.faq
    by_citations = {tuple((c.source, tuple(c.lines)) for c in e.citations): e for e in full}

    def led(card: dict[str, Any]) -> Any:
        cited = [(c["source_id"], tuple(c["lines"])) for c in card["citations"]]
        for size in range(len(cited), 0, -1):
            entry = by_citations.get(tuple(cited[:size]))
            if entry is not None:
                return entry
        return None

    def right(entry: Any, target: Any) -> bool:
        if entry is None or entry.edition != target.edition:
            return False
        overlap = any(a.source == b.source and a.lines[0] <= b.lines[1] and b.lines[0] <= a.lines[1]
                      for a in entry.citations for b in target.citations)
        same_leaf = set(index.faq_leaves.get(entry.id, [])) & set(index.faq_leaves.get(target.id, []))
        return entry.id == target.id or overlap or bool(same_leaf)

    modes = [args.only] if args.only else ["loo", "lopo"]
    try:
        for mode in modes:
            started = time.perf_counter()
            entries = list(full) if mode == "loo" else random.Random(args.seed).sample(list(full), min(args.sample, len(full)))
            asked = leads = correct = own = other_edition = 0
            for target in entries:
                phrasings = [target.question, *target.variants]
                if mode == "loo":
                    index.faq = tuple(e for e in full if e.id != target.id)
                for position, question in enumerate(phrasings):
                    if mode == "lopo":
                        rest = [p for i, p in enumerate(phrasings) if i != position]
                        changed = target.model_copy(update={"question": rest[0], "variants": tuple(rest[1:])})
                        index.faq = tuple(changed if e.id == target.id else e for e in full)
                    asked += 1
                    card = ask(question, build_dir=args.build_dir)["card"]
                    if card["source"] != "faq":
                        continue
                    leads += 1
                    entry = led(card)
                    correct += right(entry, target)
                    own += entry is not None and entry.id == target.id
                    other_edition += entry is not None and entry.edition != target.edition
            precision = correct / leads if leads else float("nan")
            label = "leave one entry out" if mode == "loo" else f"leave one phrasing out ({len(entries)} entries)"
            print(f"{label:<44} questions {asked:5d}  FAQ leads {leads:4d}  right {correct:4d}  "
                  f"precision {precision:.3f}  own entry {own:4d}  another edition's {other_edition:3d}  "
                  f"({time.perf_counter() - started:.0f} s)")
    finally:
        index.faq = full


if __name__ == "__main__":
    main()
