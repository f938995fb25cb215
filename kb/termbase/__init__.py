"""The termbase: one import for everything the other stages and the CLI use.

``kb/data/terms.toml`` holds the concepts (see :mod:`rulekb.kb.termbase.model`); :mod:`rulekb.kb.text.matcher`
finds them in text by lemma n-grams; :mod:`rulekb.kb.termbase.occurrences` counts them in the sources and
shows them in context; :mod:`rulekb.kb.termbase.report` looks concepts up, reports inconsistencies and
lints drafts; :mod:`rulekb.kb.termbase.export` writes JSON records, TBX, TSV and CSV.

Typical use::

    from rulekb.kb.termbase import default_termbase, default_index, ConceptFinder

    finder = ConceptFinder(default_termbase())
    finder.concepts("можно ли стрелять по зоне поражения")   # ['engagement-range']
    [m.concept_id for m in finder.find(node_text)]             # mentions, with spans
    default_index().kwic(default_termbase()["overwatch"])       # every rendering in context
"""

from __future__ import annotations

from functools import lru_cache

from rulekb.kb.termbase.export import to_csv, to_records, to_tbx, to_tsv
from rulekb.kb.termbase.model import (
    DEFAULT_TERMS,
    Category,
    Concept,
    IgnoredEnglish,
    Rendering,
    Status,
    Termbase,
    default_termbase,
    load_termbase,
)
from rulekb.kb.termbase.occurrences import (
    EnglishTerm,
    Heading,
    KwicRow,
    Occurrence,
    TermIndex,
    default_index,
    english_key,
    extract_english_terms,
    headings,
    page_of,
    renderings_not_found,
    unmapped_english_terms,
    unmapped_headings,
)
from rulekb.kb.termbase.report import (
    ConceptFinder,
    DraftFlag,
    InconsistencyReport,
    SharedString,
    Variants,
    check_draft,
    inconsistencies,
    preferred_in,
    stats_rows,
    stats_table,
)
from rulekb.kb.text.matcher import Match, Matcher, Pattern, analyse, edit_distance

__all__ = [
    "DEFAULT_TERMS",
    "Category",
    "Concept",
    "ConceptFinder",
    "DraftFlag",
    "EnglishTerm",
    "Heading",
    "IgnoredEnglish",
    "InconsistencyReport",
    "KwicRow",
    "Match",
    "Matcher",
    "Occurrence",
    "Pattern",
    "Rendering",
    "SharedString",
    "Status",
    "TermIndex",
    "Termbase",
    "Variants",
    "analyse",
    "check_draft",
    "default_finder",
    "default_index",
    "default_termbase",
    "edit_distance",
    "english_key",
    "extract_english_terms",
    "headings",
    "inconsistencies",
    "kwic",
    "load_termbase",
    "page_of",
    "preferred_in",
    "renderings_not_found",
    "stats_rows",
    "stats_table",
    "to_csv",
    "to_records",
    "to_tbx",
    "to_tsv",
    "unmapped_english_terms",
    "unmapped_headings",
]


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
