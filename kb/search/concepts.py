"""The concept matcher over the project's termbase (:func:`default_matcher`); the matcher itself
is :class:`rulekb.kb.text.concepts.ConceptMatcher`."""

from __future__ import annotations

from functools import lru_cache

from rulekb.corpus.errors import LinkError, TermbaseError
from rulekb.kb.datafile import read_toml
from rulekb.kb.paths import DATA_DIR
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
    Overwatch and overwatch); empty when the file cannot be read (``rulekb build`` validates it and
    reports what is wrong). Only its mechanics are read: the whole curation costs a second."""
    try:
        data = read_toml(DATA_DIR / "defines.toml", LinkError, missing="no defines.toml")
    except LinkError:
        return {}
    partners: dict[str, set[str]] = {}
    for mechanic in data.get("mechanic", []):
        concepts = [c for c in mechanic.get("concepts", []) if isinstance(c, str)] if isinstance(mechanic, dict) else []
        for concept in concepts:
            partners.setdefault(concept, set()).update(c for c in concepts if c != concept)
    return {concept: frozenset(others) for concept, others in partners.items()}
