"""The noun of the action a question's verb names (:func:`verbal_nouns`): a rule's heading and its «•»
summary name actions by nouns («ОТСТУПЛЕНИЕ И НАПАДЕНИЕ», «Объявление Нападения»), a player asks with
verbs («может ли отступающая … нападать», «могу я объявить на него чардж?»)."""

from __future__ import annotations

from rulekb.kb.text.asked import pos

__all__ = ["is_verb", "verbal_nouns"]

#: The endings that make a verb's stem the noun of its action («напад-ение», «объявл-ение»,
#: «развертыв-ание», «отступ-ление»); the verb's own vowel with «-ние» is tried too («сближа-ние»).
NOUN_ENDINGS = ("ение", "ание", "яние", "ление")


def is_verb(word: str) -> bool:
    """An infinitive or a finite verb («нападать», «отступает»), not a participle («нападающих»: the
    ones who charge, not the charge) or a gerund."""
    return pos(word.lower()) in ("INFN", "VERB")


def verbal_nouns(verb: str, vocabulary: frozenset[str] | set[str]) -> list[str]:
    """The nouns of the action ``verb`` (a lemma) names that the texts print («нападать» → «нападение»,
    «отступить» → «отступление», «объявить» → «объявление»): its stem with one of
    :data:`NOUN_ENDINGS`, or its vowel and «-ние», kept only when ``vocabulary`` (the texts' lemmas)
    has it."""
    base = verb[:-2] if verb.endswith("ся") else verb
    if not base.endswith("ть") or len(base) < 5:
        return []
    stem, vowel = base[:-3], base[-3]
    found = {stem + ending for ending in NOUN_ENDINGS} | {stem + vowel + "ние"}
    return sorted(noun for noun in found if noun in vocabulary and noun != verb)
