"""Terminology cards and English names, from the termbase the build wrote (``build/terms.json``).

For the term asked (in English, Russian or slang) the card lists every rendering per book with its
status, count and first lines, flags the mistranslations and says whether each book is consistent
— in the question's language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulekb.corpus.editions import display_order
from rulekb.kb.ask.labels import edition_label
from rulekb.kb.ask.terms_quoted import marked_terms, named_at
from rulekb.kb.ask.terms_related import related_renderings
from rulekb.kb.knowledge import open_knowledge_base
from rulekb.kb.search.query import detect_editions
from rulekb.kb.text.fuzzy import edit_distance

__all__ = ["asked_editions", "book_words_removed", "english_name", "pick_concept", "pick_concepts", "records",
           "related_renderings", "terminology_card"]

STATUS = {
    "ru": {"preferred": "основной", "admitted": "допустимый", "deprecated": "нежелательный",
           "mistranslation": "ошибочный перевод"},
    "en": {"preferred": "preferred", "admitted": "admitted", "deprecated": "deprecated",
           "mistranslation": "mistranslation"},
}
#: First lines listed per rendering.
FIRST_LINES = 3


@lru_cache(maxsize=4)
def _records(path: str, stamp: float) -> dict[str, dict[str, Any]]:
    return {str(r["concept"]): r for r in json.loads(Path(path).read_text(encoding="utf-8"))}


def records(build_dir: Path) -> dict[str, dict[str, Any]]:
    """Concept id → its termbase record (``rulekb terms --json``), as the build wrote it."""
    path = build_dir / "terms.json"
    if not path.is_file():
        return {}
    return _records(str(path), path.stat().st_mtime)


def english_name(build_dir: Path, concept: str) -> str | None:
    record = records(build_dir).get(concept)
    return None if record is None else str(record.get("english") or concept)


#: A book named by its edition and what it holds: "the 6th-edition assault text", "the 10th-edition core
#: rules", "the Kill Team supplement", «в тексте 6-й редакции»: the words between the edition and the
#: book's noun describe the book («assault», «core»), they are not the term asked.
_BOOK = re.compile(
    r"(\b(?:\d{1,2}(?:st|nd|rd|th)?[- ]?editions?(?:'s)?|kill[- ]team(?:'s)?))"
    r"((?:\s+[a-z][a-z'-]*){0,3}?)\s+(?:texts?|rules?|rulebooks?|books?|pages?|chapters?|supplements?|translations?|sections?)\b",
    re.IGNORECASE,
)


def book_words_removed(question: str) -> str:
    """``question`` without the words that describe a book it names ("the 6th-edition assault text" →
    "the 6th-edition text"): a terminology question's term is never the book's subject."""
    return _BOOK.sub(lambda m: m.group(0).replace(m.group(2), "", 1) if m.group(2) else m.group(0), question)


def _latin_phrases(question: str) -> list[str]:
    """The question's runs of Latin words, lower case, hyphens as spaces ("Pile-In" → "pile in")."""
    question = book_words_removed(question).replace("\u2019", "'")  # a typographic apostrophe as the termbase's
    return [re.sub(r"[\s-]+", " ", m.group(0)).strip().lower()
            for m in re.finditer(r"[A-Za-z][A-Za-z' -]*[A-Za-z]", question)]


def _name_forms(name: str) -> set[str]:
    """An English name as a question may type it: hyphens as spaces, and each word's plural ``s`` off
    ("Devastating Wounds" → "devastating wound"; the pattern takes the plural back on)."""
    spaced = re.sub(r"[\s-]+", " ", name).strip()
    words = spaced.split(" ")
    singular = " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)
    return {spaced, singular}


#: An edition's ordinal standing alone («в переводе 10-й», "the 10th"), as a list of books names it.
_ORDINAL = re.compile(r"(?<![\d.,])(\d{1,2})(?:\s*-\s*|\s*)(?:й|я|ой|ая|ей|ю|ую|ого|ке|ка|ку|th)(?![а-яёa-z])",
                      re.IGNORECASE)


def asked_editions(question: str, named: Sequence[str]) -> list[str]:
    """The books a terminology question asks about: ``named`` and, once it names one, every other
    edition's ordinal it gives alone («Как переведён pile in в 6-й редакции и в переводе 10-й?»:
    the 6th and the 10th). A question naming none asks about every book."""
    if not named:
        return list(named)
    known = set(display_order())
    found = list(named)
    for match in _ORDINAL.finditer(question):
        if match.group(1) in known and match.group(1) not in found:
            found.append(match.group(1))
    return found


@lru_cache(maxsize=4)
def _english_names(path: str, stamp: float) -> tuple[tuple[str, re.Pattern[str], str], ...]:
    names: list[tuple[str, re.Pattern[str], str]] = []
    for concept_id, record in _records(path, stamp).items():
        found = {str(record.get("english", "")).lower(), str(record.get("abbreviation", "")).lower()}
        found |= {str(a).lower() for a in record.get("aliases", []) if re.search(r"[a-z]", str(a), re.I)}
        found.discard("")
        for form in {f for name in found for f in _name_forms(name)}:
            plural = "(?:e?s)?" if len(form) > 3 else ""
            names.append((form, re.compile(rf"(?<![a-z]){re.escape(form)}{plural}(?![a-z])"), concept_id))
    return tuple(names)


@lru_cache(maxsize=4)
def _names_by_shape(names: tuple[tuple[str, re.Pattern[str], str], ...]) -> dict[tuple[int, int], tuple[str, ...]]:
    """The English names of :data:`MIN_MISSPELT` letters or more by (word count, length)."""
    shapes: dict[tuple[int, int], list[str]] = {}
    for name, _, _ in names:
        if len(name) >= MIN_MISSPELT:
            shapes.setdefault((name.count(" ") + 1, len(name)), []).append(name)
    return {shape: tuple(dict.fromkeys(found)) for shape, found in shapes.items()}


@lru_cache(maxsize=64)
def _misspelt_name(names: tuple[tuple[str, re.Pattern[str], str], ...], phrases: tuple[str, ...],
                   books: frozenset[str]) -> str | None:
    """The one English name a misspelt term of the question stands for ("Overwach" → overwatch): a
    run of one to three of its words within one edit of a name of five letters or more (two edits
    for names over seven; first or last letter kept), when exactly one name is the closest."""
    shapes = _names_by_shape(names)
    near: dict[str, int] = {}
    for phrase in phrases:
        words = phrase.split(" ")
        for size in range(1, MAX_NAME_WORDS + 1):
            for start in range(len(words) - size + 1):
                typed = " ".join(words[start:start + size])
                for length in range(len(typed) - 2, len(typed) + 3):
                    for name in shapes.get((size, length), ()):
                        limit = 1 if len(name) <= 7 else 2
                        if (abs(len(name) - len(typed)) > limit or name in books
                                or (name[0] != typed[0] and name[-1] != typed[-1])):
                            continue
                        edits = edit_distance(typed, name, limit)
                        if 0 < edits <= limit:
                            near[name] = min(edits, near.get(name, edits))
    if not near:
        return None
    closest = [name for name, edits in near.items() if edits == min(near.values())]
    return closest[0] if len(closest) == 1 else None


#: A misspelt name is looked for among runs of at most this many words, names of at least this length.
MAX_NAME_WORDS = 3
MIN_MISSPELT = 5


@lru_cache(maxsize=4)
def _book_names(path: str, stamp: float) -> frozenset[str]:
    """The English names and aliases that name a book («kill team»), not a term."""
    return frozenset(name for name, _, _ in _english_names(path, stamp) if detect_editions(name))


def _sources(build_dir: Path) -> dict[str, str]:
    """Source id → edition, in the manifest's order, as the build recorded them (``manifest.json``)."""
    return {sid: str(source.get("edition", "")) for sid, source in open_knowledge_base(build_dir).sources.items()}


def pick_concept(build_dir: Path, question: str, concepts: Sequence[str]) -> str | None:
    """The concept a terminology question asks about: the one whose English term or alias the
    question quotes, else the first concept the query parser recognised."""
    known = records(build_dir)
    phrases = _latin_phrases(question)
    best: tuple[int, str] | None = None
    path = build_dir / "terms.json"
    names = _english_names(str(path), path.stat().st_mtime) if phrases and path.is_file() else ()
    books = _book_names(str(path), path.stat().st_mtime) if names else frozenset()
    for phrase in phrases:
        for name, pattern, concept_id in names:
            if name in books:
                continue  # a book's name («Kill Team») asks which book, not which term
            hit = name == phrase or (len(name) > 3 and pattern.search(phrase))
            if hit and (best is None or len(name) > best[0]):
                best = (len(name), concept_id)
    if best is not None:
        return best[1]
    misspelt = _misspelt_name(names, tuple(phrases), books) if names else None
    if misspelt is not None:
        return next(c for name, _, c in names if name == misspelt)
    for concept in concepts:
        if concept in known:
            return concept
    return None


#: At most this many terms on one terminology card.
MAX_TERMS = 3


def pick_concepts(build_dir: Path, question: str, concepts: Sequence[str],
                  phrases_of: dict[str, Sequence[str]] | None = None) -> list[str]:
    """Every concept a terminology question asks about («Как переведены Battle-shock и Desperate
    Escape?»): each English term or alias the question quotes, longest first and not overlapping,
    in the question's order; else the one :func:`pick_concept` finds. A term the question marks (a
    quoted rendering, an English name typed another way) joins that list at its place in the question."""
    path = build_dir / "terms.json"
    phrases = _latin_phrases(question)
    names = _english_names(str(path), path.stat().st_mtime) if phrases and path.is_file() else ()
    books = _book_names(str(path), path.stat().st_mtime) if names else frozenset()
    found: list[tuple[int, int, str]] = []  # (phrase, start, concept)
    for number, phrase in enumerate(phrases):
        taken: list[tuple[int, int]] = []
        for name, pattern, concept_id in sorted(names, key=lambda n: -len(n[0])):
            if (len(name) <= 3 and name != phrase) or name in books:
                continue  # a short alias inside a phrase, or a book's name («Kill Team» asks which book)
            match = pattern.search(phrase)
            if match is None or any(match.start() < end and start < match.end() for start, end in taken):
                continue
            taken.append((match.start(), match.end()))
            found.append((number, match.start(), concept_id))
    picked = list(dict.fromkeys(c for _, _, c in sorted(found)))
    misspelt = _misspelt_name(names, tuple(phrases), books) if names and not picked else None
    marked = marked_terms(records(build_dir), question, names, books, concepts,
                          unknown=misspelt is None, named=bool(picked))
    lowered = re.sub(r"[\s-]", " ", question.lower())
    at = len(lowered)  # where a term named otherwise is, when no name of it is found
    if len(picked) >= 2:
        unmarked = picked
    elif misspelt is not None:  # every concept under the name it stands for («Overwach»: both overwatches)
        unmarked = list(dict.fromkeys(c for name, _, c in names if name == misspelt))
        at = min((m.start() for m in re.finditer(r"[a-z][a-z' ]*[a-z]", lowered)), default=at)
    else:
        unmarked, joined = _named_concepts(build_dir, question, concepts, picked, phrases_of or {})
        if not picked and not joined:
            at = -1  # the Russian words around a marked term: the marked term leads
    if not marked:
        return unmarked[:MAX_TERMS]
    # each marked term at its place in the question, among the terms named otherwise
    placed = [(len(lowered) if at < 0 else named_at(lowered, c, names, phrases_of or {}, default=at), number, c)
              for number, c in enumerate(unmarked)]
    placed += [(where, len(unmarked) + number, concept) for number, (where, concept) in enumerate(marked)]
    return list(dict.fromkeys(c for _, _, c in sorted(placed)))[:MAX_TERMS]


def _named_concepts(build_dir: Path, question: str, concepts: Sequence[str], picked: Sequence[str],
                    phrases_of: dict[str, Sequence[str]]) -> tuple[list[str], bool]:
    """The terms a question names in one English name or in Russian: the one :func:`pick_concept`
    finds, each concept sharing its name or its typed word, and the Russian terms joined by «и»
    (then ``True``)."""
    one = pick_concept(build_dir, question, concepts)
    if one is None:
        return [], False
    if picked:
        # one English name several concepts share (Overwatch: the older books' action and the
        # 10th edition's stratagem): each concept under that name gets its block
        return _sharing_name(build_dir, question, one), False
    known = records(build_dir)

    def sharing_word(concept: str) -> list[str]:
        # one word several concepts share («овервотч»: the older books' action and the 10th
        # edition's stratagem): each gets its block, as under one English name
        typed = tuple(phrases_of.get(concept, ()))
        return [c for c in concepts if c in known and typed and tuple(phrases_of.get(c, ())) == typed]

    asked, words = [], set()
    for c in concepts:
        said = tuple(phrases_of.get(c, ())) or (c,)
        if c in known and c not in GENERIC and said not in words:  # one of the concepts sharing words
            asked.append(c)
            words.add(said)
    if len(asked) >= 2 and _JOINED.search(question):
        # «фаза чарджа и сам чардж»: the terms named in Russian, joined by «и», each with the
        # concepts sharing its word, in the question's order
        return list(dict.fromkeys(c for term in [one, *asked] for c in [term, *sharing_word(term)])), True
    return list(dict.fromkeys([one, *sharing_word(one)])), False


#: Concepts too general to be the term a translator asks about when they only sit around it.
GENERIC = frozenset({"model", "unit", "enemy", "friendly", "weapon", "attack", "attacks", "army", "turn"})
_JOINED = re.compile(r"\s(?:и|а\s+также|and)\s", re.IGNORECASE)


def _sharing_name(build_dir: Path, question: str, concept: str) -> list[str]:
    """``concept`` and every other concept the question's English name (its term or an alias) also names."""
    path = build_dir / "terms.json"
    names = _english_names(str(path), path.stat().st_mtime)
    quoted: set[str] = set()
    for phrase in _latin_phrases(question):
        found = [name for name, pattern, c in names if c == concept and (name == phrase or pattern.search(phrase))]
        if found:
            quoted.add(max(found, key=len))  # "Fire Overwatch" is the stratagem alone, "Overwatch" both
    others = [c for name, _, c in names if name in quoted and c != concept]
    return list(dict.fromkeys([concept, *others]))


def terminology_card(build_dir: Path, concept: str, editions: Sequence[str], lang: str) -> dict[str, Any] | None:
    """The ``card`` for how ``concept`` is rendered, per book (only ``editions``' books when given)."""
    record = records(build_dir).get(concept)
    if record is None:
        return None
    sources = _sources(build_dir)
    labels = STATUS["en" if lang == "en" else "ru"]
    per_source: dict[str, list[dict[str, Any]]] = {}
    for rendering in record.get("renderings", []):
        source_id = str(rendering["source_id"])
        if source_id not in sources or not rendering.get("count"):
            continue
        if editions and sources[source_id] not in editions:
            continue
        per_source.setdefault(source_id, []).append(rendering)
    if not per_source:
        return None
    english = str(record.get("english") or concept)
    head = (f"{english} — renderings in the texts:" if lang == "en"
            else f"{english} — как передан в текстах:")
    if lang == "en" and record.get("definition"):
        head = f"{english} — renderings in the texts (Russian):"
    lines = [head]
    per_edition: list[dict[str, Any]] = []
    citations: list[dict[str, Any]] = []
    flagged: list[str] = []
    order = list(sources)
    kwic = open_knowledge_base(build_dir).kwic(concept)
    for source_id in sorted(per_source, key=order.index):
        renderings = sorted(per_source[source_id], key=lambda r: -int(r["count"]))
        edition = sources[source_id]
        parts = []
        for r in renderings:
            first = ", ".join(str(n) for n in list(dict.fromkeys(r.get("lines", [])))[:FIRST_LINES])
            times = f"{r['count']}×"
            where = (f"lines {first}" if lang == "en" else f"строки {first}") if first else ""
            printed = printed_forms(kwic, source_id, str(r["text"]), r.get("lines", []))
            shown = f" — {', '.join('«' + p + '»' for p in printed)}" if printed else ""
            parts.append(f"«{r['text']}» ({labels.get(str(r['status']), r['status'])}, {times}{', ' + where if where else ''}{shown})")
            if r["status"] == "mistranslation":
                flagged.append(f"«{r['text']}» ({source_id})")
            if r.get("lines"):
                line = int(r["lines"][0])
                citations.append({"source_id": source_id, "lines": [line, line], "quote": str(r["text"])})
        distinct = {str(r["text"]).lower() for r in renderings if r["status"] != "mistranslation"}
        consistent = len(distinct) <= 1
        verdict = (("consistent" if consistent else f"inconsistent: {len(distinct)} renderings") if lang == "en"
                   else ("последовательно" if consistent else f"непоследовательно: {len(distinct)} варианта"))
        if not distinct:  # a book printing no right form is not consistent in anything
            verdict = "only a mistranslation" if lang == "en" else "только ошибочный перевод"
        label = f"{source_id} ({edition_label(edition, lang)})"
        text = f"{label}: " + "; ".join(parts) + f" — {verdict}"
        lines.append("• " + text)
        per_edition.append({"edition": edition, "text": text, "node_id": None,
                            "lines": citations[-1]["lines"] if citations else None})
    if flagged:
        lines.append(("Mistranslations: " if lang == "en" else "Ошибочные переводы: ") + ", ".join(flagged))
    related = related_renderings(records(build_dir), record, {s: e for s, e in sources.items() if s in per_source},
                                 editions)
    if related:
        lines.append(("Related terms in these books: " if lang == "en" else "Связанные термины в этих книгах: ")
                     + "; ".join(related))
    if lang == "en" and record.get("definition"):
        lines.append(f"Concept: {english}" + (f" ({record['abbreviation']})" if record.get("abbreviation") else ""))
    elif record.get("definition"):
        lines.append(f"Понятие: {record['definition']}")
    eds = {p["edition"] for p in per_edition}
    return {
        "kind": "terminology",
        "lang": lang,
        "text": "\n".join(lines),
        "edition": next(iter(eds)) if len(eds) == 1 else None,
        "per_edition": per_edition,
        "source": "termbase",
        "citations": citations,
        "confidence": 1.0,
        "concept": concept,
    }


#: Printed forms shown per rendering (other inflections than the termbase's form).
PRINTED_FORMS = 2


def printed_forms(kwic: Sequence[dict[str, Any]], source_id: str, rendering: str, lines: Sequence[int]) -> list[str]:
    """How the text prints ``rendering`` at its first lines, when that differs from the termbase's
    form (another inflection: «зона поражения» printed «зоны поражения»), from the build's KWIC rows."""
    first = set(list(dict.fromkeys(lines))[:6])
    forms: list[str] = []
    for row in kwic:
        if row.get("source_id") != source_id or row.get("line") not in first:
            continue
        if str(row.get("rendering", "")).lower() != rendering.lower():
            continue
        printed = re.sub(r"\s+", " ", str(row.get("match", ""))).strip()
        if printed and printed.lower() != rendering.lower() and printed not in forms:
            forms.append(printed)
        if len(forms) >= PRINTED_FORMS:
            break
    return forms
