"""Search: a question in, ranked rule leaves out, each with its citation and a highlighted snippet.

Two passes. Whoosh scores every leaf with BM25F over the weighted query terms
(:mod:`rulekb.kb.search.query`) across the fields ``title`` (the heading, boosted), ``path`` (the headings
above), ``text``, ``aliases`` (the concepts' renderings and aliases) and the concept ids in
``concepts``/``defines``; the query is built from ``whoosh.query`` objects, never parsed from
user text. Then the best :data:`RERANK_DEPTH` leaves are reranked in Python with features
precomputed at build time (:class:`rulekb.kb.search.features.NodeFeatures`):

* the leaf *defines* a recognised concept (its heading or the heading above names it),
* the query's words in the heading path (how much of the question the breadcrumb answers),
* the detected edition (exact, or a neighbour: 6th ↔ 7th ↔ Kill Team),
* numbers of the question printed in the leaf (``2"``, ``2d6``, ``3+``),
* kind and size: rules and summaries over examples, the first paragraph under a heading.

The pieces: :mod:`~rulekb.kb.search.knowledge_index` (the opened index, :func:`get_index`, once per
process and build), :mod:`~rulekb.kb.search.ranking` (BM25F and the reranker, weights in
:mod:`~rulekb.kb.search.weights`), :mod:`~rulekb.kb.search.snippets` and :mod:`~rulekb.kb.search.hits`;
this module is the entry point and re-exports them.
"""

from __future__ import annotations

from pathlib import Path

from rulekb.corpus.errors import QueryError
from rulekb.kb.search.hits import Hit, SearchResult, make_hit
from rulekb.kb.search.knowledge_index import KnowledgeIndex, get_index
from rulekb.kb.search.ranking import bm25_scores, clauses, search_parsed, whoosh_scores
from rulekb.kb.search.snippets import fill_snippets, snippet
from rulekb.kb.search.weights import RERANK_DEPTH

__all__ = [
    "MAX_LIMIT",
    "RERANK_DEPTH",
    "Hit",
    "KnowledgeIndex",
    "SearchResult",
    "bm25_scores",
    "check_limit",
    "clauses",
    "fill_snippets",
    "get_index",
    "make_hit",
    "search",
    "search_parsed",
    "snippet",
    "whoosh_scores",
]

#: Most hits a caller may ask for.
MAX_LIMIT = 100


def check_limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, got {limit!r}.")
    return limit


def search(
    question: str,
    *,
    edition: str | None = None,
    limit: int = 10,
    build_dir: Path | None = None,
) -> SearchResult:
    """Search the built knowledge base; an empty or wordless question gives no hits."""
    check_limit(limit)
    index = get_index(build_dir)
    parsed = index.parse(question, edition)
    return SearchResult(parsed, search_parsed(index, parsed, limit))
