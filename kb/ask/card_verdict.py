"""The sentence that carries a yes/no card's verdict: when the text a card shows states nothing of
what the question asks (its predicate, :func:`rulekb.kb.text.asked.question_predicates`), the
sentence of the edition's top passages whose main clause states it — «Боевая единица, которая
отступает, не может нападать» for «Может ли отступающая боевая единица нападать?» — joins the card,
so the verdict is read off the words that say it and the player reads them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rulekb.kb.text.analysis import lemmas
from rulekb.kb.text.asked import EnglishVocabulary, english_predicates, question_predicates
from rulekb.kb.text.choice import carried
from rulekb.kb.text.sentences import NON_RULING
from rulekb.kb.text.stated import Groups
from rulekb.kb.text.verdicts import limits_to_one, only_one_denies, stated_predicate

__all__ = ["VERDICT_CARRIED", "VERDICT_HITS", "limiting_sentence", "verdict_sentence", "with_verdict_sentence"]

#: How many of the edition's top passages are read for the sentence stating the predicate …
VERDICT_HITS = 5
#: … which must carry at least this share of the question's weight the chosen sentence carries.
VERDICT_CARRIED = 1.0


def verdict_sentence(question: str, lang: str, english: EnglishVocabulary | None, shown: str, best: str,
                     weights: dict[str, float], passages: Sequence[tuple[Any, Sequence[Any]]],
                     groups: Any = None, synonyms: Groups = ()) -> tuple[Any, str] | None:
    """``(leaf, sentence)``: among ``passages`` (``(leaf, marked sentences)`` in rank order) the ruling
    sentence not ``shown`` whose main clause states the question's predicate, carrying at least
    :data:`VERDICT_CARRIED` of what the chosen sentence ``best`` carries — the fullest statement of
    the predicate first, then the most of the question's words, then rank. ``None`` when the shown
    text states the predicate already, the question has none, or no such sentence is found."""
    # the predicate of the sentence that asks: a verb of the situation told before it («провалил
    # баттлшок … Можно?») is not what is asked
    predicates = question_predicates(question, asking_only=True) if lang != "en" else english_predicates(question, english or ())
    if not predicates or stated_predicate(shown, predicates, synonyms) is not None:
        return None
    floor = VERDICT_CARRIED * carried(lemmas(best), weights, groups)
    found: tuple[tuple[float, float, int], Any, str] | None = None
    for rank, (leaf, sentences) in enumerate(passages):
        for sentence in sentences:
            if sentence.mark in NON_RULING or sentence.text in shown:
                continue
            stated = stated_predicate(sentence.text, predicates, synonyms)
            if stated is None:
                continue
            score = carried(sentence.lemmas, weights, groups)
            key = (stated[0], score, -rank)
            if score > 0 and score >= floor and (found is None or key > found[0]):
                found = (key, leaf, sentence.text)
    return None if found is None else (found[1], found[2])


def with_verdict_sentence(question: str, form: str, lang: str, english: EnglishVocabulary | None, choice: Any,
                          weights: dict[str, float], passages: Sequence[tuple[Any, Sequence[Any]]], groups: Any,
                          citations: list[dict[str, Any]], synonyms: Groups = ()) -> Any:
    """A yes/no card's ``choice`` with the sentence :func:`verdict_sentence` finds after its text, and
    that sentence's citation added to ``citations``; ``choice`` itself for another form or none found."""
    if form != "yesno":
        return choice
    found = verdict_sentence(question, lang, english, choice.text, choice.best, weights, passages, groups, synonyms)
    if found is None:
        found = limiting_sentence(question, lang, english, choice.text, choice.best, weights, passages, groups)
    if found is None:
        return choice
    leaf, sentence = found
    citations.append({"source_id": leaf.source_id, "lines": list(leaf.lines), "quote": sentence})
    return replace(choice, text=f"{choice.text} {sentence}")


def limiting_sentence(question: str, lang: str, english: EnglishVocabulary | None, shown: str, best: str,
                      weights: dict[str, float], passages: Sequence[tuple[Any, Sequence[Any]]],
                      groups: Any = None) -> tuple[Any, str] | None:
    """``(leaf, sentence)``: for a question asking whether both of two, or a thing again, may be done
    («и в движение, и в нападение в один ход?», «… опять включить ранцы?»), when the ``shown`` text allows
    nothing only once, the ruling sentence of ``passages`` that does («… всего раз за каждый ход — либо в
    фазе движения, либо в фазе наступления»), carrying at least :data:`VERDICT_CARRIED` of what the chosen
    sentence ``best`` carries or stating the question's predicate — the most of the question's words first, then rank; ``None`` otherwise."""
    if only_one_denies(question, shown) or not only_one_denies(question, "только один"):
        return None  # the shown text limits already, or the question asks about no second one
    floor = VERDICT_CARRIED * carried(lemmas(best), weights, groups)
    predicates = question_predicates(question, asking_only=True) if lang != "en" else english_predicates(question, english or ())
    found: tuple[tuple[float, int], Any, str] | None = None
    for rank, (leaf, sentences) in enumerate(passages):
        for sentence in sentences:
            if sentence.mark in NON_RULING or sentence.text in shown or not limits_to_one(sentence.text):
                continue
            score = carried(sentence.lemmas, weights, groups)
            # it carries the question as much as the chosen sentence, or it states what is asked
            enough = score >= floor or stated_predicate(sentence.text, predicates) is not None
            if score > 0 and enough and (found is None or (score, -rank) > found[0]):
                found = ((score, -rank), leaf, sentence.text)
    return None if found is None else (found[1], found[2])
