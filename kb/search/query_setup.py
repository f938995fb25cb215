"""The situation a question tells before it asks (:func:`asking_split`), and how much the words found
only there weigh in the reranker (:func:`setup_factors`).

«Летающая модель залетает на верх руин — дистанцию меряем по полу или как?» tells a situation (a
flyer, a ruin) and then asks (how the distance is measured). The ruling is usually in the section of
what is asked; the set-up's words name the sections the situation touches (Ruins), which then rank
first. In the reranker's shares (:class:`rulekb.kb.search.ranking._QueryFeatures`: the question's
words a leaf and its best sentence carry, the concepts it defines) the words found only in the set-up
weigh :data:`SETUP_WEIGHT` — except those the ruling turns on as often as not: numbers («9 дюймов»),
the phase a situation is placed in (:data:`KEPT_CATEGORIES`), a concept the asking clause names in
other words, and a concept the termbase lists as ``related`` to one the asking clause names (the
asked mechanic's parts: toughness for «по какой кидать на ранение»). BM25 retrieval keeps every
word's weight (the set-up still finds the leaves), and so does the card's own reading of the question.

The set-up is the sentences told before the last one holding «?», and within that sentence the part
before its last dash (« — »). None is read when a question has no «?», when an earlier sentence asks
too (two questions), when the part before the dash asks itself («Какие шаги у этапа нападения — от
объявления до перемещения?»), or when the asking clause has fewer than :data:`MIN_ASKING_WORDS`
content words of its own («Можно сбежать специально?», "How does 6th edition say to do it?": what is
asked is told in the set-up).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rulekb.corpus.errors import TermbaseError
from rulekb.kb.search.parsed import ParsedQuery
from rulekb.kb.search.query_terms import is_number
from rulekb.kb.termbase.model import Termbase, default_termbase
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.vocabulary import LIGHT_WORDS

__all__ = [
    "KEPT_CATEGORIES",
    "MIN_ASKING_WORDS",
    "SETUP_WEIGHT",
    "SetupConcepts",
    "asking_split",
    "project_setup_concepts",
    "setup_factors",
    "setup_lemmas",
]

#: The reranker's weight of a word found only in the set-up, relative to the asking clause's words
#: (0.4–0.5 alike on the development sets; 0.6 and 0.7 gain less, see docs/search.md).
SETUP_WEIGHT = 0.5
#: The asking clause needs this many content words of its own, numbers aside.
MIN_ASKING_WORDS = 3
#: Termbase categories whose concepts keep their weight in a set-up: the phase a situation is placed in.
KEPT_CATEGORIES = frozenset({"phase"})

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_DASH = re.compile(r"\s[—–-]\s")
#: A clause that asks itself (a question word, a modal, an English question's auxiliary first).
_ASKS = re.compile(r"\b(?:как\w*|сколько|что|чем|кто|когда|где|куда|почему|зачем|можно|нельзя|могу|может|могут|ли"
                   r"|how|what|which|when|where|who|why)\b|^\s*(?:can|could|does|do|did|is|are|must|may|should)\b", re.I)


@dataclass(frozen=True)
class SetupConcepts:
    """What the set-up reading needs of a termbase: the concepts that keep their weight
    (:data:`KEPT_CATEGORIES`) and each concept's ``related`` ones, both ways (the mechanic a concept
    is part of: toughness with the wound roll, a charge with the charge roll)."""

    kept: frozenset[str] = frozenset()
    related: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, termbase: Termbase) -> SetupConcepts:
        """From the concepts of a termbase (the build's, or the project's)."""
        kept = frozenset(c.id for c in termbase if str(c.category) in KEPT_CATEGORIES)
        return cls(kept, termbase.related_both_ways())


@lru_cache(maxsize=1)
def project_setup_concepts() -> SetupConcepts:
    """:class:`SetupConcepts` of the project termbase (empty when it cannot be loaded)."""
    try:
        return SetupConcepts.of(default_termbase())
    except TermbaseError:
        return SetupConcepts()


def _content(text: str) -> set[str]:
    return {t.text for t in tokens(text) if t.text not in LIGHT_WORDS}


def _words(text: str) -> int:
    """The content words of ``text`` that are not numbers (an edition's «в 10-й» names no rule)."""
    return sum(1 for lemma in _content(text) if not is_number(lemma))


def asking_split(question: str) -> tuple[str, str]:
    """``(set-up, asking clause)`` of ``question``; the set-up is empty when none is read (see the
    module's docstring)."""
    sentences = [s for s in _SENTENCE_END.split(question.strip()) if s.strip()]
    last = next((i for i in range(len(sentences) - 1, -1, -1) if "?" in sentences[i]), None)
    if last is None or any("?" in s for s in sentences[:last]):
        return "", question
    before = " ".join(sentences[:last])
    asking = sentences[last]
    parts = _DASH.split(asking)
    if len(parts) > 1 and _words(parts[-1]) >= MIN_ASKING_WORDS and not any(_ASKS.search(p) for p in parts[:-1]):
        before = " ".join([before, *parts[:-1]]).strip()
        asking = parts[-1]
    asking = " ".join([asking, *sentences[last + 1:]])  # what follows the question mark is asked too («…можно? и как …»)
    if not before or _words(asking) < MIN_ASKING_WORDS:
        return "", question
    return before, asking


@lru_cache(maxsize=4096)
def setup_lemmas(question: str) -> frozenset[str]:
    """The content lemmas found in the set-up of ``question`` and not in its asking clause."""
    before, asking = asking_split(question)
    if not before:
        return frozenset()
    return frozenset(_content(before) - _content(asking))


def setup_factors(parsed: ParsedQuery, concepts_of: SetupConcepts) -> tuple[dict[str, float], dict[str, float]]:
    """``(term → factor, concept → factor)`` for the reranker: the terms standing only for set-up
    words and the concepts only set-up words name weigh :data:`SETUP_WEIGHT`. A number keeps its weight,
    and so does a set-up word naming a kept concept of ``concepts_of`` (a phase), a concept the asking
    clause's words name, or one ``related`` to those. Empty when no set-up is read."""
    setup = setup_lemmas(parsed.cleaned)
    if not setup or SETUP_WEIGHT == 1.0:
        return {}, {}
    asked: set[str] = set()
    asked_terms: set[str] = set()
    asked_concepts: set[str] = set()
    told: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for word in parsed.words:
        if word.light:
            continue
        if word.lemma in setup and not is_number(word.lemma):
            told.append((word.alternatives, word.named))
            continue
        if word.lemma not in setup and not is_number(word.lemma):
            asked.add(word.lemma)
        asked_terms.update(word.alternatives)
        asked_concepts.update(word.named)
    if len(asked) < MIN_ASKING_WORDS:
        return {}, {}
    kept, related = concepts_of.kept, concepts_of.related
    terms: dict[str, float] = {}
    concepts: dict[str, float] = {}
    for alternatives, named in told:
        if any(c in kept or c in asked_concepts or not related.get(c, frozenset()).isdisjoint(asked_concepts)
               for c in named):
            continue
        for term in alternatives:
            if term not in asked_terms:
                terms[term] = SETUP_WEIGHT
        for concept in named:
            concepts[concept] = SETUP_WEIGHT
    return terms, concepts
