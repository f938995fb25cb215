"""The concept matcher over the project's termbase (:func:`default_matcher`); the matcher itself
is :class:`rulekb.kb.text.concepts.ConceptMatcher`."""

from __future__ import annotations

from functools import lru_cache

from rulekb.corpus.errors import TermbaseError
from rulekb.kb.termbase.model import default_termbase
from rulekb.kb.text.concepts import ConceptEntry, ConceptMatcher, concept_entries

__all__ = ["default_matcher", "load_concepts"]


def load_concepts() -> list[ConceptEntry]:
    """The project termbase as :class:`ConceptEntry` objects; empty when it cannot be loaded (a
    broken termbase must not take search down with it; ``rulekb build`` reports it)."""
    try:
        termbase = default_termbase()
    except TermbaseError:
        return []
    return concept_entries(termbase)



@lru_cache(maxsize=1)
def default_matcher() -> ConceptMatcher:
    """The matcher over the project's termbase, built once per process."""
    return ConceptMatcher(load_concepts())


