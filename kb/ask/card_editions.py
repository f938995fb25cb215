"""Which editions a card answers: those the question names, implies, or — unmarked — those whose
books have the mechanic, the player's edition (else the default, the first in the manifest's display
order) first."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulekb.corpus.editions import default_edition, display_order
from rulekb.kb.ask.form import compares_editions, older_editions_asked
from rulekb.kb.search.query_text import detect_editions
from rulekb.kb.search.searcher import search_parsed

__all__ = ["BARE_ORDINAL", "COMPARED_DEPTH", "CONFIRM_HITS", "MECHANIC_MIN_WEIGHT", "OTHER_EDITIONS_MIN_WEIGHT",
           "PER_EDITION_SHARE", "Defining", "compared_passages", "concept_filter",
           "confirmed_editions", "defining_editions", "named_editions", "named_editions_of", "older_named", "ordinal_editions", "unmarked_editions", "versus_editions",
           "with_defining"]

#: With no edition named or implied, another edition's best passage scoring at least this share of
#: the first hit's score gets a part of its own (the mechanic exists there too).
PER_EDITION_SHARE = 0.7
#: An edition the question's words imply must have a passage among this many first hits.
CONFIRM_HITS = 3
#: A concept this specific (its weight in the index) or more names the mechanic a comparison is about.
OTHER_EDITIONS_MIN_WEIGHT = 0.5


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


#: An edition's ordinal standing for «редакция» left unsaid: «6-я против 10-й», «в обычной 6-й?», "6th vs 10th":
#: the ordinal ends a clause or meets another edition's («против», «и», «или», "vs"), no noun follows it.
BARE_ORDINAL = re.compile(
    r"(?<![\w.,+\-])(\d{1,2})\s?-?\s?(?:я|й|ой|ая|ей|ую|ю|th)(?=\s*(?:$|[?!.,:;)—–]|\s?-\s|(?:против|и|или|vs|versus)\b))",
    re.IGNORECASE,
)


#: «выпала 6-я?», «кинул 6-ю»: after dice words an ordinal is a die face or a die, not an edition.
_DICE_BEFORE = re.compile(r"(?:выпа\w*|кин\w*|кида\w*|брос\w*|куб\w*|кост\w*|результат\w*|d6|д6)\W+(?:\w+\W+)?$",
                          re.IGNORECASE)


#: «кт vs 6ка», «против 10-ки»: a number in the players' form (6ка, 6ке, 10-ку) right after the word setting one
#: side against the other names an edition, whatever dice word comes before («результат рукопашки vs 6ка» is
#: the result of a combat in Kill Team against the 6th, not a die showing 6).
VERSUS_EDITION = re.compile(r"(?:\bvs\.?|\bversus|\bпротив)\s+(\d{1,2})-?(?:ка|ке|ки|ку|кой)\b", re.IGNORECASE)


def versus_editions(question: str) -> list[str]:
    """The editions a question sets against another by «vs 6ка», «против 10-ки» (:data:`VERSUS_EDITION`), each a
    manifest edition, in the order named."""
    known = set(display_order())
    return list(dict.fromkeys(m.group(1) for m in VERSUS_EDITION.finditer(question) if m.group(1) in known))


def ordinal_editions(question: str) -> list[str]:
    """The editions a question names by a bare ordinal (each number an edition the manifest has), in
    the order it names them: «Чем отличается …: 6-я против 10-й?» → ``["6", "10"]``. A number with a
    noun after it («6-й ход», «2-я модель») or without an ordinal ending («на 6») names none."""
    known = set(display_order())
    found: list[str] = []
    for match in BARE_ORDINAL.finditer(question):
        number = match.group(1)
        if _DICE_BEFORE.search(question[: match.start()]):
            continue
        if number in known and number not in found:
            found.append(number)
    return found


def older_named(question: str, named: Sequence[str], hits: Sequence[Any]) -> list[str]:
    """The older edition «в старой редакции», «раньше», "in the old edition" names
    (:func:`older_editions_asked`): the one retrieval ranks first among the editions but the default,
    when the question names no older edition itself (then the words mean those); none without a hit."""
    older = older_editions_asked(question)
    if not older or set(named) & set(older):
        return []
    ranked = [h.edition for h in hits if h.edition in older]
    return ranked[:1]


def named_editions(parsed: Any, question: str, listed: Sequence[str] = (), hits: Sequence[Any] = ()) -> list[str]:
    """:func:`named_editions_of` and the older edition its words name (:func:`older_named`), after them."""
    named = named_editions_of(parsed, question, listed)
    if parsed.explicit_edition is not None:
        return named
    return list(dict.fromkeys([*named, *older_named(question, named, hits)]))


def named_editions_of(parsed: Any, question: str, listed: Sequence[str] = ()) -> list[str]:
    """Every edition the question names: the query parser's, the editions of a list before «редакция»
    (``listed``) and the bare ordinals (:func:`ordinal_editions`), in that order. A comparison naming one
    edition to the parser gets the newest added as its other side; when the question names that other
    side itself («в Kill Team по сравнению с обычной 6-й»), the guess is dropped. With an edition filter
    (``--edition``) the bare ordinals are not read, as the parser reads no edition word then."""
    if parsed.explicit_edition is not None:  # an edition filter: the question's own edition words are not read
        return list(dict.fromkeys([*parsed.editions, *listed]))
    extra = [*listed, *ordinal_editions(question), *versus_editions(question)]
    named = list(dict.fromkeys([*detect_editions(parsed.cleaned), *extra]))
    if len(named) >= 2:
        return named
    if parsed.compare and not compares_editions(question, len(named)):
        # «basic vs advanced rules» in a 6th-edition question: the parser's newest edition guessed as the
        # other side of a comparison the question does not make
        return named
    return list(dict.fromkeys([*parsed.editions, *extra]))


@dataclass(frozen=True)
class Defining:
    """A concept's defining passage standing in for a hit (it has what ``ruling_part`` reads)."""

    node_id: str
    kind: str
    edition: str


def defining_editions(index: Any, concepts: Sequence[str]) -> list[str]:
    """The editions whose books define the question's most specific concept that any book defines."""
    specific = sorted((c for c in concepts if index.concept_weight(c) >= OTHER_EDITIONS_MIN_WEIGHT),
                      key=lambda c: -index.concept_weight(c))
    for concept in specific:
        found = [e for e, ids in index.concept_nodes.get(concept, {}).items() if ids]
        if found:
            return found
    return []


def with_defining(index: Any, concepts: Sequence[str], edition: str, hits: Sequence[Any]) -> list[Any]:
    """For one edition's part of a comparison: the defining passage of the question's most specific
    concept in that edition first (the termbase's curated definitions), then the edition's hits."""
    specific = sorted((c for c in concepts if index.concept_weight(c) >= OTHER_EDITIONS_MIN_WEIGHT),
                      key=lambda c: -index.concept_weight(c))
    for concept in specific:
        node_ids = [n for n in index.concept_nodes.get(concept, {}).get(edition, []) if n in index.features]
        if node_ids:
            features = index.features[node_ids[0]]
            lead = Defining(features.id, features.kind, edition)
            return [lead] + [h for h in hits if h.node_id != lead.node_id]
    return list(hits)


#: A comparison reads each compared edition's own ranking this deep (the search restricted to the edition).
COMPARED_DEPTH = 10
#: A concept this specific (its weight in the index) or more can be the mechanic a comparison's part reads.
MECHANIC_MIN_WEIGHT = 0.25


def _mechanic(index: Any, parsed: Any, edition: str, ranked: Sequence[Any]) -> set[str]:
    """The passages of one edition that define the compared mechanic: the question's concept (specific
    enough, :data:`MECHANIC_MIN_WEIGHT`) that the edition's best-ranked passage defining any of them defines
    — one named unambiguously before one an ambiguous word names («цель»: a target or a stratagem's
    target), the most specific when it defines several."""
    concepts = [c for c in parsed.concepts if index.concept_weight(c) >= MECHANIC_MIN_WEIGHT]
    defining = {c: set(index.concept_nodes.get(c, {}).get(edition, [])) for c in concepts}
    for hit in ranked:
        found = [c for c in concepts if hit.node_id in defining[c]]
        if found:
            best = max(found, key=lambda c: (parsed.concept_share.get(c, 1.0) >= 1.0, index.concept_weight(c)))
            return defining[best]
    return set()


def compared_passages(index: Any, parsed: Any, question: str, edition: str, hits: Sequence[Any]) -> list[Any]:
    """One compared edition's passages for its part's ruling from the text. ``hits`` are the edition's
    passages as the card reads them (:func:`with_defining`: the curated definition of the question's most
    specific concept, else the first hit, leads); the first of them still leads, then every passage of the
    edition's own ranking (the search restricted to the edition, :data:`COMPARED_DEPTH` deep, then
    ``hits``) that defines the compared mechanic (:func:`_mechanic`), in ranked order, then the rest: ten
    mixed hits hold only the edition's share, and the passage that rules on the case asked is often the
    mechanic's second or third definition, fourth or lower there (the 6th edition's «Объявление
    нападения» behind its primary targets and line of sight)."""
    lead = list(hits)
    own = [h for h in search_parsed(index, index.parse(question, edition), COMPARED_DEPTH, snippets=False)
           if h.edition == edition]
    seen = {h.node_id for h in own}
    ranked = own + [h for h in lead if h.node_id not in seen]
    mechanic = _mechanic(index, parsed, edition, ranked)
    first = lead[:1]
    taken = {h.node_id for h in first}
    defining = [h for h in ranked if h.node_id in mechanic and h.node_id not in taken]
    taken |= {h.node_id for h in defining}
    return first + defining + [h for h in ranked if h.node_id not in taken]


def concept_filter(index: Any, parsed: Any) -> Any:
    """Whether a passage is about the question's mechanic: it names one of the question's concepts
    (any passage passes when the question names none)."""
    wanted = set(parsed.concepts)

    def about(node_id: str) -> bool:
        if not wanted:
            return True
        features = index.features.get(node_id)
        return features is not None and bool(wanted & (set(features.concepts) | set(features.defines)))

    return about


def unmarked_editions(hits: Sequence[Any], by_edition: dict[str, list[Any]], played: str | None,
                       about: Any = None) -> list[str]:
    """Editions for a question naming or implying none: those whose best passage scores close to the
    first hit's or is among the first :data:`CONFIRM_HITS` hits, and is about the question's mechanic,
    the player's edition (else the 10th) first."""
    if not hits:
        return []
    top = hits[0].score or 1.0
    # a passage among the first hits is close whatever its score: retrieval found the mechanic there
    # (the 6th edition's to-hit table, third behind two 10th-edition passages that score higher)
    ranked = {h.node_id for h in hits[:CONFIRM_HITS]}

    def fits(e: str) -> bool:
        return about is None or e == hits[0].edition or about(by_edition[e][0].node_id)

    close = [e for e, eh in by_edition.items() if eh[0].score >= PER_EDITION_SHARE * top and fits(e)]
    found = [e for e, eh in by_edition.items() if e not in close and eh[0].node_id in ranked and fits(e)]
    lead = played or default_edition()
    if lead in close:
        return [lead] + [e for e in close if e != lead] + found
    # the player's edition is far behind: its nearest rule follows the book that has the mechanic
    if lead in by_edition and lead not in found and by_edition[lead][0].score >= 0.3 * top:
        close.append(lead)
    return close + found


