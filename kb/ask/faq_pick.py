"""The FAQ entry an ask result carries: matched against the question, confirmed by retrieval, and the
hits reordered so its cited passages come first (the card's own gating is :mod:`rulekb.kb.faq.gate`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rulekb.kb.ask.form import question_form
from rulekb.kb.faq.entries import DEFAULT_THRESHOLD, FaqEntry, faq_matcher, match_faq
from rulekb.kb.faq.gate import Gate
from rulekb.kb.search.query import NEAR_EDITIONS, ParsedQuery
from rulekb.kb.search.searcher import Hit, KnowledgeIndex, make_hit
from rulekb.kb.text.analysis import lemma
from rulekb.kb.text.analysis import lemmas as lemmas_of

__all__ = [
    "ASPECT_AXES",
    "FAQ_BOOST",
    "FAQ_CONFIRM_DEPTH",
    "FAQ_HIGH",
    "FAQ_MATCHES",
    "RETRIEVAL_DEPTH",
    "aspects_clash",
    "faq_hits",
    "faq_matches",
    "pick_faq",
    "retrieval_order",
    "screen_matches",
]

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


# --- screening the entries a card may be led by -----------------------------------------------

#: Opposite aspects of one mechanic: a question on one side is not answered by an entry whose own
#: phrasings speak only of the other (the shooting split-fire entry for a melee question, placing
#: markers for ending a move on one). Lemmas of rule words, not of any question.
ASPECT_AXES: tuple[tuple[str, str], ...] = (
    ("рукопашный рукопашная рукопашка ближний драться бить сражаться мили melee fight fights fought",
     "стрельба стрелять выстрел дальнобойный shoot shooting shot ranged"),
    ("ставить поставить расставлять расстановка размещать разместить выставлять выставить place placing "
     "deploy", "закончить заканчивать завершить окончить остановиться end ends ending finish"),
)
#: The entry's cited leaves must hold the edition's first passage as retrieval ranks it on its own
#: (by the retrieval scores, before the FAQ moved its cited leaves up): an entry of the same
#: mechanic citing the passage next to it is a neighbour, not the answer (see docs/search.md).
RETRIEVAL_DEPTH = 1
_DIGIT = re.compile(r"\d|\b(?:один|одн\w+|два|две|двух|три|трёх|трех|четыр\w+|пят\w+|шест\w+|половин\w+)\b", re.I)


def _axis_lemmas() -> list[tuple[frozenset[str], frozenset[str]]]:
    if not _AXES:
        for one, other in ASPECT_AXES:
            _AXES.append((frozenset(lemma(w) for w in one.split()), frozenset(lemma(w) for w in other.split())))
    return _AXES


_AXES: list[tuple[frozenset[str], frozenset[str]]] = []


def aspect_sides(lemmas: Iterable[str]) -> tuple[int, ...]:
    """Per axis of :data:`ASPECT_AXES`: 1 or 2 for the side the words take, 0 for none or both."""
    found = set(lemmas)
    sides: list[int] = []
    for one, other in _axis_lemmas():
        a, b = bool(found & one), bool(found & other)
        sides.append(0 if a == b else 1 if a else 2)
    return tuple(sides)


def aspects_clash(question_lemmas: Iterable[str], entry: FaqEntry) -> bool:
    """Whether the question takes one side of an axis and every phrasing of the entry the other."""
    asked = aspect_sides(question_lemmas)
    own = aspect_sides(lemmas_of(" ".join([entry.question, *entry.variants])))
    return any(q and e and q != e for q, e in zip(asked, own, strict=True))


def answers_a_number(entry: FaqEntry) -> bool:
    """Whether the entry can answer «how far / how many»: a phrasing asking a number, or a number in
    its answer."""
    return bool(_DIGIT.search(entry.answer)) or any(
        question_form(p) == "number" for p in (entry.question, *entry.variants))


def retrieval_order(hits: Sequence[Hit]) -> list[str]:
    """The hits' leaves in the order of their retrieval scores (a FAQ match moved its cited leaves
    up without changing their scores). A cited leaf retrieval had not found was given the first
    hit's score and put before it (:func:`faq_hits`): among equal scores the later hit comes first."""
    ranked = sorted(enumerate(hits), key=lambda item: (-item[1].score, -item[0]))
    return [hit.node_id for _, hit in ranked]


def screen_matches(
    index: KnowledgeIndex, question: str, form: str, hits: Sequence[Hit], matches: Sequence[tuple[Any, float]],
) -> tuple[list[tuple[Any, float]], list[Gate]]:
    """The matches a card's FAQ gate (:func:`rulekb.kb.faq.gate.gate_entry`) may try — the first two
    of each edition — less those that ask another thing than the question, each returned as a
    :class:`Gate` that does not lead, with its reason: ``"passages"`` (retrieval on its own does
    not rank the entry's cited leaves first among the edition's passages, :data:`RETRIEVAL_DEPTH`;
    an edition without hits here is searched on its own by the card and gated there),
    ``"opposite"`` (the other side of an axis of :data:`ASPECT_AXES`), ``"form"`` (a number asked
    of an entry that gives none)."""
    entries = index.faq
    if not entries:
        return [], []
    order = retrieval_order(hits)
    by_edition: dict[str, list[str]] = {}
    editions = {hit.node_id: hit.edition for hit in hits}
    for node_id in order:
        by_edition.setdefault(editions[node_id], []).append(node_id)
    asked = lemmas_of(question)
    kept: list[tuple[Any, float]] = []
    rejected: list[Gate] = []
    tried: dict[str, int] = {}
    for entry, score in matches:
        if tried.get(entry.edition, 0) >= 2:
            continue
        tried[entry.edition] = tried.get(entry.edition, 0) + 1
        cited = set(index.faq_leaves.get(entry.id, []))
        reason = ""
        if score >= DEFAULT_THRESHOLD:
            first = by_edition.get(entry.edition)
            if first is not None and not cited & set(first[:RETRIEVAL_DEPTH]):
                reason = "passages"
            elif aspects_clash(asked, entry):
                reason = "opposite"
            elif form == "number" and not answers_a_number(entry):
                reason = "form"
        if reason:
            uncovered = faq_matcher(entries).uncovered(question, entry)
            rejected.append(Gate(entry, score, uncovered, False, reason))
        else:
            kept.append((entry, score))
    return kept, rejected
