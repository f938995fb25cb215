"""The FAQ entry an ask result carries: matched against the question, confirmed by retrieval, and the
hits reordered so its cited passages come first (the card's own gating is :mod:`rulekb.kb.faq.gate`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulekb.kb.faq.entries import DEFAULT_THRESHOLD, match_faq
from rulekb.kb.search.query import NEAR_EDITIONS, ParsedQuery
from rulekb.kb.search.searcher import Hit, KnowledgeIndex, make_hit

__all__ = ["FAQ_BOOST", "FAQ_CONFIRM_DEPTH", "FAQ_HIGH", "FAQ_MATCHES", "faq_hits", "faq_matches", "pick_faq"]

#: A FAQ match at least this good is taken even when retrieval did not find its passages.
FAQ_HIGH = 0.6
#: How deep in the retrieval ranking a FAQ entry's passages must appear to confirm a weaker match.
FAQ_CONFIRM_DEPTH = 3
#: A weaker FAQ match multiplies its cited leaves' scores by ``1 + FAQ_BOOST × match score``.
FAQ_BOOST = 1.0


def _edition_fits(entry_edition: str, editions: Sequence[str]) -> bool:
    if not editions:
        return True
    return entry_edition in editions or any(entry_edition in NEAR_EDITIONS.get(e, ()) for e in editions)


#: How many FAQ matches are kept for the card's gating (one matcher call serves both).
FAQ_MATCHES = 10


def faq_matches(index: KnowledgeIndex, parsed: ParsedQuery) -> list[tuple[Any, float]]:
    """The FAQ entries the question matches, best first (of the explicit edition, if given)."""
    if not index.faq:
        return []
    return match_faq(parsed.cleaned, index.faq, edition=parsed.explicit_edition, limit=FAQ_MATCHES)


def pick_faq(
    index: KnowledgeIndex, parsed: ParsedQuery, hits: Sequence[Hit], matches: Sequence[tuple[Any, float]] | None = None
) -> tuple[Any, float, list[str]] | None:
    """The FAQ entry that answers the question, confirmed by retrieval, or ``None``."""
    entries = index.faq
    if not entries:
        return None
    if matches is None:
        matches = faq_matches(index, parsed)
    top = {hit.node_id for hit in hits[:FAQ_CONFIRM_DEPTH]}
    for entry, score in matches[:3]:
        if score < DEFAULT_THRESHOLD:
            break
        if not _edition_fits(entry.edition, parsed.editions):
            continue
        nodes = index.faq_leaves[entry.id]
        if not nodes:
            continue
        if score >= FAQ_HIGH or top.intersection(nodes):
            return entry, score, nodes
    return None


def faq_hits(index: KnowledgeIndex, parsed: ParsedQuery, hits: list[Hit], nodes: Sequence[str], score: float) -> list[Hit]:
    """The hits with a matched FAQ entry's cited leaves moved up.

    A confident match (:data:`FAQ_HIGH`) puts its cited leaves first, in retrieval order (a leaf
    retrieval did not find comes after those it found). A weaker match, confirmed by retrieval,
    only lifts the cited leaves retrieval already ranked in the top :data:`FAQ_CONFIRM_DEPTH`.
    """
    rank = {hit.node_id: position for position, hit in enumerate(hits)}
    if score >= FAQ_HIGH:
        lead_ids = sorted(nodes, key=lambda n: rank.get(n, len(hits) + list(nodes).index(n)))
        top_score = hits[0].score if hits else 1.0
        by_id = {hit.node_id: hit for hit in hits}
        lead = [by_id.get(n) or make_hit(index.features[n], top_score) for n in lead_ids]
        chosen = set(lead_ids)
        return lead + [h for h in hits if h.node_id not in chosen]
    cited = set(nodes)
    boost = 1.0 + FAQ_BOOST * score

    def effective(hit: Hit) -> float:
        return hit.score * boost if hit.node_id in cited else hit.score

    result: list[Hit] = []
    for hit in hits:
        position = len(result)
        if hit.node_id in cited:
            # moved up past the leaves it now outscores, the others keep their order
            while position > 0 and result[position - 1].node_id not in cited and effective(result[position - 1]) < effective(hit):
                position -= 1
        result.insert(position, hit)
    return result
