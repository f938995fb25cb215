"""Print a random sample of termbase concepts with every line they are counted on, for a person
to read against the texts.

    .venv/bin/python scripts/terms_sample.py [--n 30] [--seed 15] [--width 70] [--all-lines]

For each concept: its renderings per source with status and count; under each rendering, every
line it counts on (source:line, the words around it, and — for a string several concepts
share — the sense it was given and why); then the lines where the same string, read as a
plain phrase, stands but counts for another concept or for none (a longer rendering took it),
so a reader sees both what is counted and what is left out. The reader checks: does each
listed line hold the rendering in that sense? Is the count the number of such lines? Is the
status right for that book? The last reading's result is kept in docs/terms.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulekb.kb.termbase import default_index, default_termbase
from rulekb.kb.termbase.occurrences import block_span, blocks, source_text
from rulekb.kb.text.matcher import Matcher, Pattern


def _context(source_id: str, start: int, end: int, width: int) -> str:
    text = source_text(source_id)
    left = " ".join(text[max(0, start - width) : start].split())[-width:]
    right = " ".join(text[end : end + width].split())[:width]
    return f"{left} [{' '.join(text[start:end].split())}] {right}"


def _phrase_spans(phrase: str, source_id: str) -> list[tuple[int, int]]:
    """Where ``phrase`` stands in a source as a plain phrase (any inflection; a phrase in
    capitals only in capitals), block by block like the counts."""
    matcher = Matcher([Pattern("", phrase, "phrase")])
    text = source_text(source_id)
    spans = []
    for block in blocks(source_id):
        begin, stop = block_span(source_id, block)
        spans += [(begin + m.start, begin + m.end) for m in matcher.find(text[begin:stop])]
    return spans


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=30, help="how many concepts (default 30)")
    parser.add_argument("--seed", type=int, default=15, help="random seed (default 15)")
    parser.add_argument("--width", type=int, default=70, help="characters of context each side")
    parser.add_argument("--all-lines", action="store_true", help="print every line (default: at most 12 per rendering)")
    args = parser.parse_args()

    termbase = default_termbase()
    index = default_index()
    used = [c for c in termbase if c.rendering]
    sample = random.Random(args.seed).sample(used, min(args.n, len(used)))
    print(f"# {len(sample)} of {len(used)} concepts with renderings, seed {args.seed}\n")
    totals: Counter[str] = Counter()
    by_source = {source: index.occurrences(source) for source in index.sources}
    for concept in sample:
        print(f"## {concept.id} — {concept.english} [{concept.category.value}]")
        print(f"   {concept.definition}")
        for r in concept.rendering:
            occurrences = [o for o in index.occurrences(r.source, concept.id) if o.rendering == r.text]
            totals["renderings"] += 1
            totals["lines"] += len(occurrences)
            print(f"   {r.source:<11} {r.status.value:<14} {len(occurrences):>4}×  «{r.text}»" + (f"  — {r.note}" if r.note else ""))
            shown = occurrences if args.all_lines else occurrences[:12]
            for o in shown:
                sense = f"  ⟨{o.evidence}⟩" if o.evidence else ""
                print(f"      {o.source_id}:{o.line:<5} {_context(o.source_id, o.start, o.end, args.width)}{sense}")
            if len(shown) < len(occurrences):
                print(f"      … {len(occurrences) - len(shown)} more (--all-lines)")
            counted = {(o.start, o.end) for o in occurrences}
            left_out = []
            if r.heading:
                print("      (counts only as a heading: the word in a sentence is ordinary Russian)")
            for a, b in [] if r.heading else _phrase_spans(r.text, r.source):
                if (a, b) in counted:
                    continue
                taken = [o for o in by_source[r.source] if o.start < b and a < o.end]
                who = ", ".join(f"{o.concept_id} «{o.rendering}»" for o in taken) or "none"
                left_out.append((a, b, who))
            for a, b, who in left_out[:6]:
                line = source_text(r.source).count("\n", 0, a) + 1
                print(f"      not counted {r.source}:{line:<5} {_context(r.source, a, b, args.width)}  → {who}")
            if len(left_out) > 6:
                print(f"      … {len(left_out) - 6} more places where the phrase stands but counts elsewhere")
        print()
    print(f"# {totals['renderings']} renderings, {totals['lines']} counted occurrences in the sample")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
