"""The fuzzy lookups, each for its own behaviour and used everywhere it fits:

* :func:`close_matches` / :func:`closest_values`: «did you mean» for node ids, concept names and
  titles, ranked by difflib's ratio over the whole string;
* :func:`edit_distance`: a typed phrase within one or two edits of an alias or English term
  (:meth:`rulekb.kb.text.matcher.Matcher.find_fuzzy`); :func:`typo_distance` and :func:`within_typos`
  count a swap of neighbouring letters as one edit (an English question's misspelt rule word); all
  three are rapidfuzz's, in C;
* :class:`SlangIndex` over :func:`deletions` (symmetric deletes): one word of slang spelt another
  way, inflected, or one edit off («бэтлшок», «рерольнуть»), the matcher's fallback for single
  words (:meth:`rulekb.kb.text.concepts.ConceptMatcher.fuzzy`); the speller's index of the texts'
  words uses :func:`deletions` too.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from rapidfuzz import process
from rapidfuzz.distance import OSA, Levenshtein

from rulekb.kb.text.analysis import fold

__all__ = ["FUZZY_MIN_LENGTH", "SlangIndex", "close_matches", "closest_values", "deletions", "edit_distance", "slang_key",
           "typo_distance", "within_typos"]

T = TypeVar("T")


def close_matches(word: str, names: Iterable[str], n: int, cutoff: float) -> list[str]:
    """At most ``n`` of ``names`` at least ``cutoff`` alike to ``word``, the closest first."""
    return difflib.get_close_matches(word, list(names), n=n, cutoff=cutoff)


def closest_values(query: str, names: Mapping[str, Sequence[T]], *, n: int, cutoff: float, pool: int) -> list[T]:
    """What the ``pool`` names closest to ``query`` stand for, each value once, at most ``n``."""
    out: list[T] = []
    for name in close_matches(query, names, pool, cutoff):
        for value in names[name]:
            if value not in out:
                out.append(value)
    return out[:n]


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Levenshtein distance, ``limit + 1`` once it exceeds ``limit`` (rapidfuzz's, in C)."""
    return int(Levenshtein.distance(a, b, score_cutoff=limit))


def typo_distance(a: str, b: str, limit: int = 1) -> int:
    """Edit distance counting a swap of neighbouring letters as one edit («modle» → «model»: optimal
    string alignment), ``limit + 1`` once it exceeds ``limit``."""
    return int(OSA.distance(a, b, score_cutoff=limit))


def within_typos(word: str, choices: Iterable[str], limit: int) -> list[str]:
    """The ``choices`` at most ``limit`` typing edits (:func:`typo_distance`) from ``word``, in their order."""
    found = process.extract(word, list(choices), scorer=OSA.distance, score_cutoff=limit, limit=None)
    return [choice for choice, _, _ in sorted(found, key=lambda item: item[2])]


def deletions(word: str) -> set[str]:
    """Every word one deletion away from ``word`` (the symmetric-delete index of slang and spelling)."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def slang_key(word: str) -> str:
    """A spelling-insensitive key for slang: ё/э→е, о→а (an unstressed «о» sounds «а»: «ковер» is
    «кавер»), no hyphens or spaces, no soft or hard signs, doubled letters single.

    «баттл-шок», «батлшок» give the same key; «бэтлшок» is one letter away.
    """
    text = fold(word).replace("э", "е").replace("о", "а").replace("ъ", "").replace("ь", "")
    text = re.sub(r"[\s\-'’]", "", text)
    return re.sub(r"(.)\1+", r"\1", text)


#: Words shorter than this are matched to slang exactly (one edit turns «ковер» into «ховер»).
FUZZY_MIN_LENGTH = 6
_RU_VERB_PREFIXES = ("пере", "за", "от", "вы", "по", "про", "на", "с", "раз", "у", "до")


class SlangIndex:
    """One-word names by :func:`slang_key`, with their symmetric deletes."""

    def __init__(self) -> None:
        self._keys: dict[str, set[str]] = {}
        self._deletes: dict[str, set[str]] = {}

    def add(self, word: str, value: str) -> None:
        key = slang_key(word)
        self._keys.setdefault(key, set()).add(value)
        for deleted in deletions(key):
            self._deletes.setdefault(deleted, set()).add(key)

    def lookup(self, word: str, *, edits: bool = True) -> set[str]:
        """What ``word`` names spelt another way, by its stem (inflected, derived, or behind a verb
        prefix), or (with ``edits``, for words of :data:`FUZZY_MIN_LENGTH` letters or more) within
        one edit: one letter added, dropped, changed or moved."""
        key = slang_key(word)
        if len(key) < 4:
            return set()
        found = set(self._keys.get(key, ()))
        if found:
            return found
        candidates = {key}
        for prefix in _RU_VERB_PREFIXES:
            if key.startswith(prefix) and len(key) - len(prefix) >= 4:
                candidates.add(key[len(prefix) :])
        for candidate in candidates:
            # the slang word inflected or derived: «рерольнуть» ← «реролл», «дипстрайкнуться» ← «дипстрайк»
            for cut in range(len(candidate), 3, -1):
                stem = candidate[:cut]
                if stem in self._keys and len(stem) >= max(4, len(candidate) - 6):
                    found |= self._keys[stem]
            if found:
                return found
        if edits and len(key) >= FUZZY_MIN_LENGTH:
            for deleted in {key} | deletions(key):
                for slang in self._deletes.get(deleted, set()) | ({deleted} & self._keys.keys()):
                    if abs(len(slang) - len(key)) <= 1:
                        found |= self._keys[slang]
        return found
