"""A comparison's parts on what the question asks of the mechanic: the words of the question a part's ruling
does not carry — the compared aspect («стрелять» in «после отступления стрелять можно?», «первым» in «кто бьёт
первым после чарджа») beside the mechanic's name, which the part's defining passage carries — are looked for
in the edition's passages of the sections the part quotes (the mechanic's own section: its other leaves rule
on its other aspects), and the ruling sentence carrying most of them joins the part (the 7th edition's
«Отступающая боевая единица может вести огонь только навскидку», under «Отступление и стрельба», beside its
passage on falling back through the enemy)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rulekb.kb.ask.card_aspect import MAX_ADDED, with_added
from rulekb.kb.ask.card_sections import cited_leaves
from rulekb.kb.ask.part import Part, marked_sentences
from rulekb.kb.search.features import concepts_in
from rulekb.kb.text.context import heading_lemmas
from rulekb.kb.text.sentences import NON_RULING

__all__ = ["ASKED_DEPTH", "ASKED_SHARE", "ASPECT_WEIGHT", "GENERIC_CONCEPT", "MECHANIC_SHARE", "UNCARRIED_SHARE", "Word",
           "asked_sentence", "asked_words", "uncarried", "with_asked_aspects"]

#: A question word weighing less than this share of its heaviest word names no aspect of the mechanic.
ASPECT_WEIGHT = 0.35
#: A word naming a concept less specific than this (its weight in the index: «модель», «отряд») names no aspect.
GENERIC_CONCEPT = 0.25
#: How many of the edition's passages (its compared ranking) are read for the sentence on the aspect asked.
ASKED_DEPTH = 10
#: A part is looked at when the question words its ruling does not carry weigh this share of the question or more.
UNCARRIED_SHARE = 0.15
#: The sentence joining the part carries at least this share of the uncarried words' weight.
ASKED_SHARE = 0.5
#: … and, with the heading it sits under, this share of the whole question (the mechanic's words too).
MECHANIC_SHARE = 0.5


#: A question word: its lemma, its weighted terms (its lemma and alternatives), the concept it names (or
#: ``""``), its weight.
Word = tuple[str, frozenset[str], str, float]


def asked_words(index: Any, parsed: Any, weights: Mapping[str, float]) -> list[Word]:
    """The question's words that can name what is asked of the mechanic: not light, weighing at least
    :data:`ASPECT_WEIGHT` of the heaviest word («после», «самый» name nothing), each counted once by its
    weightiest term whatever the number of its synonyms."""
    found = []
    for word in parsed.words:
        terms = frozenset(t for t in (word.lemma, *word.alternatives) if t in weights)
        if word.concept and index.concept_weight(word.concept) < GENERIC_CONCEPT:
            continue  # «модель», «отряд»: what every rule is about, no aspect of one
        if terms and not word.light:
            found.append((word.lemma, terms, word.concept or "", max(weights[t] for t in terms)))
    heaviest = max((w[3] for w in found), default=0.0)
    return [w for w in found if w[3] >= ASPECT_WEIGHT * heaviest]


def uncarried(words: Sequence[Word], lemmas: Iterable[str], concepts: Iterable[str] = ()) -> list[Word]:
    """The words a text's ``lemmas`` and ``concepts`` do not carry: a word is carried when the text prints its
    lemma or an alternative of it (a synonym, the noun of its verb) or names the concept it names
    («фолбэк»: «отступают»)."""
    printed = set(lemmas)
    named = set(concepts)
    return [w for w in words if not printed & w[1] and not (w[2] and w[2] in named)]


def _weight(words: Sequence[Word]) -> float:
    return sum(w[3] for w in words)


def with_asked_aspects(index: Any, marked: dict[str, Any], parsed: Any, parts: Sequence[Part],
                       hits: Mapping[str, Sequence[Any]], weights: dict[str, float]) -> list[Part]:
    """Each part from the text with the ruling sentence on what the question asks of the mechanic that the
    part does not carry yet (:func:`asked_sentence`)."""
    words = asked_words(index, parsed, weights)
    if not words:
        return list(parts)
    out: list[Part] = []
    for part in parts:
        found = asked_sentence(index, marked, part, (hits.get(part.edition) or ())[:ASKED_DEPTH], words)
        out.append(part if found is None else with_added(index, part, *found))
    return out


def asked_sentence(index: Any, marked: dict[str, Any], part: Part, hits: Sequence[Any],
                   words: Sequence[Word]) -> tuple[str, str] | None:
    """``(node_id, sentence)``: of the ruling sentences of ``hits`` in the sections the part quotes (each read
    with the heading it sits under and the concepts its passage names; a passage of another section shares a
    word, not the mechanic), the one carrying most of the question's words, among those that
    carry :data:`ASKED_SHARE` of what the part's ruling does not carry (:func:`uncarried`). The words count
    as the edition's passages print them or name their concept, in the score and in the shares alike: a word
    none of them prints or names («путаемся», «играем») asks nothing of its rules. ``None`` when the part's
    ruling leaves less than :data:`UNCARRIED_SHARE` of that weight uncarried or the best sentence carries less
    than :data:`MECHANIC_SHARE` of it (another rule sharing the aspect's word). The share of the uncarried
    words a sentence must carry counts its own and its heading's words only, not its passage's concepts."""
    if part.source != "text":
        return None
    ruling = part.text.rpartition("\n")[2]
    missing = uncarried(words, index.lemmas_of(ruling), concepts_in(index.matcher, ruling))
    if not missing:
        return None
    sections = {leaf.id.rsplit("/", 1)[0] + "/" for leaf in cited_leaves(index, part.citations)}
    candidates: list[tuple[str, str, set[str], set[str]]] = []
    for hit in hits:
        leaf = index.features.get(hit.node_id)
        if leaf is None or not any(leaf.id.startswith(s) for s in sections):
            continue
        heading = heading_lemmas(leaf.heading)
        named = {*leaf.concepts, *leaf.defines}  # what the passage is about, its heading's concepts too
        candidates.extend((leaf.id, x.text, {*x.lemmas, *heading}, named) for x in marked_sentences(marked, leaf)
                          if x.mark not in NON_RULING and x.text not in part.text and len(x.text) <= MAX_ADDED)
    unprinted = [w for w in missing if all(uncarried([w], seen, named) for _i, _t, seen, named in candidates)]
    missing = [w for w in missing if w not in unprinted]
    total = _weight(words) - _weight(unprinted)
    left = _weight(missing)
    if not total or left < UNCARRIED_SHARE * total:
        return None
    best: tuple[float, str, str] | None = None
    for node_id, text, seen, named in candidates:
        if left - _weight(uncarried(missing, seen)) < ASKED_SHARE * left:
            continue  # the aspect in the sentence's own words or its heading's, not the passage's concepts
        score = _weight(words) - _weight(uncarried(words, seen, named))
        if best is None or score > best[0]:
            best = (score, node_id, text)
    if best is None or best[0] < MECHANIC_SHARE * total:
        return None
    return best[1], best[2]
