"""A question, understood (:class:`ParsedQuery`): weighted terms, concepts, editions, corrections."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["ParsedQuery", "QueryTerm", "QueryWord"]


@dataclass
class QueryTerm:
    """One term to search for, with its weight and why it is there."""

    text: str
    weight: float
    origin: str
    """``word``, ``light`` (a question word), ``synonym``, ``english``, ``correction``."""


@dataclass
class QueryWord:
    """One word of the question and every term that stands for it."""

    original: str
    lemma: str
    alternatives: tuple[str, ...]
    """The lemma, its translations, synonyms and spelling correction."""
    light: bool = False
    concept: str | None = None
    """The concept whose phrase this word is part of (of several, one the named editions render)."""
    concepts: tuple[str, ...] = ()
    """Every concept a phrase this word is part of names («овервотч»: Fire Overwatch and the older
    editions' overwatch), :attr:`concept` first; empty when it names none."""

    @property
    def named(self) -> tuple[str, ...]:
        """The concepts the word stands for: :attr:`concepts`, or :attr:`concept` alone."""
        if self.concepts:
            return self.concepts
        return (self.concept,) if self.concept is not None else ()


@dataclass
class ParsedQuery:
    """A question, understood."""

    text: str
    """The question as given."""
    cleaned: str
    terms: list[QueryTerm] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    """Concept ids, in the order the question names them."""
    concept_phrases: dict[str, list[str]] = field(default_factory=dict)
    concept_share: dict[str, float] = field(default_factory=dict)
    """Concept → 1 / the number of concepts its words named («атака» names attack, attacks and
    charge: a third each); the best share when it was named more than once. Missing means 1."""
    editions: list[str] = field(default_factory=list)
    """Editions named in the text (or the explicit one), in order."""
    explicit_edition: str | None = None
    compare: bool = False
    """The question compares editions («как изменился овервотч с 6-й», «difference between…»):
    its editions are each given a place at the top instead of one filtering the others."""
    corrections: dict[str, str] = field(default_factory=dict)
    """Unknown word → the word of the texts it was corrected to."""
    numbers: list[str] = field(default_factory=list)
    """Numbers and dice notation of the question (``2d6``, ``3+``, ``6"``)."""
    words: list[QueryWord] = field(default_factory=list)
    """The question's words in order, each with the terms that stand for it."""
    setup_terms: dict[str, float] = field(default_factory=dict)
    """Term → the factor its weight takes in the reranker's shares: the terms standing only for words
    of the situation told before the asking clause (:mod:`rulekb.kb.search.query_setup`). Missing means 1."""
    setup_concepts: dict[str, float] = field(default_factory=dict)
    """Concept → the same factor, for the concepts only the set-up's words name."""

    @property
    def edition(self) -> str | None:
        """The one edition to report: explicit, or the only one named; ``None`` for none or several."""
        if self.explicit_edition is not None:
            return self.explicit_edition
        return self.editions[0] if len(self.editions) == 1 else None

    @property
    def did_you_mean(self) -> str | None:
        """The question with its corrected words, or ``None`` if nothing was corrected."""
        if not self.corrections:
            return None
        text = self.cleaned
        for wrong, right in self.corrections.items():
            text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text, flags=re.IGNORECASE)
        return text

    @property
    def empty(self) -> bool:
        return not self.terms and not self.concepts
