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

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["EDITION_LABELS", "PER_EDITION_SHARE", "build_card", "compose_card", "edition_label", "empty_card",
           "question_lang"]

EDITION_LABELS: dict[str, dict[str, str]] = {
    "ru": {"10": "10-я редакция", "6": "6-я редакция", "7": "7-я редакция", "kt": "Kill Team"},
    "en": {"10": "10th edition", "6": "6th edition", "7": "7th edition", "kt": "Kill Team"},
}

_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def question_lang(question: str) -> str:
    """``"en"`` when the question is written mostly in Latin letters, else ``"ru"``."""
    latin = len(_LATIN.findall(question))
    cyrillic = len(_CYRILLIC.findall(question))
    return "en" if latin > cyrillic else "ru"


def edition_label(edition: str, lang: str = "ru") -> str:
    return EDITION_LABELS.get(lang, EDITION_LABELS["ru"]).get(edition, edition)


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

#: With no edition named or implied, another edition's best passage scoring at least this share of
#: the first hit's score gets a part of its own (the mechanic exists there too).
PER_EDITION_SHARE = 0.7
#: Longest quote of a FAQ entry's cited text on its card.
MAX_QUOTE = 500
#: At most this many editions on one card.
MAX_PARTS = 3
#: The edition a player is assumed to play when they have not said.
DEFAULT_EDITION = "10"
#: An edition the question's words imply must have a passage among this many first hits.
CONFIRM_HITS = 3
#: Question words that ask nothing (their weight is not a term to find in the ruling).
_ORDER = ("10", "6", "7", "kt")


@dataclass
class Part:
    edition: str
    text: str
    node_id: str | None
    lines: list[int] | None
    source: str
    citations: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "text": self.text, "node_id": self.node_id, "lines": self.lines,
                "source": self.source}


def _weights(index: Any, parsed: Any) -> dict[str, float]:
    weights = {t.text: t.weight * index.idf(t.text) for t in parsed.terms if t.origin != "light"}
    for concept in parsed.concepts:
        for phrase in parsed.concept_phrases.get(concept, ()):
            for term in index.lemmas_of(phrase):
                weights[term] = max(weights.get(term, 0.0), index.idf(term))
    return weights


def _numbers_in(text: str) -> list[str]:
    """Numbers of ``text`` with their units, inches written ``N″`` (the rulebooks' English notation)."""
    from rulekb.kb.text.sentences import _UNIT

    return list(dict.fromkeys(_inches(m.group(0).strip()) for m in _UNIT.finditer(text)))


_MEASURED = re.compile(
    r"(\d+(?:[.,]\d+)?(?:-?х)?\s*(?:\"|″|”|“|дюйм\w*)|\d*\s*[DdДд]\s*\d+(?:\s*[+\-]\s*\d+)?|\b\d\+|(?<![\w+\-])[+\-−]\d\b"
    r"|(?:добав\w*|прибав\w*|увелич\w*\s+на)\s+\d+|(?:вычт\w*|отним\w*|уменьш\w*\s+на|ухудш\w*\s+на)\s+\d+)",
    re.IGNORECASE,
)


def _inches(value: str) -> str:
    """``3 дюйма``, ``3х дюймов``, ``3"`` → ``3″``; «добавьте 1» → ``+1``; «вычтите 1» → ``-1``."""
    value = re.sub(r"^(?:добав\w*|прибав\w*|увелич\w*\s+на)\s+(\d+)$", r"+\1", value, flags=re.I)
    value = re.sub(r"^(?:вычт\w*|отним\w*|уменьш\w*\s+на|ухудш\w*\s+на)\s+(\d+)$", r"-\1", value, flags=re.I)
    return re.sub(r"^(\d+(?:[.,]\d+)?)(?:-?х)?\s*(?:\"|″|”|“|дюйм\w*)$", r"\1″", value)


#: Numbers the rulings write in words («три юнита», «шести кубиков»), as numerals.
_NUMBER_WORDS = {
    "два": "2", "две": "2", "двух": "2", "двум": "2", "три": "3", "трех": "3", "трём": "3", "трем": "3",
    "трёх": "3", "четыре": "4", "четырех": "4", "четырёх": "4", "пять": "5", "пяти": "5", "шесть": "6",
    "шести": "6", "семь": "7", "семи": "7", "восемь": "8", "восьми": "8", "девять": "9", "девяти": "9",
    "десять": "10", "десяти": "10", "двенадцать": "12", "двенадцати": "12",
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.I)


def _measures(ruling: str) -> list[str]:
    """The measures a ruling states, then the numbers it writes in words, each once."""
    found = [_inches(m.group(0).strip()) for m in _MEASURED.finditer(ruling)]
    found += [_NUMBER_WORDS[m.group(1).lower()] for m in _NUMBER_WORD.finditer(ruling)]
    return list(dict.fromkeys(found))


def number_lead(ruling: str) -> str | None:
    """For a how-far / how-many question: the measures the ruling states (``9″``, ``2D6``, ``3+``, ``+1``)."""
    found = _measures(ruling)
    if not found:
        return None
    return ", ".join(found[:2])


def _english_line(build_dir: Path, edition: str, concepts: Sequence[str], ruling: str, lead: str | None) -> str:
    from rulekb.kb.ask.card_terms import english_name

    names = [n for n in (english_name(build_dir, c) for c in concepts[:3]) if n]
    # the terms the ruling itself uses, in the termbase's English names («Snap Shots», «Desperate Escape»)
    for concept in ruling_concepts(ruling):
        name = english_name(build_dir, concept)
        if name and name not in names and len(names) < MAX_ENGLISH_NAMES:
            names.append(name)
    numbers = _measures(ruling)[:4]
    line = f"{edition_label(edition, 'en')}"
    if names:
        line += " — " + ", ".join(names)
    if numbers:
        line += ": " + ", ".join(numbers)
    line += "."
    if lead:
        line = f"{lead} {line}"
    return line + " The ruling, as the Russian text prints it:"


#: At most this many English term names on an English card's lead line.
MAX_ENGLISH_NAMES = 6


def ruling_concepts(ruling: str) -> list[str]:
    """The termbase concepts a ruling's Russian words name, in text order."""
    from rulekb.kb.search.index import _concepts_in
    from rulekb.kb.search.query import default_matcher

    return _concepts_in(default_matcher(), ruling)


def _marked(marked: dict[str, Any], features: Any) -> Any:
    from rulekb.kb.text.sentences import Sentence, mark_sentences

    found = marked.get(features.id)
    if found is not None:
        return found
    from rulekb.kb.text.analysis import tokens

    return tuple(Sentence(s, m, tuple(t.text for t in tokens(s))) for s, m in mark_sentences(features.sentences, features.kind))


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
    from rulekb.kb.ask.card_terms import pick_concepts, terminology_card
    from rulekb.kb.ask.form import (
        concept_editions,
        edition_vocabulary,
        implied_editions,
        question_form,
        vocabulary_editions,
    )
    from rulekb.kb.text.sentences import load_marked

    build_dir: Path = index.build_dir
    lang = question_lang(question)
    form = question_form(question, parsed.compare, len(parsed.editions))
    named = list(parsed.editions)
    implied: list[str] = []
    if not named:
        from rulekb.kb.text.analysis import lemmas as lemmas_of

        # the older books' own wording first (the termbase may miss an older rendering of a concept),
        # then concepts printed in one edition's books only
        implied = vocabulary_editions(lemmas_of(parsed.cleaned), edition_vocabulary(build_dir))
        ranked = [h.edition for h in hits[:CONFIRM_HITS]]
        implied = confirmed_editions(implied, [h.edition for h in hits], CONFIRM_HITS)
        if not implied:
            implied = implied_editions(parsed.concepts, concept_editions(build_dir), parsed.concept_share)
            if implied and ranked and not set(implied) & set(ranked):
                implied = []  # concepts printed in one book only, but every top passage is another book's
            if implied == [DEFAULT_EDITION]:
                implied = []  # the 10th's own concepts: an unmarked question, older books' parts allowed
    wanted = named or implied
    if form == "terminology":
        cards = [c for c in (terminology_card(build_dir, concept, wanted, lang)
                             for concept in pick_concepts(build_dir, question, parsed.concepts)) if c is not None]
        if cards:
            card = cards[0]
            if len(cards) > 1:  # several terms asked: each term's renderings, one after another
                books = {p["edition"] for c in cards for p in c["per_edition"]}
                card = {**card, "text": "\n\n".join(c["text"] for c in cards),
                        "per_edition": [p for c in cards for p in c["per_edition"]],
                        "citations": [x for c in cards for x in c["citations"]],
                        "edition": next(iter(books)) if len(books) == 1 else None,
                        "concepts": [c["concept"] for c in cards]}
            card["form"] = form
            return card, []
    by_edition: dict[str, list[Any]] = {}
    for hit in hits:
        by_edition.setdefault(hit.edition, []).append(hit)
    comparison = form == "comparison"
    if comparison:
        editions = list(dict.fromkeys(named + ([DEFAULT_EDITION] if len(named) < 2 else [])))
        if not named:  # «как изменился …?»: every edition whose books define the mechanic
            having = _defining_editions(index, parsed.concepts)
            if len(having) >= 2:
                lead = played or DEFAULT_EDITION
                editions = sorted(having, key=lambda e: (e != lead, _ORDER.index(e) if e in _ORDER else 9))
        if len(editions) < 2:
            editions = [e for e in by_edition][:2]
    elif named:
        editions = [named[0]]
    elif implied:  # the words fit several older books: each that has the rule, labelled
        editions = [e for e in implied if e in by_edition] or implied[:1]
    else:
        editions = _unmarked_editions(hits, by_edition, played, _concept_filter(index, parsed))
    marked = load_marked(build_dir)
    weights = _weights(index, parsed)
    numbers = set(parsed.numbers)
    gates: list[Any] = []
    parts: list[Part] = []
    if faq_matches is None and use_faq and index.faq:
        from rulekb.kb.faq.entries import match_faq

        faq_matches = match_faq(parsed.cleaned, index.faq, limit=10)
    for edition in editions[:MAX_PARTS]:
        edition_hits = by_edition.get(edition) or []
        if not edition_hits and (edition in named or edition in implied or comparison):
            from rulekb.kb.search.searcher import search_parsed

            edition_hits = [h for h in search_parsed(index, index.parse(question, edition), 5, snippets=False)
                            if h.edition == edition]
        if comparison:
            edition_hits = _with_defining(index, parsed.concepts, edition, edition_hits)
        if not edition_hits:
            continue
        part_form = form
        part = _ruling_part(index, marked, parsed, question, edition, edition_hits, weights, numbers, part_form, lang,
                            use_faq, gates, faq_matches or [])
        if part is not None:
            parts.append(part)
    if not parts:
        return empty_card(lang), gates
    card = empty_card(lang)
    card["confidence"] = round(float(confidence), 4)
    card["form"] = form
    if comparison and len(parts) > 1:
        texts = [f"{edition_label(p.edition, lang)}: {p.text}" for p in parts]
        changed = _what_changed(parts, lang)
        engine = _engine_line(parsed.concepts, [p.edition for p in parts], question, lang)
        card.update(kind="comparison", text="\n".join(texts + [changed] + ([engine] if engine else [])),
                    edition=None, source=parts[0].source)
        if engine:
            card["engine"] = engine
    elif len(parts) > 1:
        card.update(kind="ruling", text="\n".join(f"{edition_label(p.edition, lang)}: {p.text}" for p in parts),
                    edition=None, source=parts[0].source)
    else:
        part = parts[0]
        card.update(kind="ruling", text=part.text, edition=part.edition, source=part.source)
    card["per_edition"] = [p.to_json() for p in parts]
    card["citations"] = [c for p in parts for c in p.citations]
    if parts[0].source == "faq":
        card["confidence"] = round(max(card["confidence"], gates[0].score if gates else 0.0), 4)
    return card, gates


def confirmed_editions(implied: Sequence[str], ranked: Sequence[str], confirm: int = CONFIRM_HITS) -> list[str]:
    """The editions the question's words imply, as retrieval confirms them: none unless one has a
    passage among the ``confirm`` first hits (a word one book happens to print, «край стола», implies
    nothing on its own), those retrieval ranks first leading. With no hits the words decide."""
    if not ranked:
        return list(implied)
    if not set(implied) & set(ranked[:confirm]):
        return []
    rank = {e: i for i, e in reversed(list(enumerate(ranked)))}
    return sorted(implied, key=lambda e: rank.get(e, len(ranked)))


@dataclass(frozen=True)
class _Defining:
    """A concept's defining passage standing in for a hit (it has what ``_ruling_part`` reads)."""

    node_id: str
    kind: str
    edition: str


def _defining_editions(index: Any, concepts: Sequence[str]) -> list[str]:
    """The editions whose books define the question's most specific concept that any book defines."""
    from rulekb.kb.ask.answer import OTHER_EDITIONS_MIN_WEIGHT

    specific = sorted((c for c in concepts if index.concept_weight(c) >= OTHER_EDITIONS_MIN_WEIGHT),
                      key=lambda c: -index.concept_weight(c))
    for concept in specific:
        found = [e for e, ids in index.concept_nodes.get(concept, {}).items() if ids]
        if found:
            return found
    return []


def _with_defining(index: Any, concepts: Sequence[str], edition: str, hits: Sequence[Any]) -> list[Any]:
    """For one edition's part of a comparison: the defining passage of the question's most specific
    concept in that edition first (the termbase's curated definitions), then the edition's hits."""
    from rulekb.kb.ask.answer import OTHER_EDITIONS_MIN_WEIGHT

    specific = sorted((c for c in concepts if index.concept_weight(c) >= OTHER_EDITIONS_MIN_WEIGHT),
                      key=lambda c: -index.concept_weight(c))
    for concept in specific:
        node_ids = [n for n in index.concept_nodes.get(concept, {}).get(edition, []) if n in index.features]
        if node_ids:
            features = index.features[node_ids[0]]
            lead = _Defining(features.id, features.kind, edition)
            return [lead] + [h for h in hits if h.node_id != lead.node_id]
    return list(hits)


def _concept_filter(index: Any, parsed: Any) -> Any:
    """Whether a passage is about the question's mechanic: it names one of the question's concepts
    (any passage passes when the question names none)."""
    wanted = set(parsed.concepts)

    def about(node_id: str) -> bool:
        if not wanted:
            return True
        features = index.features.get(node_id)
        return features is not None and bool(wanted & (set(features.concepts) | set(features.defines)))

    return about


def _unmarked_editions(hits: Sequence[Any], by_edition: dict[str, list[Any]], played: str | None,
                       about: Any = None) -> list[str]:
    """Editions for a question naming or implying none: those whose best passage scores close to the
    first hit's and is about the question's mechanic, the player's edition (else the 10th) first."""
    if not hits:
        return []
    top = hits[0].score or 1.0
    close = [e for e, eh in by_edition.items()
             if eh[0].score >= PER_EDITION_SHARE * top and (about is None or e == hits[0].edition or about(eh[0].node_id))]
    lead = played or DEFAULT_EDITION
    if lead in close:
        return [lead] + [e for e in close if e != lead]
    # the player's edition is far behind: its nearest rule follows the book that has the mechanic
    if lead in by_edition and by_edition[lead][0].score >= 0.3 * top:
        close.append(lead)
    return close


def _ruling_part(
    index: Any, marked: dict[str, Any], parsed: Any, question: str, edition: str, hits: Sequence[Any],
    weights: dict[str, float], numbers: set[str], form: str, lang: str, use_faq: bool, gates: list[Any],
    matches: Sequence[tuple[Any, float]] = (),
) -> Part | None:
    from rulekb.kb.text.sentences import choose, only_one_denies, yes_no_lead

    top_ids = [h.node_id for h in hits]
    gate = _faq_gate(index, question, edition, top_ids, gates, matches) if use_faq else None
    if gate is not None:
        entry = gate.entry
        cited = [n for n in index.faq_leaves.get(entry.id, []) if n in index.features]
        cited_ranked = sorted(cited, key=lambda n: top_ids.index(n) if n in top_ids else len(top_ids))
        candidates = [(n, index.features[n].kind, _marked(marked, index.features[n])) for n in cited_ranked]
        choice = choose(candidates, weights, numbers, form)
        answer = entry.answer_en if lang == "en" and entry.answer_en else entry.answer
        # the entry's own quotes are the words of the text that rule (checked against the lines at build)
        quotes = [q for c in entry.citations for q in c.quotes]
        ruling = " … ".join(quotes) if quotes else (choice.text if choice is not None else "")
        if len(ruling) > MAX_QUOTE:
            ruling = ruling[:MAX_QUOTE].rsplit(" ", 1)[0] + "…"
        lead = None
        if form == "yesno" and not re.match(r"^(да|нет|yes|no)\b", answer.strip(), re.I):
            lead = yes_no_lead(answer, lang, weights) or (yes_no_lead(ruling, lang, weights) if ruling else None)
        if lang == "en" and not entry.answer_en:  # the English lead and terms above our Russian answer
            node = index.features.get(choice.node_id) if choice is not None else None
            concepts = [c for c in parsed.concepts if node is None or c in node.concepts or c in node.defines]
            lead = yes_no_lead(answer, lang, weights) if form == "yesno" else None
            head = _english_line(index.build_dir, edition, concepts or list(parsed.concepts), answer, lead)
            text = head.replace(" The ruling, as the Russian text prints it:", " Our answer and the ruling, in Russian:")
            text += "\n" + answer + (f"\n«{ruling}»" if ruling else "")
        else:
            text = (f"{lead} " if lead else "") + answer + (f"\n«{ruling}»" if ruling else "")
        citations = [{"source_id": c.source, "lines": list(c.lines), "quote": " … ".join(c.quotes)}
                     for c in entry.citations]
        node = index.features.get(choice.node_id) if choice is not None else None
        return Part(edition, text, node.id if node else None, list(node.lines) if node else None, "faq", citations)
    candidates = [(h.node_id, h.kind, _marked(marked, index.features[h.node_id])) for h in hits[:3]]
    choice = choose(candidates, weights, numbers, form)
    if choice is None:
        return None
    node = index.features[choice.node_id]
    lead = yes_no_lead(choice.text, lang, weights) if form == "yesno" else None
    if form == "yesno" and only_one_denies(question, choice.text):
        lead = "No." if lang == "en" else "Нет."  # «двух лидеров?» — «только один лидер»
    if form == "number" and lang != "en":
        measure = number_lead(choice.text)
        lead = f"{measure}." if measure else None
    if lang == "en":
        concepts = [c for c in parsed.concepts if c in node.concepts or c in node.defines] or list(parsed.concepts)
        text = _english_line(index.build_dir, edition, concepts, choice.text, lead) + "\n" + choice.text
    else:
        text = (f"{lead} " if lead else "") + choice.text
    citation = {"source_id": node.source_id, "lines": list(node.lines), "quote": choice.text}
    return Part(edition, text, node.id, list(node.lines), "text", [citation])


def _faq_gate(index: Any, question: str, edition: str, top_ids: Sequence[str], gates: list[Any],
              matches: Sequence[tuple[Any, float]]) -> Any:
    """The first FAQ entry of ``edition`` that passes the gate, or ``None``; every tried one is kept."""
    from rulekb.kb.faq.entries import DEFAULT_THRESHOLD
    from rulekb.kb.faq.gate import gate_entry

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


def _what_changed(parts: Sequence[Part], lang: str) -> str:
    measures = {p.edition: number_lead(p.text) for p in parts}
    if any(measures.values()):
        body = "; ".join(f"{edition_label(e, lang)} — {v or '—'}" for e, v in measures.items())
        same = len(set(measures.values())) == 1
        if lang == "en":
            return ("What changed: the same measures — " if same else "What changed: the measures — ") + body + "."
        return ("Что изменилось: числа те же — " if same else "Что изменилось: числа — ") + body + "."
    if lang == "en":
        return "What changed: the rule is worded differently in each edition (see each ruling above)."
    return "Что изменилось: правило сформулировано в каждой редакции по-своему (см. выше)."


def _pct(value: Any) -> str:
    return f"{float(value) * 100:.0f}%"


def _engine_line(concepts: Sequence[str], editions: Sequence[str], question: str, lang: str) -> str | None:
    """Where the engine has the mechanic, the computed difference in one line."""
    from rulekb.engine import compare as ec

    found = set(concepts)
    en = lang == "en"
    if found & {"overwatch", "fire-overwatch", "snap-shots"}:
        row = next(r for r in ec.overwatch_table([3]))
        return ((f"Engine: a shot hitting on 3+ hits {_pct(row['10_normal'])}; overwatch: "
                 f"6th {_pct(row['6_overwatch'])}, 10th {_pct(row['10_overwatch'])}.") if en else
                (f"Расчёт: выстрел, попадающий на 3+, попадает в {_pct(row['10_normal'])} случаев; овервотч: "
                 f"6-я — {_pct(row['6_overwatch'])}, 10-я — {_pct(row['10_overwatch'])}."))
    if "charge" in found:
        distance = 9
        match = re.search(r"(\d{1,2})\s*(?:\"|″|дюйм)", question)
        if match and 1 <= int(match.group(1)) <= 12:
            distance = int(match.group(1))
        row = next(iter(ec.charge_table([distance])))
        cells = [f"{edition_label(e, lang)} — {_pct(row[e])}" for e in editions if e in row]
        if not cells:
            return None
        return (f"Engine: a charge across {distance}\" succeeds: " if en else
                f"Расчёт: чардж на {distance}\" удаётся: ") + "; ".join(cells) + "."
    if found & {"leadership", "battle-shock", "morale", "leadership-test", "battle-shock-test"}:
        row = next(iter(ec.leadership_table([7])))
        return ((f"Engine: Ld 7 passes a 6th-edition test (2D6 ≤ Ld) {_pct(row['6'])}, "
                 f"a 10th-edition Battle-shock test (2D6 ≥ Ld) {_pct(row['10'])}.") if en else
                (f"Расчёт: при Ld 7 тест в 6-й (2D6 ≤ Ld) проходит в {_pct(row['6'])}, "
                 f"проверка боевого шока в 10-й (2D6 ≥ Ld) — в {_pct(row['10'])}."))
    if found & {"weapon-skill", "hit-roll", "fight-phase", "melee-attack", "close-combat"}:
        rows = ec.melee_hit_table([4])
        sixth = rows[0]["vs_4"]
        tenth = next(r for r in rows if r.get("ws_target") == 3)["10"]
        return ((f"Engine: WS 4 against WS 4 hits {_pct(sixth)} in the 6th; a WS 3+ weapon in the 10th "
                 f"hits {_pct(tenth)} whatever the enemy.") if en else
                (f"Расчёт: в 6-й WS 4 против WS 4 попадает в {_pct(sixth)}; в 10-й оружие с WS 3+ — в "
                 f"{_pct(tenth)} при любом противнике."))
    return None
