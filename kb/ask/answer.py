"""The FAQ assistant: a question in, the ruling passage out — cited, with its answer sentence.

:func:`ask` returns the ``rulekb ask --json`` contract (see ``ARCHITECTURE.md``)::

    {"id", "question", "edition", "concepts", "answer": {"text", "node_id"} | null, "hits": [...]}

plus fields other tools may use: ``editions`` (every edition the question names), ``faq`` (the
curated entry that answers it, whose cited passages then lead the hits), ``other_editions``
(the same concept's defining rule in the other editions), ``did_you_mean`` and ``confidence``.

The answer is the sentence (or two) of the best leaf that shares the most — and the rarest —
lemmas with the question, numbers counted. When the question's words are mostly unknown to
the rules (a recipe, the weather), ``answer`` is ``null`` and ``hits`` is empty: «ответ не
найден» is better than a random passage.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rulekb.corpus.errors import QueryError
from rulekb.corpus.models import EDITIONS
from rulekb.kb.ask.card import build_card, empty_card, question_lang, terminology_only
from rulekb.kb.ask.card_editions import OTHER_EDITIONS_MIN_WEIGHT
from rulekb.kb.ask.faq_pick import FAQ_HIGH, faq_hits, faq_matches, pick_faq
from rulekb.kb.faq.gate import related_json
from rulekb.kb.search.hits import lead_each_edition
from rulekb.kb.search.index import NodeFeatures
from rulekb.kb.search.query import ParsedQuery
from rulekb.kb.search.ranking import content_words
from rulekb.kb.search.searcher import (
    Hit,
    KnowledgeIndex,
    check_limit,
    fill_snippets,
    get_index,
    search_parsed,
)
from rulekb.kb.store import stamps_held
from rulekb.kb.text.analysis import lemma

__all__ = [
    "ANSWER_THRESHOLD",
    "FAQ_HIGH",
    "ask",
    "ask_batch",
    "comparison_parts",
    "coverage",
    "load_faq_entries",
]

#: Below this share of the question's (IDF-weighted) words found in the best leaf, and with no
#: concept recognised, there is no answer.
ANSWER_THRESHOLD = 0.35
#: With a concept recognised the bar is lower (the concept itself is evidence).
ANSWER_THRESHOLD_CONCEPT = 0.12
#: How many hits the card chooses from (across editions).
CARD_DEPTH = 10


def load_faq_entries(build_dir: Path | None = None) -> tuple[Any, ...]:
    """The curated FAQ entries as the build checked them (``build/faq.json``), loaded with its index
    (so a new build brings its new FAQ)."""
    return get_index(build_dir).faq


def coverage(index: KnowledgeIndex, parsed: ParsedQuery, features: NodeFeatures) -> float:
    """Share of the question's words (IDF-weighted) that the leaf, its headings or its concepts carry.

    A word counts as found when any term standing for it (its lemma, translation, synonym,
    correction) is in the leaf, or when it names a concept the leaf mentions or defines. A word
    the rules never use weighs as much as the rarest word, so an off-topic question scores low.
    """
    present = index.text_terms[features.id] | set(features.heading_lemmas)
    concepts_here = set(features.concepts) | set(features.defines)
    top = index.max_idf
    total = found = 0.0
    for word, idf in content_words(index, parsed):
        weight = idf if idf is not None else top
        total += weight
        if any(concept in concepts_here for concept in word.named) or any(
            a in present for a in word.alternatives
        ):
            found += weight
    return found / total if total > 0 else 0.0


#: Question words asking for a quantity: then a sentence with a number or dice answers better.
QUANTITY_WORDS = frozenset(
    lemma(word)
    for word in """
    сколько скока скоко размер диаметр длина далеко дальность расстояние дистанция много максимум минимум
    many much far distance size range long big
    """.split()
)
#: Bonus of a sentence with a number for a quantity question, as a share of the best term weight.
W_QUANTITY = 0.6
#: A sentence of fewer terms than this is a label («[ТЯЖЕЛЫЙ]»), not a ruling.
MIN_SENTENCE_TERMS = 5
_NUMBER = re.compile(r"^(?:\d|[+\-]\d|d\d)")


def _sentence_score(
    index: KnowledgeIndex, lemmas: Sequence[str], weights: dict[str, float], numbers: set[str], quantity: float
) -> float:
    seen = set(lemmas)
    score = sum(w for t, w in weights.items() if t in seen)
    score += sum(0.5 * index.idf(n) for n in numbers if n in seen)
    if quantity and any(_NUMBER.match(t) for t in seen):
        score += quantity
    if len(lemmas) < MIN_SENTENCE_TERMS:
        score *= 0.5
    return score


def answer_sentences(index: KnowledgeIndex, parsed: ParsedQuery, features: NodeFeatures) -> str:
    """The sentence(s) of ``features`` that best answer ``parsed``."""
    sentences = features.sentences
    if not sentences:
        return features.text
    weights = {t.text: t.weight * index.idf(t.text) for t in parsed.terms if t.origin != "light"}
    for concept in parsed.concepts:
        for phrase in parsed.concept_phrases.get(concept, ()):
            for term in index.lemmas_of(phrase):
                weights[term] = max(weights.get(term, 0.0), index.idf(term))
    numbers = set(parsed.numbers)
    asks_quantity = any(word.lemma in QUANTITY_WORDS for word in parsed.words)
    quantity = W_QUANTITY * max(weights.values(), default=0.0) if asks_quantity else 0.0
    scores = [_sentence_score(index, lemmas, weights, numbers, quantity) for lemmas in features.sentence_lemmas]
    best = max(range(len(sentences)), key=lambda i: (scores[i], -i))
    chosen = [best]
    # a sentence that announces a list or a condition needs the next one
    if (sentences[best].rstrip().endswith(":") and best + 1 < len(sentences)) or (best + 1 < len(sentences) and scores[best + 1] >= 0.6 * scores[best] > 0):
        chosen.append(best + 1)
    text = " ".join(sentences[i] for i in chosen)
    if len(text) > 600:
        text = text[:600].rsplit(" ", 1)[0] + "…"
    return text


def highlight_numbers(text: str) -> str:
    """``text`` HTML-escaped with numbers and dice notation in ``<b>…</b>``."""
    pattern = re.compile(r"(\d*[DdДд]\d+(?:\s?[+\-]\s?\d+)?|[+\-−]?\d+(?:[.,]\d+)?(?:\+|\"|″|”| ?дюйм\w*)?)")
    parts = pattern.split(text)
    return "".join(f"<b>{html.escape(p, quote=False)}</b>" if i % 2 else html.escape(p, quote=False) for i, p in enumerate(parts))


def other_editions(index: KnowledgeIndex, concepts: Iterable[str], edition: str | None) -> list[dict[str, Any]]:
    """For each specific concept, the first leaf defining it in every edition other than ``edition``.

    Generic concepts («unit», «measuring distances») are skipped: their «definition» in another
    edition says nothing about the question. Each leaf is listed once.
    """
    result: list[dict[str, Any]] = []
    seen: set[str] = set()
    for concept in concepts:
        if index.concept_weight(concept) < OTHER_EDITIONS_MIN_WEIGHT:
            continue
        for other, node_ids in sorted(index.concept_nodes.get(concept, {}).items()):
            if other == edition or not node_ids or node_ids[0] in seen:
                continue
            seen.add(node_ids[0])
            features = index.features[node_ids[0]]
            result.append(
                {
                    "concept": concept,
                    "edition": other,
                    "node_id": features.id,
                    "title": features.heading or features.title,
                    "source_id": features.source_id,
                    "lines": list(features.lines),
                }
            )
    return result


def comparison_parts(index: KnowledgeIndex, parsed: ParsedQuery, hits: Sequence[Hit]) -> list[dict[str, Any]]:
    """For a question comparing editions: the answer sentence of the best hit of each named edition."""
    parts: list[dict[str, Any]] = []
    for edition in parsed.editions:
        hit = next((h for h in hits if h.edition == edition), None)
        if hit is None:
            continue
        features = index.features[hit.node_id]
        text = answer_sentences(index, parsed, features)
        parts.append({"edition": edition, "node_id": hit.node_id, "text": text, "html": highlight_numbers(text)})
    order = {hit.node_id: i for i, hit in enumerate(hits)}
    return sorted(parts, key=lambda part: order[part["node_id"]])


def ask(
    question: str,
    *,
    edition: str | None = None,
    limit: int = 5,
    build_dir: Path | None = None,
    question_id: str | None = None,
    use_faq: bool = True,
    played: str | None = None,
) -> dict[str, Any]:
    """Answer one question; the ``rulekb ask --json`` object (see the module docstring).

    ``played`` is the edition the player plays (``--edition`` sets ``edition``, a filter; the
    environment variable ``RULEKB_EDITION`` or the web's edition choice set ``played``): a question
    naming or implying no edition gets its card in that edition first.
    """
    with stamps_held():  # one answer reads one build, its stamp checked once
        result, context = _ask(question, edition=edition, limit=limit, build_dir=build_dir,
                               question_id=question_id, use_faq=use_faq)
        result["card"] = _card(result, context, played=played, use_faq=use_faq)
    return result


def _card(result: dict[str, Any], context: Any, *, played: str | None, use_faq: bool) -> dict[str, Any]:
    if context is None:
        return empty_card(question_lang(result["question"]))
    index, parsed, hits, matches = context
    if result["answer"] is None and result["faq"] is None:  # no passage answers: the termbase may
        card = terminology_only(index, parsed, result["question"])
        if card is None:
            return empty_card(question_lang(result["question"]))
        return {**card, "played": played if played is not None else default_played(), "related_faq": []}
    if played is None:
        played = default_played()
    card, gates = build_card(index, parsed, result["question"], hits, played=played, use_faq=use_faq,
                             confidence=float(result.get("confidence") or 0.0), faq_matches=matches)
    card["played"] = played
    card["related_faq"] = [related_json(g) for g in gates if not g.leads]
    return card


def default_played() -> str | None:
    """The edition in ``RULEKB_EDITION`` (the player's edition), or ``None``; a bad value is an error."""
    value = os.environ.get("RULEKB_EDITION", "").strip().lower()
    if not value:
        return None
    if value not in EDITIONS:
        raise QueryError(f"RULEKB_EDITION={value!r} is not an edition; use one of {', '.join(EDITIONS)}.")
    return value


def _ask(
    question: str,
    *,
    edition: str | None,
    limit: int,
    build_dir: Path | None,
    question_id: str | None,
    use_faq: bool,
) -> tuple[dict[str, Any], Any]:
    check_limit(limit)
    index = get_index(build_dir)
    parsed = index.parse(question, edition)
    result: dict[str, Any] = {
        "id": question_id,
        "question": question,
        "edition": parsed.edition,
        "editions": list(parsed.editions),
        "concepts": list(parsed.concepts),
        "answer": None,
        "faq": None,
        "other_editions": [],
        "did_you_mean": parsed.did_you_mean,
        "confidence": 0.0,
        "hits": [],
    }
    if parsed.empty:
        return result, None
    hits = search_parsed(index, parsed, max(limit, CARD_DEPTH), snippets=False)
    matches = faq_matches(index, parsed) if use_faq else []
    faq = pick_faq(index, parsed, hits, matches) if use_faq else None
    if faq is not None:
        entry, score, nodes = faq
        hits = faq_hits(index, parsed, hits, nodes, score)
        if parsed.compare and len(parsed.editions) > 1:
            hits = lead_each_edition(hits, parsed.editions)
        result["faq"] = {
            "id": entry.id,
            "question": entry.question,
            "answer": entry.answer,
            "edition": entry.edition,
            "score": round(score, 4),
        }
    if not hits:
        return result, None
    best = index.features[hits[0].node_id]
    confidence = coverage(index, parsed, best)
    result["confidence"] = round(confidence, 4)
    threshold = ANSWER_THRESHOLD_CONCEPT if parsed.concepts else ANSWER_THRESHOLD
    if faq is None and confidence < threshold:
        return result, (index, parsed, [], matches)  # no answer from the text (a terminology card may still be)
    text = answer_sentences(index, parsed, best)
    result["answer"] = {"text": text, "node_id": best.id, "html": highlight_numbers(text)}
    if parsed.compare:
        parts = comparison_parts(index, parsed, hits)
        if len(parts) > 1:  # one answer sentence per compared edition, the best first
            result["answer"]["parts"] = parts
    concepts = parsed.concepts[:3]
    result["other_editions"] = other_editions(index, concepts, best.edition)
    shown = hits[:limit]
    fill_snippets(parsed, shown, index)
    result["hits"] = [hit.to_json() for hit in shown]
    return result, (index, parsed, hits, matches)


def ask_batch(
    rows: Iterable[dict[str, Any]],
    *,
    edition: str | None = None,
    limit: int = 5,
    build_dir: Path | None = None,
    use_faq: bool = True,
    played: str | None = None,
) -> Iterable[dict[str, Any]]:
    """:func:`ask` over ``{"id", "question"}`` rows; a bad row yields an object with ``error``.

    Other fields of a row are ignored (an evaluation row's gold ``edition`` must not filter).
    """
    for row in rows:
        question_id = row.get("id")
        question = row.get("question")
        try:
            if not isinstance(question, str):
                raise QueryError(f"row {question_id!r} has no \"question\" text")
            yield ask(
                question,
                edition=edition,
                limit=limit,
                build_dir=build_dir,
                question_id=None if question_id is None else str(question_id),
                use_faq=use_faq,
                played=played,
            )
        except QueryError as exc:
            yield {"id": question_id, "question": question, "edition": None, "concepts": [], "answer": None,
                   "hits": [], "error": exc.message}
