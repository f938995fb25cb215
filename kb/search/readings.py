"""The other readings of a word form and a verb's other aspect, for query expansion.

The index holds each word form under its first reading (:func:`readings`); :func:`reading_links`
tells which lemmas share forms, :func:`aspect_partners` which verbs share an aspect stem.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rulekb.corpus.morph import morph
from rulekb.kb.text.analysis import fold, lemma

__all__ = [
    "READING_MIN_SCORE", "aspect_key", "aspect_partners", "built_readings", "other_readings", "reading_links", "readings",
    "use_built_readings",
]

#: A reading of a word form at least this likely (pymorphy3's score) counts as a variant.
READING_MIN_SCORE = 0.1


#: The readings of every word form of the texts, by folded form, as the build computed them
#: (``features.json``): a question's word the texts print costs no pymorphy3 analysis here.
_BUILT: dict[str, tuple[str, ...]] = {}


def use_built_readings(table: Mapping[str, Sequence[str]]) -> None:
    """Look word forms up in ``table`` (:func:`built_readings` of the build being served) before
    analysing them; replaces the table of a build opened before."""
    global _BUILT
    _BUILT = {form: tuple(found) for form, found in table.items()}


def built_readings(surface: Iterable[str]) -> dict[str, list[str]]:
    """Folded word form → :func:`readings`, for the texts' word forms (written at build time)."""
    return {form: list(readings(form)) for form in sorted(surface)}


def readings(word: str) -> tuple[str, ...]:
    """Every likely normal form of a Russian word form, the first (the lemma) first."""
    known = _BUILT.get(fold(word))
    # the readings depend on the folded form alone; the lemma is checked, being cached already
    if known is not None and known[0] == lemma(word):
        return known
    return _readings(word)


@lru_cache(maxsize=20_000)
def _readings(word: str) -> tuple[str, ...]:
    folded = fold(word)
    if not re.search(r"[а-я]", folded):
        return (lemma(word),)
    forms = [lemma(word)]
    for parse in morph().parse(folded):
        form = fold(parse.normal_form)
        if parse.score >= READING_MIN_SCORE and form not in forms:
            forms.append(form)
    return tuple(forms)


def reading_links(surface: Iterable[str]) -> dict[str, list[str]]:
    """Lemma → the other lemmas that share a word form of the texts with it.

    The index holds each form under its first reading: «ран» is «ран», «броней» is «бронь», while
    «раны» is «рана» and «броня» is «броня». A question's «рана» must find «ран» too.
    """
    links: dict[str, set[str]] = {}
    for word in surface:
        forms = readings(word)
        for other in forms[1:]:
            links.setdefault(other, set()).add(forms[0])
            links.setdefault(forms[0], set()).add(other)
    return {key: sorted(values) for key, values in sorted(links.items())}


_VERB_END = re.compile(r"(?:ывать|ивать|вать|ать|ять|ить|еть|ыть)$")


def aspect_key(word: str) -> str | None:
    """The stem a verb shares with its other aspect: «проиграть», «проигрывать» → «проигр»;
    «назначить», «назначать(ся)» → «назнач». ``None`` for a word that is not an infinitive."""
    if word.endswith(("ться", "тись")):
        word = word[:-2]
    if not word.endswith("ть"):
        return None
    stem = _VERB_END.sub("", word)
    return stem if len(stem) >= 4 and stem != word else None


@lru_cache(maxsize=4)
def _aspect_index(vocabulary: frozenset[str]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for word in vocabulary:
        key = aspect_key(word)
        if key is not None:
            index.setdefault(key, []).append(word)
    return {key: tuple(sorted(words)) for key, words in index.items()}


def aspect_partners(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    """Verbs of the texts with the same aspect stem as ``word`` (itself excluded)."""
    key = aspect_key(word)
    if key is None:
        return ()
    return tuple(w for w in _aspect_index(vocabulary).get(key, ()) if w != word)


def other_readings(original: str, text: str, variants: dict[str, list[str]] | None) -> list[str]:
    """The readings of ``original`` other than its lemma ``text``, then the build's ``variants`` of it."""
    found = [r for r in readings(original)[1:] if r != text]
    for other in (variants or {}).get(text, ()):
        if other != text and other not in found:
            found.append(other)
    return found
