"""The part a FAQ entry leads: the gate that lets it, its answer with the text's words that rule."""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from rulekb.kb.ask.card_english import english_line
from rulekb.kb.ask.form import second_form
from rulekb.kb.ask.part import MAX_QUOTE, Part, marked_sentences
from rulekb.kb.faq.entries import DEFAULT_THRESHOLD
from rulekb.kb.faq.gate import gate_entry
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.choice import choose
from rulekb.kb.text.verdicts import answer_verdict, yes_no_lead

__all__ = ["english_answer_weights", "faq_gate", "faq_part", "ruling_quote"]


def faq_gate(index: Any, question: str, edition: str, top_ids: Sequence[str], gates: list[Any],
              matches: Sequence[tuple[Any, float]]) -> Any:
    """The first FAQ entry of ``edition`` that passes the gate, or ``None``; every tried one is kept."""
    entries = index.faq
    if not entries:
        return None
    for entry, score in [m for m in matches if m[0].edition == edition][:2]:
        if score < DEFAULT_THRESHOLD:
            break
        gate = gate_entry(entries, entry, score, question, edition, index.faq_leaves.get(entry.id, []), top_ids)
        gates.append(gate)
        if gate.leads:
            return gate
    return None


def faq_part(
    index: Any, gate: Any, marked: dict[str, Any], parsed: Any, question: str, edition: str, top_ids: list[str],
    weights: dict[str, float], numbers: set[str], form: str, lang: str, groups: Any, english: Any,
) -> Part:
    """The part a FAQ entry leads: its answer, with the text's words that rule quoted under it."""
    entry = gate.entry
    cited = [n for n in index.faq_leaves.get(entry.id, []) if n in index.features]
    cited_ranked = sorted(cited, key=lambda n: top_ids.index(n) if n in top_ids else len(top_ids))
    candidates = [(n, index.features[n].kind, marked_sentences(marked, index.features[n])) for n in cited_ranked]
    choice = choose(candidates, weights, numbers, form, groups, second_form(question, form))
    answer = entry.answer_en if lang == "en" and entry.answer_en else entry.answer
    # the entry's own quotes are the words of the text that rule (checked against the lines at build),
    # each widened to its sentence, the one that carries what is asked first
    quotes = [q for c in entry.citations for q in c.quotes]
    sentences = [s for _, _, found in candidates for s in found]
    ruling = ruling_quote(quotes, sentences, choice.text if choice is not None else "", weights)
    lead = None
    in_english = answer is entry.answer_en
    if form == "yesno":  # an opening verdict answering the entry's question, not the opposite one asked
        answer = answer_verdict(answer, question, lang, english)
    if form == "yesno" and not re.match(r"^(да|нет|yes|no)\b", answer.strip(), re.I):
        # an English answer is read by the English question's own words (the weights are Russian)
        answer_weights = english_answer_weights(question) if in_english else weights
        lead = yes_no_lead(answer, lang, answer_weights, question, english) or (
            yes_no_lead(ruling, lang, weights, question, english) if ruling else None)
    if lang == "en" and not entry.answer_en:  # the English lead and terms above our Russian answer
        node = index.features.get(choice.node_id) if choice is not None else None
        concepts = [c for c in parsed.concepts if node is None or c in node.concepts or c in node.defines]
        lead = yes_no_lead(answer, lang, weights) if form == "yesno" else None
        head = english_line(index.build_dir, edition, concepts or list(parsed.concepts), answer, lead)
        text = head.replace(" The ruling, as the Russian text prints it:", " Our answer and the ruling, in Russian:")
        text += "\n" + answer + (f"\n«{ruling}»" if ruling else "")
    else:
        text = (f"{lead} " if lead else "") + answer + (f"\n«{ruling}»" if ruling else "")
    citations = [{"source_id": c.source, "lines": list(c.lines), "quote": " … ".join(c.quotes)}
                 for c in entry.citations]
    node = index.features.get(choice.node_id) if choice is not None else None
    return Part(edition, text, node.id if node else None, list(node.lines) if node else None, "faq", citations)


#: English words that ask or link, not what is asked about.
_ENGLISH_FUNCTION = frozenset({"can", "could", "does", "do", "did", "is", "are", "be", "been", "must", "may", "should",
                               "will", "would", "have", "has", "the", "and", "for", "with", "that", "this", "what",
                               "when", "edition", "still", "into", "from", "their", "there", "they", "then"})


def english_answer_weights(question: str) -> dict[str, float]:
    """The English question's content words, each weighing 1: which sentence of an English answer
    is about what was asked («Only CHARACTERS can be given Enhancements … An EPIC HERO cannot be
    given an Enhancement» for "Can an Epic Hero be given an Enhancement?")."""
    return {t.text: 1.0 for t in tokens(question)
            if len(t.text) > 2 and t.text.isalpha() and t.text not in _ENGLISH_FUNCTION}


def _plain(text: str) -> str:
    """``text`` folded for containment: case, «ё» and runs of spaces do not matter."""
    return " ".join(text.casefold().replace("ё", "е").split())


def _asked_weight(text: str, weights: dict[str, float]) -> float:
    """How much of what is asked ``text`` carries: the weights of the question's terms it holds."""
    # summed in a fixed order: a set's order changes with each process's hash seed, and the float sum with it
    return sum(weights.get(term, 0.0) for term in sorted({t.text for t in tokens(text)}))


def ruling_quote(quotes: Sequence[str], sentences: Sequence[Any], chosen: str, weights: dict[str, float]) -> str:
    """The text's words that rule under a FAQ answer: each of the entry's ``quotes`` widened to the
    cited passage's sentence it lies in (a quote that stops before the sentence's verdict — «…
    проходит все тесты …» of «… и никогда не может получить маркер» — loses what the question asks),
    the sentence ``chosen`` by the question's terms among the cited passages added where no quote
    holds it, and the piece that carries most of the question's ``weights`` first, so that the
    cut at :data:`MAX_QUOTE` never drops it. The entry's order stands between equal pieces."""
    pieces: list[str] = []
    folded = [(_plain(s.text), s.text) for s in sentences if len(s.text) <= MAX_QUOTE]
    for quote in quotes:
        plain = _plain(quote)
        widened = next((text for whole, text in folded if plain in whole), quote)
        if not any(_plain(widened) in _plain(p) for p in pieces):
            pieces.append(widened)
    held = any(_plain(chosen) in _plain(p) or _plain(p) in _plain(chosen) for p in pieces)
    if chosen and (not pieces or (len(chosen) <= MAX_QUOTE and not held)):
        pieces.append(chosen)
    pieces = sorted(pieces, key=lambda p: -_asked_weight(p, weights))
    ruling = " … ".join(pieces)
    if len(ruling) > MAX_QUOTE:
        ruling = ruling[:MAX_QUOTE].rsplit(" ", 1)[0].rstrip(" …") + "…"
    return ruling


def beside_faq(index: Any, marked: dict[str, Any], parsed: Any, question: str, parts: list[Part],
               gates: Sequence[Any], weights: dict[str, float], numbers: set[str], form: str, lang: str) -> list[Part]:
    """The other editions' parts next to a FAQ part, their ruling read for what the entry answers:
    each text part's edition is read in the passages that edition gives to the concepts the entry's
    cited passages carry and the question names (the aspect the entry answers — «связанные боем»
    for a question on shooting in combat — not the words shared with the melee weapon rules)."""
    from rulekb.kb.ask.card_editions import OTHER_EDITIONS_MIN_WEIGHT
    from rulekb.kb.ask.card_parts import ruling_part  # card_parts reads this module at import

    faq_editions = {p.edition for p in parts if p.source == "faq"}
    led = [g.entry for g in gates if g.leads and g.entry.edition in faq_editions]
    if not led or all(p.source == "faq" for p in parts):
        return parts
    cited = [index.features[n] for n in index.faq_leaves.get(led[0].id, []) if n in index.features]
    carried = {c for f in cited for c in (*f.defines, *f.concepts)}
    aspect = [c for c in parsed.concepts if c in carried and index.concept_weight(c) >= OTHER_EDITIONS_MIN_WEIGHT]
    out: list[Part] = []
    for part in parts:
        own = index.features.get(part.node_id) if part.node_id else None
        if own is not None and set(aspect) & {*own.defines, *own.concepts}:
            out.append(part)  # its passage already rules on the aspect («Отступающая … только навскидку»)
            continue
        nodes = [] if part.source != "text" else list(dict.fromkeys(
            n for c in aspect for n in index.concept_nodes.get(c, {}).get(part.edition, [])[:1]))
        hits = [SimpleNamespace(node_id=n, kind=index.features[n].kind, edition=part.edition)
                for n in nodes if n in index.features]
        redone = ruling_part(index, marked, parsed, question, part.edition, hits, weights, numbers, form, lang,
                             False, []) if hits and part.node_id not in nodes else None
        out.append(redone or part)
    return out
