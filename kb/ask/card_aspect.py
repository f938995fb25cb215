"""A comparison's parts on the same aspect: the kind of measure one edition's ruling states (a distance in
inches, a dice roll, a roll needed, a modifier) that another edition's part does not state is looked for in
that edition's own passages, so each part answers what the others answer (the 6th's «не лучше, чем 2+»
beside the 10th's «не может быть 1+ или лучше», not beside how a save is rolled)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulekb.kb.ask.card_english import extend_english_line
from rulekb.kb.ask.card_measures import measures
from rulekb.kb.ask.card_parts import Part, marked_sentences
from rulekb.kb.text.choice import choose
from rulekb.kb.text.sentences import NON_RULING

__all__ = ["ASPECT_DEPTH", "MAX_ADDED", "MAX_PART", "MIN_SHARE", "cut_at_sentence", "joined", "measure_kinds",
           "shared_measures", "shown", "weight_share", "with_added",
           "with_same_aspects"]

#: How many of the edition's passages (its compared ranking) are read for the missing kind of measure: the
#: ten an edition's own ranking is read to.
ASPECT_DEPTH = 10
#: The least share of the compared mechanic's weight the added sentence carries (the share a comparison's
#: section heading must carry, ``card_compare.HEADING_SHARE``, too).
MIN_SHARE = 0.1
#: Longest comparison part (characters), cut at a sentence end.
MAX_PART = 1500
#: Longest sentence added for a missing kind of measure (characters): a longer one is a whole list.
MAX_ADDED = 400

#: The kinds of measure, each read from one measure as :func:`rulekb.kb.ask.card_measures.measures` writes it.
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dice", re.compile(r"^\d*\s*[DdДд]\s*\d+", re.IGNORECASE)),
    ("inches", re.compile(r"″$")),
    ("roll needed", re.compile(r"^\d\+$")),
    ("modifier", re.compile(r"^[+\-−]\d+$")),
)


def cut_at_sentence(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut at its last sentence end past half the limit (else at a word)."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    end = max(head.rfind(". "), head.rfind("! "), head.rfind("? "))
    return head[: end + 1] if end > limit // 2 else head.rsplit(" ", 1)[0] + "…"


def joined(ruling: str, added: str, limit: int = MAX_PART) -> str:
    """``ruling`` then ``added`` within ``limit`` characters: the ruling is cut first (at a sentence end, to
    no less than half the limit), so the sentence added for the case asked is not the one cut off."""
    if len(ruling) + 1 + len(added) <= limit:
        return f"{ruling} {added}"
    ruling = cut_at_sentence(ruling, max(limit - len(added) - 1, limit // 2))
    return cut_at_sentence(f"{ruling} {added}", limit)


def measure_kinds(text: str) -> set[str]:
    """The kinds of measure a text states: ``dice`` («2D6»), ``inches`` («12 дюймов», «3"»), ``roll needed``
    («2+»), ``modifier`` («+1», «вычтите 1»)."""
    return {kind for kind in map(_kind, measures(text)) if kind is not None}


#: At most this many measures of one edition on the what-changed line.
SHOWN_MEASURES = 2


def shared_measures(parts: Sequence[Part]) -> dict[str, str | None]:
    """Each edition's measures of the kinds every part states (``{"6": "2+", "10": "3+"}`` where both
    rule on the roll needed and only the 10th also rolls a D6): the difference the parts show, the same
    aspect in each; empty when the parts share no kind of measure."""
    rulings = {p.edition: _ruling(p) for p in parts}
    shared = set.intersection(*(measure_kinds(r) for r in rulings.values())) if rulings else set()
    if not shared:
        return {}
    found: dict[str, str | None] = {}
    for edition, ruling in rulings.items():
        stated = measures(ruling)
        # the kinds every part states first, then this part's own (the 10th's «+1» to a cover save the
        # 6th states none of is the change itself)
        kept = [m for m in stated if _kind(m) in shared][:SHOWN_MEASURES]
        kept += [m for m in stated if _kind(m) not in shared][:1]
        found[edition] = ", ".join(kept) or None
    return found


def _kind(measure: str) -> str | None:
    return next((kind for kind, pattern in _KINDS if pattern.search(measure)), None)


def _ruling(part: Part) -> str:
    return part.text.rpartition("\n")[2]  # an English part's lead line restates the ruling's measures


def with_same_aspects(index: Any, marked: dict[str, Any], parts: Sequence[Part],
                      hits: Mapping[str, Sequence[Any]], weights: dict[str, float],
                      numbers: set[str]) -> list[Part]:
    """Each part from the text that states none of a kind of measure another part states, with the
    sentence of its edition's first :data:`ASPECT_DEPTH` passages that states one and rules on the compared
    mechanic most (:func:`rulekb.kb.text.choice.choose` among those sentences only)."""
    kinds = {id(p): measure_kinds(_ruling(p)) for p in parts}
    out: list[Part] = []
    for part in parts:
        others = set().union(*(kinds[id(p)] for p in parts if p is not part))
        missing = others - kinds[id(part)]
        if not missing or part.source != "text":
            out.append(part)
            continue
        out.append(_with_kind(index, marked, part, hits.get(part.edition) or (), weights, numbers, missing))
    return out


def _with_kind(index: Any, marked: dict[str, Any], part: Part, hits: Sequence[Any], weights: dict[str, float],
               numbers: set[str], missing: set[str]) -> Part:
    """``part`` with the best ruling sentence of ``hits`` stating a kind of measure of ``missing``, when that
    sentence carries :data:`MIN_SHARE` of the compared mechanic's weight or more."""
    candidates: list[tuple[str, str, Sequence[Any]]] = []
    for hit in hits[:ASPECT_DEPTH]:
        leaf = index.features.get(hit.node_id)
        if leaf is None:
            continue
        usable = tuple(x for x in marked_sentences(marked, leaf)
                       if x.mark not in NON_RULING and x.text not in part.text and len(x.text) <= MAX_ADDED
                       and measure_kinds(x.text) & missing)
        if usable:
            candidates.append((hit.node_id, hit.kind, usable))
    if not candidates:
        return part
    chosen = choose(candidates, weights, numbers, "number")
    if chosen is None or chosen.text in part.text or len(chosen.text) > MAX_ADDED:
        return part  # ``choose`` may join two sentences: the whole list MAX_ADDED keeps out
    if weight_share(index, chosen.text, weights) < MIN_SHARE:
        return part  # a measure of another mechanic
    return with_added(index, part, chosen.node_id, chosen.text)


def weight_share(index: Any, text: str, weights: dict[str, float]) -> float:
    """The share of the question's (the compared mechanic's) weight ``text`` carries."""
    total = sum(weights.values()) or 1.0
    lemmas = set(index.lemmas_of(text))
    return sum(w for t, w in weights.items() if t in lemmas) / total


def with_added(index: Any, part: Part, node_id: str, added: str) -> Part:
    """``part`` with ``added`` (a ruling of the passage ``node_id``) after its ruling, cited; the ruling is cut
    (at a sentence end) to leave room, and a citation whose quote the cut left out is dropped (the card cites
    what it shows); an English card's lead line is extended, not cut."""
    node = index.features[node_id]
    citation = {"source_id": node.source_id, "lines": list(node.lines), "quote": added}
    head, _, ruling = part.text.rpartition("\n")
    if head:
        head = extend_english_line(index.build_dir, head, added)
    body = joined(ruling, added)
    citations = [*part.citations, citation]
    if not body.startswith(ruling):  # cut: what the part no longer shows is no longer cited
        citations = [c for k, c in enumerate(citations) if k == 0 or shown(str(c.get("quote") or ""), body)]
    text = (f"{head}\n" if head else "") + body
    return dataclasses.replace(part, text=text, citations=citations)


#: Where a quote splits into the sentences :func:`shown` looks for: at an ellipsis (where the quote was cut),
#: after a sentence end, before the next sentence, list item («• …») or section name («§ …»).
_SENTENCE_END = re.compile(r"\s*…\s*|(?<=[.!?»:])\s+(?=[«\"•\-–§(A-ZА-ЯЁ0-9])")
#: A piece of a quote this long or longer shows the quote on the card.
SHOWN_PIECE = 12


def shown(quote: str, text: str) -> bool:
    """Whether ``text`` shows a sentence of ``quote`` (a quote cut with «…» shows its pieces)."""
    if not quote.strip() or quote.strip() in text:
        return True
    pieces = [p.strip(" «»") for p in _SENTENCE_END.split(quote)]
    return any(len(p) >= SHOWN_PIECE and p in text for p in pieces)
