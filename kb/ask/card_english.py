"""The English side of a card: the measures a ruling states and an English lead line above the Russian text.

No machine translation of the books: an English card names the rule in the termbase's English terms and
writes the ruling's numbers in the rulebooks' notation (``9″``, ``2D6``, ``3+``), above the cited Russian
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rulekb.kb.ask.card_terms import english_name
from rulekb.kb.ask.labels import edition_label
from rulekb.kb.search.index import _concepts_in
from rulekb.kb.search.query import default_matcher

__all__ = ["MAX_ENGLISH_NAMES", "english_line", "measures", "number_lead", "ruling_concepts"]


_MEASURED = re.compile(
    r"(\d+(?:[.,]\d+)?(?:-?х)?\s*(?:\"|″|”|“|дюйм\w*)|\d*\s*[DdДд]\s*\d+(?:\s*[+\-]\s*\d+)?|\b\d\+|(?<![\w+\-])[+\-−]\d\b"
    r"|(?:добав\w*|прибав\w*|увелич\w*\s+на)\s+\d+|(?:вычт\w*|отним\w*|уменьш\w*\s+на|ухудш\w*\s+на)\s+\d+)",
    re.IGNORECASE,
)


def _inches(value: str) -> str:
    """``3 дюйма``, ``3х дюймов``, ``3"`` → ``3″``; «добавьте 1» → ``+1``; «вычтите 1» → ``-1``."""
    value = re.sub(r"^(?:добав\w*|прибав\w*|увелич\w*\s+на)\s+(\d+)$", r"+\1", value, flags=re.I)
    value = re.sub(r"^(?:вычт\w*|отним\w*|уменьш\w*\s+на|ухудш\w*\s+на)\s+(\d+)$", r"-\1", value, flags=re.I)
    return re.sub(r"^(\d+(?:[.,]\d+)?)(?:-?х)?\s*(?:\"|″|”|“|дюйм\w*)$", r"\1″", value)


#: Numbers the rulings write in words («три юнита», «шести кубиков»), as numerals.
_NUMBER_WORDS = {
    "два": "2", "две": "2", "двух": "2", "двум": "2", "три": "3", "трех": "3", "трём": "3", "трем": "3",
    "трёх": "3", "четыре": "4", "четырех": "4", "четырёх": "4", "пять": "5", "пяти": "5", "шесть": "6",
    "шести": "6", "семь": "7", "семи": "7", "восемь": "8", "восьми": "8", "девять": "9", "девяти": "9",
    "десять": "10", "десяти": "10", "двенадцать": "12", "двенадцати": "12",
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.I)


def measures(ruling: str) -> list[str]:
    """The measures a ruling states, then the numbers it writes in words, each once."""
    found = [_inches(m.group(0).strip()) for m in _MEASURED.finditer(ruling)]
    found += [_NUMBER_WORDS[m.group(1).lower()] for m in _NUMBER_WORD.finditer(ruling)]
    return list(dict.fromkeys(found))


def number_lead(ruling: str) -> str | None:
    """For a how-far / how-many question: the measures the ruling states (``9″``, ``2D6``, ``3+``, ``+1``)."""
    found = measures(ruling)
    if not found:
        return None
    return ", ".join(found[:2])


def english_line(build_dir: Path, edition: str, concepts: Sequence[str], ruling: str, lead: str | None) -> str:
    names = [n for n in (english_name(build_dir, c) for c in concepts[:3]) if n]
    # the terms the ruling itself uses, in the termbase's English names («Snap Shots», «Desperate Escape»)
    for concept in ruling_concepts(ruling):
        name = english_name(build_dir, concept)
        if name and name not in names and len(names) < MAX_ENGLISH_NAMES:
            names.append(name)
    numbers = measures(ruling)[:4]
    line = edition_label(edition, "en")
    if names:
        line += " — " + ", ".join(names)
    if numbers:
        line += ": " + ", ".join(numbers)
    line += "."
    if lead:
        line = f"{lead} {line}"
    return line + " The ruling, as the Russian text prints it:"


#: At most this many English term names on an English card's lead line.
MAX_ENGLISH_NAMES = 6


def ruling_concepts(ruling: str) -> list[str]:
    """The termbase concepts a ruling's Russian words name, in text order."""
    return _concepts_in(default_matcher(), ruling)


