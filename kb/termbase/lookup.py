"""Looking a concept up by any of its names (:func:`default_finder`) and showing it in context (:func:`kwic`)."""

from __future__ import annotations

from functools import lru_cache

from rulekb.kb.termbase.model import default_termbase
from rulekb.kb.termbase.occurrences import KwicRow, TermIndex, default_index
from rulekb.kb.termbase.report import ConceptFinder

__all__ = ["default_finder", "kwic"]


@lru_cache(maxsize=1)
def default_finder() -> ConceptFinder:
    """A :class:`ConceptFinder` over the project termbase (built once per process)."""
    return ConceptFinder(default_termbase())


def kwic(
    concept_or_text: str,
    source: str | None = None,
    width: int = 60,
    index: TermIndex | None = None,
    *,
    phrase: bool = False,
) -> list[KwicRow]:
    """Keyword in context: every occurrence of a concept's renderings (the argument is a
    concept id, an English term, an alias or a Russian rendering, naming the concept as a
    whole), or else — and always with ``phrase`` — of the text itself as a literal phrase in any
    inflection. Rows carry source, line, page (where known), left, match, right, and for a
    string shared by several concepts the sense it was counted for and why."""
    index = index or default_index()
    if phrase:
        return index.kwic_text(concept_or_text, source, width)
    finder = default_finder() if index.termbase is default_termbase() else ConceptFinder(index.termbase)
    found = finder.lookup(concept_or_text)
    if not found:
        return index.kwic_text(concept_or_text, source, width)
    # A concept id names one concept; an alias may name several («овервотч»: the 10th-edition
    # stratagem and the older rule), and then all of them are shown.
    chosen = [c for c in found if c.id == concept_or_text.strip()] or found
    order = {s: n for n, s in enumerate(index.sources)}
    rows = [row for concept in chosen for row in index.kwic(concept, source, width)]
    return sorted(rows, key=lambda r: (order.get(r.source_id, 0), r.line))
