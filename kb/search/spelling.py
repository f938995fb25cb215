"""Spelling: an unknown word of a question corrected to a word of the texts (:class:`Speller`)."""

from __future__ import annotations

import re

from rulekb.corpus.morph import is_known
from rulekb.kb.text.analysis import fold, lemma
from rulekb.kb.text.fuzzy import deletions

__all__ = ["Speller"]


class Speller:
    """Corrects an unknown word to a word of the texts one edit away (symmetric deletes)."""

    def __init__(self, words: dict[str, int], lemmas: frozenset[str] | None = None) -> None:
        """``words``: folded surface forms of the texts → frequency; ``lemmas``: the texts' lemmas (a
        dictionary word one edit away whose lemma the texts print corrects a form they do not print)."""
        self.words = words
        self.lemmas = lemmas
        self._dictionary: dict[str, str | None] = {}
        self._deletes: dict[str, list[str]] | None = None

    def _index(self) -> dict[str, list[str]]:
        if self._deletes is None:
            index: dict[str, list[str]] = {}
            for word in self.words:
                if len(word) >= 4:
                    for deleted in deletions(word):
                        index.setdefault(deleted, []).append(word)
            self._deletes = index
        return self._deletes

    def correct(self, word: str) -> str | None:
        folded = fold(word)
        if len(folded) < 5 or folded in self.words:
            return None
        index = self._index()
        candidates: set[str] = set(index.get(folded, ()))
        for deleted in deletions(folded):
            if deleted in self.words:
                candidates.add(deleted)
            candidates.update(index.get(deleted, ()))
        candidates = {c for c in candidates if abs(len(c) - len(folded)) <= 1 and c[0] == folded[0]}
        if not candidates:
            return self._dictionary_form(folded)
        return max(sorted(candidates), key=lambda c: self.words[c])

    def _dictionary_form(self, folded: str) -> str | None:
        """A dictionary word one edit from ``folded`` whose lemma the texts print: «замедляеться» →
        «замедляется» when the texts print only «замедляет», «замедляются»."""
        if self.lemmas is None or not _CYRILLIC_WORD.fullmatch(folded):
            return None
        if folded not in self._dictionary:  # about a millisecond a word: players repeat their slang
            found = sorted(c for c in _edits(folded) if c[0] == folded[0] and is_known(c) and lemma(c) in self.lemmas)
            if len(self._dictionary) >= 20_000:
                self._dictionary.clear()  # bounded in a long-running server
            self._dictionary[folded] = found[0] if found else None
        return self._dictionary[folded]


_CYRILLIC_WORD = re.compile(r"[а-я]+")
_ALPHABET = "абвгдежзийклмнопрстуфхцчшщъыьэюя"


def _edits(word: str) -> set[str]:
    """Every word one deletion, transposition, replacement or insertion away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    found = {a + b[1:] for a, b in splits if b}
    found |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    found |= {a + c + b[1:] for a, b in splits if b for c in _ALPHABET}
    found |= {a + c + b for a, b in splits for c in _ALPHABET}
    found.discard(word)
    return found
