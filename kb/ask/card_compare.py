"""A comparison card's last lines: what changed between the editions, and where the engine has the
mechanic (overwatch, charge, Leadership against Battle-shock, to-hit in melee) the computed difference."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulekb.corpus.editions import display_order
from rulekb.corpus.errors import RulebaseError
from rulekb.engine import compare as ec
from rulekb.kb.ask.card_aspect import MAX_PART, joined, shared_measures, weight_share, with_added
from rulekb.kb.ask.card_editions import BARE_ORDINAL, VERSUS_EDITION
from rulekb.kb.ask.card_english import number_lead, ruling_concepts
from rulekb.kb.ask.card_parts import Part, marked_sentences
from rulekb.kb.ask.card_terms import records
from rulekb.kb.ask.labels import edition_label
from rulekb.kb.search.query_text import strip_edition_words
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.choice import choose
from rulekb.kb.text.sentences import NON_RULING

__all__ = ["ENGINE_CONCEPTS", "MAX_PART", "SECOND_PASSAGES", "compared_terms", "engine_line", "joined", "marker_words",
           "what_changed",
           "with_second_ruling"]

#: A comparison's part also reads this many of the edition's next passages for a second ruling.
SECOND_PASSAGES = 2


#: The words that say a question compares («чем отличается», «разница», «6-я против 10-й», "vs", "differ"): they
#: ask for the comparison, no edition's ruling prints them. Of «одинаковый» only the predicate forms compare
#: («работает одинаково?», «одинаковы ли»): «при одинаковой инициативе» names the tie the question asks about.
_COMPARING = re.compile(
    r"\b(?:чем(?=\s+(?:\w+\s+){0,3}отлич)|отлича\w*|отличи\w*|разниц\w*|сравн\w*|измени\w*|изменя\w*|поменя\w*"
    r"|против(?=\s+\d)|vs|versus|differ\w*|одинаков[оаы]?|так\s+же|то\s+же\s+самое"
    r"|compar\w*|chang\w*)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+")


def marker_words(question: str) -> set[str]:
    """The question's words (lower case) that name its editions («в 6ке», «10-й редакции», «6-я»,
    "10th") or say that it compares, and no other word of it: what is left is the compared mechanic."""
    chars = list(strip_edition_words(question))
    known = set(display_order())
    for pattern in (BARE_ORDINAL, VERSUS_EDITION, _COMPARING):  # each read on the question itself («6-я против 10-й»)
        for match in pattern.finditer(question):
            if pattern is VERSUS_EDITION and match.group(1) not in known:
                continue  # «vs 3ка» with no 3rd edition: «3ка» is the mechanic's word, as versus_editions reads it
            chars[match.start():match.end()] = " " * (match.end() - match.start())
    kept = "".join(chars)
    left = {w.lower() for w in _WORD.findall(kept)}
    return {w.lower() for w in _WORD.findall(question)} - left


def compared_terms(parsed: Any, question: str, weights: dict[str, float],
                   numbers: set[str]) -> tuple[dict[str, float], set[str]]:
    """A comparison's weights and numbers without the terms of its edition and comparison words
    (:func:`marker_words`): «отличается», «6» of «6-й», "vs" are not what an edition's sentence must
    carry, and they outweighed the mechanic («бонус за нападение») in the sentence chosen. A term
    another word of the question stands for too is kept."""
    markers = marker_words(question)
    if not markers:
        return weights, numbers
    dropped: set[str] = set()
    kept: set[str] = set()
    for word in parsed.words:
        terms = {word.lemma, *word.alternatives}
        (dropped if word.original.lower() in markers else kept).update(terms)
    dropped -= kept
    if not dropped or len(dropped) >= len(weights):
        return weights, numbers
    return ({t: w for t, w in weights.items() if t not in dropped},
            {n for n in numbers if n not in dropped})


def with_second_ruling(index: Any, marked: dict[str, Any], part: Part, hits: Sequence[Any],
                       weights: dict[str, float], numbers: set[str], form: str, compared: str | None = None) -> Part:
    """A comparison's part from the text, with the ruling of the edition's next passages added: the
    defining passage of a mechanic often states what it is, while the edition's next passage rules
    on the case asked (two models instead of one for a unit of seven, a character's bodyguard).
    A next passage the part already quotes (the list it announced, cited by the part) gives its place to the
    one after it, and ``compared``
    (the measure or the permission the comparison asks, :func:`compared_form`) is what their
    sentence must carry."""
    if part.source != "text":
        return part
    headed = _headed_section(index, marked, part, hits, weights)
    part = _second(index, marked, part, hits, weights, numbers, form, compared)
    if headed is not None and headed[1] not in part.text:
        return with_added(index, part, *headed)
    return part


def _second(index: Any, marked: dict[str, Any], part: Part, hits: Sequence[Any],
            weights: dict[str, float], numbers: set[str], form: str, compared: str | None) -> Part:
    candidates: list[tuple[str, str, Sequence[Any]]] = []
    for hit in hits:
        if len(candidates) == SECOND_PASSAGES:
            break
        if hit.node_id == part.node_id or hit.node_id not in index.features:
            continue
        leaf = index.features[hit.node_id]
        if any(c.get("source_id") == leaf.source_id and list(c.get("lines") or []) == list(leaf.lines)
               for c in part.citations):
            continue  # quoted by the part already
        unshown = tuple(x for x in marked_sentences(marked, leaf) if x.text not in part.text)
        if any(x.mark not in NON_RULING for x in unshown):
            candidates.append((hit.node_id, hit.kind, unshown))
    extra = choose(candidates, weights, numbers, form, also=compared) if candidates else None
    if extra is None or extra.text in part.text:
        return part
    # the chosen sentences the part does not show yet (a passage and its summary share some)
    sentences = next(c[2] for c in candidates if c[0] == extra.node_id)
    added = " ".join(s.text for s in sentences if s.text in extra.text and s.text not in part.text) or extra.text
    if added in part.text:
        return part
    return with_added(index, part, extra.node_id, added)


#: How many of the edition's first passages a comparison's part reads for the section its heading names.
HEADING_DEPTH = 6
#: The least share of the question's weight (its compared mechanic) that heading must carry.
HEADING_SHARE = 0.1


def _heading_share(index: Any, leaf: Any, weights: dict[str, float]) -> float:
    """The share of the question's weight the leaf's own heading carries («Бонус за рывок» for «бонус за
    нападение»: the 10th edition's rendering of the charge is one of the question's terms)."""
    return weight_share(index, leaf.heading or "", weights)


def _headed_section(index: Any, marked: dict[str, Any], part: Part, hits: Sequence[Any],
                    weights: dict[str, float]) -> tuple[str, str] | None:
    """Of the edition's first :data:`HEADING_DEPTH` passages, the one whose own heading names more of
    the compared mechanic than any other passage's heading, the part's own included, when the part does
    not quote it: the section the book gives the mechanic («Бонус за рывок», «Измерение расстояний»),
    its ruling sentences whole (``(node_id, text)``), as its sentences need not repeat the heading's words."""
    own = index.features.get(part.node_id)
    shares: list[tuple[float, str]] = []
    for hit in hits[:HEADING_DEPTH]:
        leaf = index.features.get(hit.node_id)
        if leaf is not None:
            shares.append((_heading_share(index, leaf, weights), hit.node_id))
    if own is not None and part.node_id is not None and all(n != part.node_id for _, n in shares):
        shares.append((_heading_share(index, own, weights), part.node_id))
    if not shares:
        return None
    best = max(s for s, _ in shares)
    leaders = [n for s, n in shares if s == best]
    if best < HEADING_SHARE or len(leaders) > 1 or leaders[0] == part.node_id:
        return None
    leaf = index.features[leaders[0]]
    if any(c.get("source_id") == leaf.source_id and list(c.get("lines") or []) == list(leaf.lines)
           for c in part.citations):
        return None
    text = " ".join(x.text for x in marked_sentences(marked, leaf) if x.mark not in NON_RULING and x.text not in part.text)
    return (leaf.id, text) if text else None


def what_changed(parts: Sequence[Part], lang: str, build_dir: Path | None = None) -> str:
    """One line: each edition's measures (or that they are the same), then the terms only one
    edition's ruling names (the 10th's Desperate Escape test where the 7th moves freely)."""
    measures = shared_measures(parts) or {p.edition: number_lead(p.text) for p in parts}
    only = _only_in(parts, lang, build_dir) if build_dir is not None else ""
    if any(measures.values()):
        body = "; ".join(f"{edition_label(e, lang)} — {v or '—'}" for e, v in measures.items())
        same = len(set(measures.values())) == 1
        if lang == "en":
            head = "What changed: the same measures — " if same else "What changed: the measures — "
        else:
            head = "Что изменилось: числа те же — " if same else "Что изменилось: числа — "
        return head + body + "." + (f" {only[0].upper()}{only[1:]}" if only else "")
    if only:
        return ("What changed: " if lang == "en" else "Что изменилось: ") + only
    if lang == "en":
        return "What changed: the rule is worded differently in each edition (see each ruling above)."
    return "Что изменилось: правило сформулировано в каждой редакции по-своему (см. выше)."


#: At most this many terms named per edition on the what-changed line.
ONLY_TERMS = 3
#: A concept this specific or more (its weight in the index) counts as a term of the ruling.
TERM_WEIGHT = 0.55


def _only_in(parts: Sequence[Part], lang: str, build_dir: Path) -> str:
    """«Только в 10-й редакции: Отчаянный побег, ТИТАНИК; только в 7-й редакции: …»: the specific
    terms each edition's ruling names that no other edition's ruling on the card names."""
    try:
        weight = get_index(build_dir).concept_weight
    except RulebaseError:  # no index: no terms line
        return ""
    named = {p.edition: [c for c in dict.fromkeys(ruling_concepts(build_dir, p.text)) if weight(c) >= TERM_WEIGHT] for p in parts}
    known = records(build_dir)
    cells = []
    for edition, concepts in named.items():
        others = {c for e, cs in named.items() if e != edition for c in cs}
        mine = sorted((c for c in concepts if c not in others and c in known), key=lambda c: -weight(c))[:ONLY_TERMS]
        if not mine:
            continue
        if lang == "en":
            names = [str(known[c].get("english") or c) for c in mine]
            cells.append(f"only the {edition_label(edition, lang)} names " + ", ".join(names))
        else:
            names = [str(known[c].get("preferred") or known[c].get("english") or c) for c in mine]
            label = edition_label(edition, lang).replace("редакция", "редакции").replace("-я ", "-й ")
            cells.append(f"только в {label}: " + ", ".join(f"«{n}»" for n in names))
    if not cells:
        return ""
    return "; ".join(cells) + "."


def _pct(value: Any) -> str:
    return f"{float(value) * 100:.0f}%"


#: The engine's older-edition rules serve the 6th and the 7th edition alike (``engine/compare.py``).
_OLDER = {"6": "6", "7": "6"}


def _cells(editions: Sequence[str], value: Any, lang: str) -> str:
    """«6-я редакция — 17%; 10-я редакция — 17%» for the card's editions the engine computes."""
    cells = []
    for edition in editions:
        found = value(edition)
        if found is not None:
            cells.append(f"{edition_label(edition, lang)} — {_pct(found)}")
    return "; ".join(cells)


#: The engine computes a mechanic only when it is one of the question's first this many concepts.
ENGINE_CONCEPTS = 2
#: Concepts naming what is measured, not a mechanic («дальность рывка»: the range of a move): they do
#: not count among the first :data:`ENGINE_CONCEPTS`.
MEASURE_CONCEPTS = frozenset({"range", "measuring-distances", "dice"})


def engine_line(concepts: Sequence[str], editions: Sequence[str], question: str, lang: str) -> str | None:
    """Where the engine has the mechanic, the computed difference in one line — for the card's own
    editions (none of them computed: no line). The compared mechanic is one of the question's first
    :data:`ENGINE_CONCEPTS` concepts: a later one is the situation it is asked in (a charge read from
    «атак» in a question on how a blast hits, the charge after falling back), which the engine's odds do
    not answer."""
    found = set([c for c in concepts if c not in MEASURE_CONCEPTS][:ENGINE_CONCEPTS])
    en = lang == "en"
    if found & {"overwatch", "fire-overwatch", "snap-shots"}:
        row = next(r for r in ec.overwatch_table([3]))
        cells = _cells(editions, lambda e: row.get(f"{_OLDER.get(e, e)}_overwatch"), lang)
        if not cells:
            return None
        return ((f"Engine: a shot hitting on 3+ hits {_pct(row['10_normal'])}; overwatch: {cells}.") if en else
                (f"Расчёт: выстрел, попадающий на 3+, попадает в {_pct(row['10_normal'])} случаев; овервотч: {cells}."))
    if "charge" in found:
        distance = 9
        match = re.search(r"(\d{1,2})\s*(?:\"|″|дюйм)", question)
        if match and 1 <= int(match.group(1)) <= 12:
            distance = int(match.group(1))
        row = next(iter(ec.charge_table([distance])))
        cells = _cells(editions, lambda e: row.get(e), lang)
        if not cells:
            return None
        return (f"Engine: a charge across {distance}\" succeeds: " if en else
                f"Расчёт: чардж на {distance}\" удаётся: ") + cells + "."
    if found & {"leadership", "battle-shock", "morale", "leadership-test", "battle-shock-test"}:
        row = next(iter(ec.leadership_table([7])))
        older = [e for e in editions if e in _OLDER]
        if "10" not in editions and not older:
            return None
        if en:
            bits = [f"a {edition_label(e, lang)} Leadership test (2D6 ≤ Ld) {_pct(row['6'])}" for e in older]
            bits += [f"a 10th-edition Battle-shock test (2D6 ≥ Ld) {_pct(row['10'])}"] if "10" in editions else []
            return "Engine: Ld 7 passes " + ", ".join(bits) + "."
        bits = [f"тест в {edition_label(e, lang).replace('-я редакция', '-й')} (2D6 ≤ Ld) — в {_pct(row['6'])}"
                for e in older]
        bits += [f"проверка боевого шока в 10-й (2D6 ≥ Ld) — в {_pct(row['10'])}"] if "10" in editions else []
        return "Расчёт: при Ld 7 " + "; ".join(bits) + "."
    if found & {"weapon-skill", "hit-roll", "fight-phase", "melee-attack", "close-combat"}:
        rows = ec.melee_hit_table([4])
        sixth = rows[0]["vs_4"]
        tenth = next(r for r in rows if r.get("ws_target") == 3)["10"]
        older = [e for e in editions if e in _OLDER]
        bits_en = [f"WS 4 against WS 4 hits {_pct(sixth)} in the {edition_label(e, lang)}" for e in older]
        bits_ru = [f"в {edition_label(e, lang).replace('-я редакция', '-й')} WS 4 против WS 4 попадает в {_pct(sixth)}"
                   for e in older]
        if "10" in editions:
            bits_en.append(f"a WS 3+ weapon in the 10th edition hits {_pct(tenth)} whatever the enemy")
            bits_ru.append(f"в 10-й оружие с WS 3+ — в {_pct(tenth)} при любом противнике")
        if not bits_en:
            return None
        return ("Engine: " + "; ".join(bits_en) + ".") if en else ("Расчёт: " + "; ".join(bits_ru) + ".")
    return None
