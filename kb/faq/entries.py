"""The FAQ: questions players actually ask at the table, answered in our words with cited quotes.

``kb/faq/<source>.toml`` (one file per source, like ``kb/examples/``) holds one ``[[faq]]`` table per question: the question as a player would ask
it, a few other phrasings (slang, English, casual), the edition, the concepts it is about, a short
answer in Russian and one or more citations — a source id, a tight line span and exact quotes from
those raw lines. The model is in :mod:`~rulekb.kb.faq.model`, loading and the build stage in :mod:`~rulekb.kb.faq.loader`
(:func:`load_faq`), quotes against the raw text in :mod:`~rulekb.kb.faq.citations`
(:func:`check_citations`, :func:`citation_node_ids`) and the question matcher in
:mod:`~rulekb.kb.faq.matcher` (:func:`match_faq`); this module re-exports their public names.

The matcher is deliberately small: lemma sets (:func:`rulekb.kb.text.analysis.lemmas`) of the question and of
each variant, weighted by inverse entry frequency, compared by cosine. Only for this matching a
short list of function words is ignored; game words such as «не» or «только» are kept.
"""

from __future__ import annotations

from rulekb.corpus.citations import NodeLike, normalise_space
from rulekb.kb.faq.citations import CitationProblem, check_citations, citation_node_ids, entry_node_ids
from rulekb.kb.faq.loader import load_built_faq, load_faq, stage_faq
from rulekb.kb.faq.matcher import DEFAULT_THRESHOLD, FaqMatcher, faq_matcher, faq_terms, match_faq
from rulekb.kb.faq.model import FAQ_DIR, MAX_CITED_LINES, FaqCitation, FaqEntry, FaqError

__all__ = [
    "DEFAULT_THRESHOLD",
    "FAQ_DIR",
    "MAX_CITED_LINES",
    "CitationProblem",
    "FaqCitation",
    "FaqEntry",
    "FaqError",
    "FaqMatcher",
    "NodeLike",
    "check_citations",
    "citation_node_ids",
    "entry_node_ids",
    "faq_matcher",
    "faq_terms",
    "load_built_faq",
    "load_faq",
    "match_faq",
    "normalise_space",
    "stage_faq",
]
