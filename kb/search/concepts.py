"""The concept matcher over the project's termbase (:func:`default_matcher`); the matcher itself
is :class:`rulekb.kb.text.concepts.ConceptMatcher`."""

from __future__ import annotations

from functools import lru_cache

from rulekb.corpus.errors import LinkError, TermbaseError
from rulekb.kb.termbase.model import default_termbase
from rulekb.kb.text.concepts import ConceptEntry, ConceptMatcher, concept_entries

__all__ = ["default_matcher", "load_concepts", "same_mechanic"]


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


@lru_cache(maxsize=1)
def same_mechanic() -> dict[str, frozenset[str]]:
    """Concept id → the other concepts of its curated mechanic (``[[mechanic]]`` in
    ``kb/data/defines.toml``: one rule under different names in different editions, such as Fire
    Overwatch and overwatch); empty when the curation cannot be read (``rulekb build`` reports it)."""
    from rulekb.kb.graph.curation import load_curation

    try:
        mechanics = load_curation().mechanics
    except LinkError:
        return {}
    partners: dict[str, set[str]] = {}
    for mechanic in mechanics:
        for concept in mechanic.concepts:
            partners.setdefault(concept, set()).update(c for c in mechanic.concepts if c != concept)
    return {concept: frozenset(others) for concept, others in partners.items()}
