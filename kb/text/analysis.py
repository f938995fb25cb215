"""The Russian analyzer shared by the termbase, the linker and the search index.

Text becomes a list of *terms*: lemmas of Russian words (pymorphy3, cached), lower-cased
Latin words with a light English stemmer, and game notation kept whole — dice (``2d6``, ``d3``,
``d6+1``), thresholds (``3+``), distances (``6"``) and signed modifiers (``-1``). ``ё`` folds to
``е``. There is no stop list: «не», «нельзя», «только» decide rulings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from rulekb.corpus.morph import morph
from rulekb.corpus.words import WORD

__all__ = ["EN_IRREGULAR", "EN_SUFFIXES", "Term", "fold", "lemma", "lemma_key", "lemmas", "stem_en", "tokens"]

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212"
_INCH = "\"\u201d\u2033\u201c"

TOKEN_RE = re.compile(
    rf"""
    (?P<dice>(?<![^\W\d_])\d*[DdДд]\d+(?:\s?[+\-]\s?\d+(?!\d*[DdДд]))?(?![^\W_]))
  | (?P<num>(?<![\d.,])[+\-{_DASHES}]?\d+(?:[.,]\d+)?(?:\+|[{_INCH}]|''|(?=\s?дюйм))?)
  | (?P<word>{WORD})
    """,
    re.VERBOSE,
)

_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Term:
    """One analysed token: its term, the raw text it came from and where."""

    text: str
    original: str
    start: int
    end: int
    position: int


def fold(text: str) -> str:
    """Lower-case and fold ё→е, the normal form for comparing Russian text."""
    return text.lower().replace("ё", "е")


#: Irregular English verb forms players use about the rules, read as the verb («fell back» is
#: «fall back», «fought» is «fight»).
EN_IRREGULAR = {
    "fell": "fall", "fallen": "fall", "fought": "fight", "ran": "run",
    "took": "take", "taken": "take", "got": "get", "gotten": "get", "made": "make", "lost": "lose",
    "won": "win", "led": "lead", "drew": "draw", "drawn": "draw", "threw": "throw", "thrown": "throw",
    "saw": "see", "seen": "see", "went": "go", "gone": "go", "came": "come",
    "kept": "keep", "held": "hold", "stood": "stand", "chose": "choose", "chosen": "choose",
    "gave": "give", "given": "give", "broke": "break", "broken": "break", "slain": "slay",
    "struck": "strike", "dealt": "deal", "sent": "send", "brought": "bring", "began": "begin",
    "begun": "begin", "fled": "flee", "dove": "dive", "rode": "ride", "ridden": "ride",
    "flew": "fly", "flown": "fly", "hid": "hide", "hidden": "hide", "stuck": "stick",
}


#: Suffixes the English stemmer cuts, each with the shortest stem it leaves (the offline index ships
#: these, with :data:`EN_IRREGULAR`, so the browser stems the same way).
EN_SUFFIXES: tuple[tuple[str, int], ...] = (("ing", 4), ("ies", 4), ("es", 4), ("ed", 4), ("s", 3))


def stem_en(word: str) -> str:
    """A deliberately small English stemmer: enough for «charges»/«charging» to meet «charge»,
    and «fell» to meet «fall»."""
    word = EN_IRREGULAR.get(word, word)
    for suffix, keep in EN_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= keep and not word.endswith("ss"):
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    if word.endswith("e") and len(word) >= 5:
        word = word[:-1]
    return word


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """The lemma of one word: pymorphy3's best normal form for Russian, a stem for Latin."""
    folded = fold(word)
    if not _CYRILLIC.search(folded):
        return stem_en(folded)
    parses = morph().parse(folded)
    if not parses:
        return folded
    return fold(parses[0].normal_form)


def _normalise_number(raw: str) -> str:
    text = raw.replace(" ", "")
    for dash in _DASHES:
        text = text.replace(dash, "-")
    for inch in _INCH:
        text = text.replace(inch, '"')
    return text.replace("''", '"').replace(",", ".")


def tokens(text: str) -> Iterator[Term]:
    """Yield the analysed terms of ``text`` with their character offsets and positions."""
    for position, match in enumerate(TOKEN_RE.finditer(text)):
        raw = match.group(0)
        kind = match.lastgroup
        if kind == "dice":
            term = fold(raw.replace(" ", "")).replace("д", "d")
        elif kind == "num":
            term = _normalise_number(raw)
        else:
            term = lemma(raw)
        yield Term(term, raw, match.start(), match.end(), position)


#: texts whose terms are kept per process: a question's words, and the FAQ entries, ruling
#: sentences and rule names every question compares them with (each a few hundred bytes)
LEMMAS_CACHE_SIZE = 16_384


@lru_cache(maxsize=LEMMAS_CACHE_SIZE)
def _lemma_tuple(text: str) -> tuple[str, ...]:
    return tuple(t.text for t in tokens(text))


def lemmas(text: str) -> list[str]:
    """The terms of ``text`` in order (see :func:`tokens`); a new list each call, from a bounded
    per-process cache (the same FAQ entries and ruling sentences are read for many questions)."""
    return list(_lemma_tuple(text))


def lemma_key(text: str) -> tuple[str, ...]:
    """A hashable key that is equal for every inflection of the same phrase."""
    return _lemma_tuple(text)
