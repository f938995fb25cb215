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

from rulekb.kb.termbase.export import to_csv, to_records, to_tbx, to_tsv
from rulekb.kb.termbase.lookup import default_finder, kwic
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
from rulekb.kb.text.fuzzy import edit_distance
from rulekb.kb.text.matcher import Match, Matcher, Pattern, analyse

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
