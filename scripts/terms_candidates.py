"""List the strings the five texts mark as terms that no termbase concept covers, for a person to
review and add to ``kb/data/terms.toml`` from the texts' own evidence.

    .venv/bin/python scripts/terms_candidates.py [--source 7e-pp58-67]

A text marks a term by how it prints it: a quoted name («безумный героизм»), a phrase in
capitals inside a sentence (СДЕЛАТЬ РУЛОН ЗАРЯДА), a short line standing alone as a heading, a
capitalised phrase of two or three words after the sentence's first word («проверку Отчаянный
побег»), a Russian phrase glossed by English in parentheses («… (Insane Heroism)»). A candidate is
covered when a concept's rendering, alias or English name matches (by lemma, any inflection) every
content word of it (a glossed phrase: when any of its last one to four words is, as the words before
the term are the sentence's); the rest are printed by source as first printed, with their count and
first line, in the texts' order. Evaluation questions play no part: the list is the texts' alone.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulekb.kb.search.concepts import default_matcher
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.vocabulary import LIGHT_WORDS

SOURCES = Path(__file__).resolve().parent.parent / "corpus" / "sources"
ORDER = ("10e-core", "6e-rules", "6e-assault", "7e-pp58-67", "kt")

_QUOTED = re.compile(r"«([^«»\n]{3,60})»")
_CAPS = re.compile(r"(?<![А-ЯЁA-Z])([А-ЯЁ]{2,}(?:[\s-]+[А-ЯЁ]{2,}){0,5})(?![а-яёА-ЯЁ])")
_CAPITALISED = re.compile(r"(?<=[а-яё,:]\s)([А-ЯЁ][а-яё]+(?:\s+[а-яё]{3,}){1,2})")
_GLOSSED = re.compile(r"([А-ЯЁа-яё][А-ЯЁа-яё\s-]{2,50}?)\s*\(\s*([A-Za-z][A-Za-z' -]{2,40})\)")
#: A heading: a short line of words, no sentence punctuation at its end.
_HEADING = re.compile(r"^[А-ЯЁ][А-ЯЁа-яё\s,-]{2,50}[А-ЯЁа-яё!]$")


def candidates(text: str) -> Iterator[tuple[int, str, str]]:
    """``(line, how marked, string)`` for every string the text marks as a term."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if _HEADING.match(stripped) and len(stripped.split()) <= 6:
            yield number, "heading", stripped.rstrip("!")
        for match in _QUOTED.finditer(line):
            if len(match.group(1).split()) <= 5:
                yield number, "quoted", match.group(1).strip(" .,")
        if not stripped.isupper():
            for match in _CAPS.finditer(line):
                if len(match.group(1).replace(" ", "")) >= 4:
                    yield number, "caps", match.group(1)
        for match in _CAPITALISED.finditer(line):
            yield number, "capitalised", match.group(1)
        for match in _GLOSSED.finditer(line):
            words = match.group(1).split()[-4:]
            yield number, f"glossed ({match.group(2).strip()})", " ".join(words)


def covered(string: str) -> bool:
    """Does a concept's name match every content word of ``string``?"""
    terms = list(tokens(string))
    content = {t.position for t in terms if t.text not in LIGHT_WORDS and t.text.isalpha() and len(t.text) > 2}
    if not content:
        return True
    spans = default_matcher().match_terms(terms, query=False, raw=string)
    spans += default_matcher().match_terms(terms, query=True, raw=string)
    inside = {terms[i].position for m in spans for i in range(m.start, m.end)}
    return content <= inside


def candidate_covered(how: str, string: str) -> bool:
    """Is the candidate covered: a glossed one when any of its last one to four words are a term."""
    if not how.startswith("glossed"):
        return covered(string)
    words = string.split()
    return any(covered(" ".join(words[-n:])) for n in range(1, min(4, len(words)) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", choices=ORDER)
    args = parser.parse_args()
    total = 0
    for source in ORDER:
        if args.source and source != args.source:
            continue
        found: dict[str, tuple[int, str, int, str]] = {}  # key → (first line, how, count, as first printed)
        for line, how, string in candidates((SOURCES / f"{source}.txt").read_text(encoding="utf-8")):
            key = string.lower()
            if key in found:
                first, marked, count, printed = found[key]
                found[key] = (first, marked, count + 1, printed)
            elif not candidate_covered(how, string):
                found[key] = (line, how, 1, string)
        print(f"## {source}: {len(found)} candidates")
        for line, how, count, printed in sorted(found.values()):
            print(f"{line:5d}  {count:2d}×  {how:24s} {printed}")
        total += len(found)
    print(f"total candidates: {total}")


if __name__ == "__main__":
    main()
