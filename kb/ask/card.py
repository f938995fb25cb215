"""The answer card: what a player reads first, composed from the ask result.

:func:`compose_card` returns the ``card`` object of the ``rulekb ask --json`` contract::

    {"kind": "ruling" | "terminology" | "comparison" | "none", "lang": "ru" | "en",
     "text": "...",                 # what the player reads first
     "edition": "10" | null,        # the edition it answers; null when it answers several
     "per_edition": [{"edition", "text", "node_id", "lines"}],
     "source": "faq" | "text" | "termbase" | "engine" | null,
     "citations": [{"source_id", "lines", "quote"}],
     "confidence": 0.0 … 1.0}

The web's answer card renders exactly this object.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulekb.corpus.editions import default_edition, display_rank
from rulekb.kb.ask.card_asked import with_asked_aspects
from rulekb.kb.ask.card_aspect import with_same_aspects
from rulekb.kb.ask.card_compare import compared_terms, engine_line, what_changed, with_second_ruling
from rulekb.kb.ask.card_editions import (
    CONFIRM_HITS,
    PER_EDITION_SHARE,
    compared_passages,
    concept_filter,
    confirmed_editions,
    defining_editions,
    named_editions,
    unmarked_editions,
    with_defining,
)
from rulekb.kb.ask.card_faq import beside_faq
from rulekb.kb.ask.card_parts import Part, ruling_part
from rulekb.kb.ask.card_sections import with_section_names
from rulekb.kb.ask.card_terms import asked_editions, pick_concepts, terminology_card
from rulekb.kb.ask.faq_pick import screen_matches
from rulekb.kb.ask.form import (
    compared_form,
    concept_editions,
    edition_vocabulary,
    implied_editions,
    listed_editions,
    older_editions_asked,
    question_form,
    vocabulary_editions,
)
from rulekb.kb.ask.labels import edition_label, question_lang
from rulekb.kb.faq.entries import match_faq
from rulekb.kb.search.searcher import search_parsed
from rulekb.kb.text.analysis import lemmas as lemmas_of
from rulekb.kb.text.sentences import load_marked
from rulekb.kb.text.vocabulary import LIGHT_WORDS, RENDERING_WEIGHT

__all__ = ["PER_EDITION_SHARE", "build_card", "compose_card", "edition_label", "empty_card", "question_lang",
           "terminology_only"]


def empty_card(lang: str = "ru") -> dict[str, Any]:
    """The card when the texts are silent on the question."""
    text = "Answer not found in the rules." if lang == "en" else "Ответ не найден: в правилах нет подходящего места."
    return {
        "kind": "none",
        "lang": lang,
        "text": text,
        "edition": None,
        "per_edition": [],
        "source": None,
        "citations": [],
        "confidence": 0.0,
    }


def per_edition_text(parts: Sequence[dict[str, Any]], lang: str) -> str:
    """Each edition's text, labelled, one after another (the first leads)."""
    return "\n".join(f"{edition_label(str(p['edition']), lang)}: {p['text']}" for p in parts)


def compose_card(result: dict[str, Any], faq_citations: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The card of an ask ``result`` as it stands: the FAQ answer when one matched, else the
    answer sentence; one part per edition when the answer has parts."""
    lang = question_lang(str(result.get("question") or ""))
    answer = result.get("answer")
    faq = result.get("faq")
    if answer is None and faq is None:
        return empty_card(lang)
    hits = result.get("hits") or []
    by_id = {hit["node_id"]: hit for hit in hits}
    card = empty_card(lang)
    card["confidence"] = float(result.get("confidence") or 0.0)
    parts = (answer or {}).get("parts") or []
    if faq is not None and not parts:
        card.update(kind="ruling", text=str(faq["answer"]), edition=faq["edition"], source="faq")
        card["citations"] = [
            {"source_id": c["source"], "lines": list(c["lines"]), "quote": " … ".join(c["quotes"])}
            for c in faq_citations
        ]
        card["confidence"] = float(faq.get("score") or card["confidence"])
        return card
    assert answer is not None
    if parts:
        per = []
        for part in parts:
            hit = by_id.get(part["node_id"])
            per.append({"edition": part["edition"], "text": part["text"], "node_id": part["node_id"],
                        "lines": list(hit["lines"]) if hit else None})
        card.update(kind="comparison", text=per_edition_text(per, lang), edition=None, per_edition=per, source="text")
        card["citations"] = [
            {"source_id": by_id[p["node_id"]]["source_id"], "lines": p["lines"], "quote": p["text"]}
            for p in per if p["node_id"] in by_id
        ]
        return card
    top = by_id.get(answer["node_id"])
    card.update(kind="ruling", text=str(answer["text"]), edition=top["edition"] if top else None, source="text")
    if top is not None:
        card["per_edition"] = [{"edition": top["edition"], "text": answer["text"], "node_id": top["node_id"],
                                "lines": list(top["lines"])}]
        card["citations"] = [{"source_id": top["source_id"], "lines": list(top["lines"]), "quote": answer["text"]}]
    return card


# --- composing the card from the question (the card of ``rulekb ask``) ---------------------------

#: At most this many editions on one card.
MAX_PARTS = 3


def _weights(index: Any, parsed: Any) -> dict[str, float]:
    """The question's terms, weighted, that a ruling sentence should carry. A concept named in a
    phrase the texts never print («летал хитс» for Lethal Hits) counts by its renderings only: the
    phrase's own words are false friends there («летал» → «летать», the rule for flying)."""
    foreign: set[str] = set()
    for concept in parsed.concepts:
        for phrase in parsed.concept_phrases.get(concept, ()):
            lemmas = index.lemmas_of(phrase)
            if any(term not in index.vocabulary for term in lemmas):  # the words the texts do print
                foreign |= {term for term in lemmas if term in index.vocabulary}
    false_friends = {a for word in parsed.words if word.concept and word.lemma in foreign for a in word.alternatives}
    weights = {t.text: t.weight * index.idf(t.text) for t in parsed.terms
               if t.origin != "light" and not (t.origin in ("word", "synonym") and t.text in false_friends)}
    for concept in parsed.concepts:
        for phrase in parsed.concept_phrases.get(concept, ()):
            for term in index.lemmas_of(phrase):
                if term not in foreign:
                    weights[term] = max(weights.get(term, 0.0), index.idf(term))
        printed = index.matcher.rendering_lemmas(concept)
        if printed and not printed & set(weights):
            # a concept the query parser gave no rendering («твин-линк»): its ruling prints the renderings
            for term in printed - LIGHT_WORDS:
                weights[term] = RENDERING_WEIGHT * index.idf(term)
    return weights


def build_card(
    index: Any,
    parsed: Any,
    question: str,
    hits: Sequence[Any],
    *,
    played: str | None = None,
    use_faq: bool = True,
    confidence: float = 0.0,
    faq_matches: Sequence[tuple[Any, float]] | None = None,
) -> tuple[dict[str, Any], list[Any]]:
    """The card for ``question`` and the FAQ gates tried (each entry that matched, leading or not)."""
    build_dir: Path = index.build_dir
    lang = question_lang(question)
    # «книги 6-й и 10-й редакции»: every edition of a list before «редакция», not only the last
    named = named_editions(parsed, question, listed_editions(question), hits)
    form = question_form(question, parsed.compare, len(named))
    implied = [] if named else _implied(build_dir, parsed, hits)
    if form == "terminology":
        card = _terms_asked(build_dir, parsed, question, named, implied, lang)
        if card is not None:
            return card, []
    by_edition: dict[str, list[Any]] = {}
    for hit in hits:
        by_edition.setdefault(hit.edition, []).append(hit)
    comparison = form == "comparison"
    editions = _editions(index, parsed, hits, by_edition, named, implied, played, comparison)
    if faq_matches is None and use_faq and index.faq:
        faq_matches = match_faq(parsed.cleaned, index.faq, limit=10)
    # the entries that ask another thing than the question never reach the gate (kept as related)
    faq_matches, screened = screen_matches(index, question, form, hits, faq_matches or []) if use_faq else ([], [])
    gates: list[Any] = []
    parts = _parts(index, parsed, question, editions, by_edition, named + implied, form, lang, use_faq, gates,
                   faq_matches)
    if not parts:
        return empty_card(lang), screened + gates
    card = _assemble(parts, parsed.concepts, question, form, lang, comparison, build_dir)
    card["confidence"] = round(float(confidence), 4)
    if parts[0].source == "faq":
        card["confidence"] = round(max(card["confidence"], next((g.score for g in gates if g.leads), 0.0)), 4)
    return card, screened + gates


def _terms_asked(build_dir: Path, parsed: Any, question: str, named: list[str], implied: list[str],
                 lang: str) -> dict[str, Any] | None:
    """The terminology card of a terminology question, in the books it asks (``None``: no term found)."""
    older = older_editions_asked(question)
    asked = list(dict.fromkeys(older + named)) if older else asked_editions(question, named) or implied
    card = _terminology(build_dir, question, parsed.concepts, asked, lang, parsed.concept_phrases)
    if card is not None:
        card["form"] = "terminology"
    return card


def terminology_only(index: Any, parsed: Any, question: str) -> dict[str, Any] | None:
    """The card of a terminology question no passage covers well enough to answer from (its words
    are about the books: "Translator check: what Russian names do these texts give to …"): the
    termbase answers it, as it does any terminology question; ``None`` for any other question."""
    named = named_editions(parsed, question, listed_editions(question))
    if question_form(question, parsed.compare, len(named)) != "terminology":
        return None
    return _terms_asked(index.build_dir, parsed, question, named, [], question_lang(question))


def _implied(build_dir: Path, parsed: Any, hits: Sequence[Any]) -> list[str]:
    """The editions an unnamed question implies: the older books' own wording first (the termbase may
    miss an older rendering of a concept), then concepts printed in one edition's books only."""
    worded = vocabulary_editions(lemmas_of(parsed.cleaned), edition_vocabulary(build_dir))
    ranked = [h.edition for h in hits[:CONFIRM_HITS]]
    worded = confirmed_editions(worded, [h.edition for h in hits], CONFIRM_HITS)
    implied = implied_editions(parsed.concepts, concept_editions(build_dir), parsed.concept_share)
    if worded and implied and not set(worded) & set(implied) and ranked and ranked[0] in implied:
        # the words point to one book, a concept printed in another book only points there, and
        # retrieval ranks that other book first: the concept's book (a Kill Team banner «к результату боя»)
        return implied
    if worded and implied and not set(worded) & set(implied):
        # the words point to one book, a concept printed only in another: the question is not one
        # book's, so each gets its card rather than one chosen silently
        return sorted(set(worded) | set(implied), key=display_rank)
    if worded:
        return worded
    if implied and ranked and not set(implied) & set(ranked):
        return []  # concepts printed in one book only, but every top passage is another book's
    if implied == [default_edition()]:
        return []  # the default edition's own concepts: an unmarked question, older books' parts allowed
    return implied


def _terminology(build_dir: Path, question: str, concepts: Sequence[str], editions: Sequence[str],
                 lang: str, phrases_of: dict[str, Sequence[str]] | None = None) -> dict[str, Any] | None:
    """The terminology card: each term asked, its renderings per book, one term after another."""
    cards = [c for c in (terminology_card(build_dir, concept, editions, lang)
                         for concept in pick_concepts(build_dir, question, concepts, phrases_of)) if c is not None]
    if not cards:
        return None
    card = cards[0]
    if len(cards) > 1:
        books = {p["edition"] for c in cards for p in c["per_edition"]}
        card = {**card, "text": "\n\n".join(c["text"] for c in cards),
                "per_edition": [p for c in cards for p in c["per_edition"]],
                "citations": [x for c in cards for x in c["citations"]],
                "edition": next(iter(books)) if len(books) == 1 else None,
                "concepts": [c["concept"] for c in cards]}
    return card


def _editions(index: Any, parsed: Any, hits: Sequence[Any], by_edition: dict[str, list[Any]], named: list[str],
              implied: list[str], played: str | None, comparison: bool) -> list[str]:
    """The editions the card answers, in the order their parts are shown."""
    if comparison:
        default = default_edition()
        editions = list(dict.fromkeys(named + ([default] if len(named) < 2 else [])))
        if not named:  # «как изменился …?»: every edition whose books define the mechanic
            having = defining_editions(index, parsed.concepts)
            if len(having) >= 2:
                lead = played or default
                editions = sorted(having, key=lambda e: (e != lead, display_rank(e)))
        return editions if len(editions) >= 2 else list(by_edition)[:2]
    if named:
        return [named[0]]
    if implied:  # the words fit several older books: each that has the rule, labelled
        return [e for e in implied if e in by_edition] or implied[:1]
    return unmarked_editions(hits, by_edition, played, concept_filter(index, parsed))


def _parts(index: Any, parsed: Any, question: str, editions: Sequence[str], by_edition: dict[str, list[Any]],
           asked: Sequence[str], form: str, lang: str, use_faq: bool, gates: list[Any],
           faq_matches: Sequence[tuple[Any, float]]) -> list[Part]:
    """One part per edition that has a ruling (an edition asked for is searched on its own)."""
    marked = load_marked(index.build_dir)
    weights = _weights(index, parsed)
    numbers = set(parsed.numbers)
    comparison = form == "comparison"
    if comparison:  # what each edition's sentence must carry is the mechanic, not «чем отличается … в 6-й»
        weights, numbers = compared_terms(parsed, question, weights, numbers)
    parts: list[Part] = []
    read: dict[str, list[Any]] = {}  # each edition's passages as its part read them
    for edition in editions[:MAX_PARTS]:
        edition_hits = by_edition.get(edition) or []
        if not edition_hits and (edition in asked or comparison):
            edition_hits = [h for h in search_parsed(index, index.parse(question, edition), 5, snippets=False)
                            if h.edition == edition]
        ranked = with_defining(index, parsed.concepts, edition, edition_hits) if comparison else edition_hits
        if not ranked:
            continue
        part = ruling_part(index, marked, parsed, question, edition, ranked, weights, numbers, form, lang,
                           use_faq, gates, faq_matches)
        if comparison and (part is None or part.source == "text"):
            # the FAQ gate read the edition's passages as retrieval ranks them; the ruling from the text
            # reads the compared mechanic's own passages second and third
            edition_hits = compared_passages(index, parsed, question, edition, ranked)
            if [h.node_id for h in edition_hits[:3]] != [h.node_id for h in ranked[:3]]:  # the part reads three
                part = ruling_part(index, marked, parsed, question, edition, edition_hits, weights, numbers, form,
                                   lang, False, [], ()) or part
        else:
            edition_hits = ranked
        if part is not None and comparison:
            part = with_second_ruling(index, marked, part, edition_hits, weights, numbers, form,
                                      compared_form(question))
            part = with_section_names(index, part, parsed.concepts)
        if part is not None:
            parts.append(part)
            read[edition] = list(edition_hits)
    if comparison and len(parts) > 1:  # each edition's part states the kind of measure the others state
        parts = with_same_aspects(index, marked, parts, read, weights, numbers)
        parts = with_asked_aspects(index, marked, parsed, parts, read, weights)  # and rules on what is asked
    return parts if comparison else beside_faq(index, marked, parsed, question, parts, gates, weights,
                                               numbers, form, lang)


def _assemble(parts: Sequence[Part], concepts: Sequence[str], question: str, form: str, lang: str,
              comparison: bool, build_dir: Path | None = None) -> dict[str, Any]:
    """The card of its parts: one ruling, a ruling per edition, or a comparison with what changed."""
    card = empty_card(lang)
    card["form"] = form
    if comparison and len(parts) > 1:
        texts = [_labelled(p, lang) for p in parts]
        changed = what_changed(parts, lang, build_dir)
        engine = engine_line(concepts, [p.edition for p in parts], question, lang)
        card.update(kind="comparison", text="\n".join(texts + [changed] + ([engine] if engine else [])),
                    edition=None, source=parts[0].source)
        if engine:
            card["engine"] = engine
    elif len(parts) > 1:
        card.update(kind="ruling", text="\n".join(_labelled(p, lang) for p in parts),
                    edition=None, source=parts[0].source)
    else:
        part = parts[0]
        card.update(kind="ruling", text=part.text, edition=part.edition, source=part.source)
    card["per_edition"] = [p.to_json() for p in parts]
    card["citations"] = [c for p in parts for c in p.citations]
    return card


def _labelled(part: Part, lang: str) -> str:
    """A part's text after its edition's label (an English part's lead line already starts with it)."""
    label = edition_label(part.edition, lang)
    return part.text if part.text.startswith(label) else f"{label}: {part.text}"
