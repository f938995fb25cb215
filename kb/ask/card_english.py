"""The English side of a card: the measures a ruling states and an English lead line above the Russian text.

No machine translation of the books: an English card names the rule in the termbase's English terms and
writes the ruling's numbers in the rulebooks' notation (``9″``, ``2D6``, ``3+``), above the cited Russian
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from statistics import median
from typing import Any

from rulekb.corpus.errors import RulebaseError
from rulekb.corpus.models import EDITIONS
from rulekb.kb.ask.card_measures import (
    GENERIC_WEIGHT,
    MIN_ABBREVIATION,
    counted_terms,
    measures,
    number_lead,
    result_ranges,
    with_counts,
)
from rulekb.kb.ask.card_terms import english_name, records
from rulekb.kb.ask.form import concept_editions
from rulekb.kb.ask.labels import edition_label
from rulekb.kb.knowledge import open_knowledge_base
from rulekb.kb.search.features import concepts_in
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.analysis import lemmas, tokens
from rulekb.kb.text.vocabulary import load_english

__all__ = ["GENERIC_WEIGHT", "MAX_ENGLISH_NAMES", "RULING_INTRO", "counted_terms", "english_groups", "english_line",
           "english_weights", "extend_english_line", "line_name", "measures", "misspelt_terms", "number_lead",
           "result_ranges", "ruling_concepts"]


def _specific_first(build_dir: Path, concepts: Sequence[str]) -> list[str]:
    """``concepts`` without those half the rules mention («Model», «Unit»), the most specific first
    (a stable sort: text order among equals)."""
    try:
        weight = get_index(build_dir).concept_weight
    except RulebaseError:  # no index to weigh them by: text order
        return list(concepts)
    kept = [c for c in dict.fromkeys(concepts) if weight(c) >= GENERIC_WEIGHT]
    return sorted(kept, key=lambda c: -weight(c))


def english_line(build_dir: Path, edition: str, concepts: Sequence[str], ruling: str, lead: str | None,
                 rule: str = "") -> str:
    """An English card's lead line: the edition, the asked and the ruling's terms in English, the
    ruling's numbers, then the counts and up to :data:`RULE_MEASURES` measures of the rest of its
    ``rule`` (:func:`rulekb.kb.ask.card_measures.rule_text`: the sentence chosen often states none — the 3″ of a consolidation,
    the 5+ of a stratagem's roll), the rule words, then ``lead``."""
    asked = _specific_first(build_dir, concepts) or list(concepts)
    names = [n for n in (line_name(build_dir, c) for c in asked[:3]) if n]
    # the terms the ruling itself uses, in the termbase's English names («Snap Shots», «Desperate Escape»),
    # the most specific first
    for concept in _specific_first(build_dir, ruling_concepts(build_dir, ruling, edition)):
        name = line_name(build_dir, concept)
        if name and name not in names and len(names) < MAX_ENGLISH_NAMES:
            names.append(name)
    counted = list(dict.fromkeys([*counted_terms(build_dir, ruling), *counted_terms(build_dir, rule)]))
    numbers = with_counts(measures(ruling, ranges=True)[:4], counted)
    numbers += [m for m in dict.fromkeys(measures(rule)) if m not in numbers][:RULE_MEASURES]
    line = edition_label(edition, "en")
    if names:
        line += " — " + ", ".join(names)
    if numbers:
        line += ": " + ", ".join(numbers)
    line += "."
    words = rule_words(ruling, names, build_english(build_dir))
    if words:
        line += " Rule words: " + ", ".join(en for en, _ in words) + "."
    if lead:
        line = f"{lead} {line}"
    return line + RULING_INTRO


def line_name(build_dir: Path, concept: str) -> str | None:
    """A concept's English name on a lead line, with the abbreviation the rulebooks print for it
    when it has two letters or more ("Armour Penetration (AP)", "Objective Control (OC)"; not "Move (M)")."""
    name = english_name(build_dir, concept)
    abbreviation = str((records(build_dir).get(concept) or {}).get("abbreviation") or "")
    if name and len(abbreviation) >= MIN_ABBREVIATION and abbreviation.lower() != name.lower():
        return f"{name} ({abbreviation})"
    return name



#: At most this many measures of the rest of the rule follow the ruling's numbers on an English line.
RULE_MEASURES = 2


#: What closes an English lead line: the Russian ruling follows.
RULING_INTRO = " The ruling, as the Russian text prints it:"


def extend_english_line(build_dir: Path, line: str, added: str) -> str:
    """An English lead line with the terms and numbers of a further Russian ruling ``added`` that it
    does not name yet (a comparison part reads a second passage)."""
    if not line.endswith(RULING_INTRO):
        return line
    edition = _line_edition(line)
    names = [n for n in (line_name(build_dir, c)
                         for c in _specific_first(build_dir, ruling_concepts(build_dir, added, edition)))
             if n and n not in line][:MAX_ADDED_NAMES]
    numbers = [m for m in with_counts(measures(added, ranges=True)[:4], counted_terms(build_dir, added))
               if m not in line]
    more = ", ".join(names + numbers)
    if not more:
        return line
    return line[: -len(RULING_INTRO)] + f" Also: {more}." + RULING_INTRO


def _line_edition(line: str) -> str | None:
    """The edition an English lead line is labelled with (``None`` when no label opens its names)."""
    for edition in EDITIONS:
        if f"{edition_label(edition, 'en')} — " in line:
            return edition
    return None


#: At most this many further term names when a part reads a second passage.
MAX_ADDED_NAMES = 4


_ADJECTIVE = re.compile(r"(?:ый|ий|ой)$")


def build_english(build_dir: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The English vocabulary the build was made with (``vocabulary.json``; empty for an older build)."""
    vocabulary = open_knowledge_base(build_dir).synonyms
    return vocabulary.english if vocabulary is not None else ()


@lru_cache(maxsize=4)
def _rule_lemmas(english: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, str]:
    """Russian lemma → the English rule word the English vocabulary gives it first
    (``kb/data/english.toml``: «завершать» → end, «каждый» → every)."""
    found: dict[str, list[str]] = {}
    for word, russian in english:
        for ru in russian:
            one = lemmas(ru)
            if len(one) != 1:  # a phrase's words alone («во время» → «время») are no gloss of it
                continue
            if len(russian) > 1 and _ADJECTIVE.search(one[0]):
                continue  # an adjective beside the word's nouns is half a phrase («боевой» of «боевой дух»)
            found.setdefault(one[0], []).append(word)
    # a short function word («до», «тот», «все») says nothing reliable on its own: left out; a word
    # the vocabulary gives for several English words («каждый»: each, every; «видимый»: visible, see)
    # is glossed by all of them, as the vocabulary lists them («each/every»)
    glosses: dict[str, str] = {}
    for lemma, words in found.items():
        kept: list[str] = []
        for word in words:  # one English word per stem: move, moved, movement → move; use, used → use
            if not any(_same_stem(word, other) for other in kept):
                kept.append(word)
        if len(lemma) >= MIN_RULE_LEMMA and len(kept) <= MAX_GLOSSES:
            glosses[lemma] = "/".join(kept)
    return glosses


def _same_stem(one: str, other: str) -> bool:
    one, other = one.replace("-", ""), other.replace("-", "")
    short, long_ = sorted((one, other), key=len)
    return one[:4] == other[:4] or long_.startswith(short.rstrip("e"))


def rule_words(ruling: str, names: Sequence[str] = (),
               english: tuple[tuple[str, tuple[str, ...]], ...] | None = None) -> list[tuple[str, str]]:
    """The ruling's rule words in English, in text order, each with the word the text prints: the
    vocabulary English questions are searched with (``english``: a build's; else the project's),
    read the other way (word for word, never a translation of the sentence); words already in a
    term name on the line are left out."""
    table = _rule_lemmas(english if english is not None else tuple(load_english().items()))
    named = " ".join(names).lower()
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for token in tokens(ruling):
        word = table.get(token.text)
        if word is None or word in seen or any(re.search(rf"\b{re.escape(w)}", named) for w in word.split("/")):
            continue
        seen.add(word)
        out.append((word, ruling[token.start:token.end]))
        if len(out) >= MAX_RULE_WORDS:
            break
    return out


#: A Russian word the vocabulary gives for more English words than this is no gloss («время»…).
MAX_GLOSSES = 3
#: Shortest Russian lemma glossed as a rule word (shorter ones are function words: «до», «тот», «все»).
MIN_RULE_LEMMA = 4
#: At most this many rule words on an English card's lead line.
MAX_RULE_WORDS = 10

#: At most this many English term names on an English card's lead line.
MAX_ENGLISH_NAMES = 8


def english_weights(index: Any, parsed: Any, weights: dict[str, float]) -> dict[str, float]:
    """An English question's term weights for choosing the Russian sentence that rules.

    The words only the question prints (English words the texts never use) carry nothing a Russian
    sentence could match, but would set the scale the form's bonus is measured by: they are left out.
    A concept named in English is searched by every printed rendering of it, and its rarest ones
    (a mistranslation used once: «зарядка», «предъявление» for *charge*) would outweigh the rendering the
    rules print throughout: each of a concept's rendering words weighs at most its renderings' median
    (a rendering weighing by its most distinctive word), as one word the question typed would."""
    printed = {t: w for t, w in weights.items() if t in index.vocabulary}
    for term, weight in misspelt_terms(index, parsed).items():
        printed[term] = max(printed.get(term, 0.0), weight)
    rendered = {t.text for t in parsed.terms if t.origin == "rendering"}
    concepts = index.matcher.concepts
    capped = dict(printed)
    for concept_id in parsed.concepts:
        concept = concepts.get(concept_id)
        if concept is None:
            continue
        phrases = [[t.text for t in tokens(text) if t.text in printed and t.text in rendered]
                   for text, origin, _source in concept.phrases if origin == "rendering"]
        phrase_weights = sorted(max(printed[t] for t in terms) for terms in phrases if terms)
        if not phrase_weights:
            continue
        cap = median(phrase_weights)
        for terms in phrases:
            for term in terms:
                capped[term] = min(capped[term], cap)
    return capped or weights


def _edits(one: str, other: str, limit: int) -> int:
    """Edit distance of two words (a swap of neighbouring letters is one edit: «modle»), or
    ``limit + 1`` once it exceeds ``limit``."""
    if abs(len(one) - len(other)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        current = [i]
        for j, b in enumerate(other, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]


#: A misspelt English word is read as the vocabulary word this many edits away (one for words of
#: up to seven letters, two for longer ones); shorter words are never corrected.
MIN_TYPO_LENGTH = 5


def misspelt_terms(index: Any, parsed: Any) -> dict[str, float]:
    """The Russian terms an English question's misspelt rule words stand for («visable» → visible →
    «видимый», «overwach» is a concept already): a Latin word of five letters or more that the search
    expanded to nothing and named no concept is read as the one English vocabulary word within one
    edit (two for longer words), when exactly one is; its Russian words weigh by their IDF."""
    english = dict(build_english(index.build_dir))
    found: dict[str, float] = {}
    for word in parsed.words:
        typed = word.original.lower()
        if (word.concept or len(word.alternatives) > 1 or len(typed) < MIN_TYPO_LENGTH or not typed.isascii()
                or not typed.isalpha() or typed in english):
            continue
        limit = 1 if len(typed) <= 7 else 2
        near = [w for w in english if len(w) >= MIN_TYPO_LENGTH and _edits(typed, w, limit) <= limit]
        if len(near) != 1:
            continue
        for russian in english[near[0]]:
            for term in index.lemmas_of(russian):
                if term in index.vocabulary:
                    found[term] = max(found.get(term, 0.0), index.idf(term))
    return found


def english_groups(index: Any, parsed: Any) -> dict[str, str]:
    """Term → the English question word it stands for (see :func:`rulekb.kb.text.choice.carried`):
    the Russian words a typed word was expanded to are one question word, and so are a concept's
    one-word renderings (*charge*: «рывок», «нападение», «зарядка»); the words of a rendering of
    several words («бросок на попадание») each count, as a Russian question typing it would."""
    groups: dict[str, str] = {}
    concepts = index.matcher.concepts
    for word in parsed.words:
        if len(word.alternatives) > 1:
            key = f"concept:{word.concept}" if word.concept else f"word:{word.lemma}"
            for term in word.alternatives:
                groups.setdefault(term, key)
    for concept_id in parsed.concepts:
        concept = concepts.get(concept_id)
        if concept is None:
            continue
        renderings = [[t.text for t in tokens(text)] for text, origin, _source in concept.phrases if origin == "rendering"]
        in_phrases = {t for terms in renderings if len(terms) > 1 for t in terms}
        for terms in renderings:
            if len(terms) == 1 and terms[0] not in in_phrases:
                groups.setdefault(terms[0], f"concept:{concept_id}")
    return groups


def ruling_concepts(build_dir: Path, ruling: str, edition: str | None = None) -> list[str]:
    """The termbase concepts a ruling's Russian words name, in text order; with ``edition``, only
    those the termbase finds printed in that edition's books (a player's alias or another book's
    word matched in the ruling — «отряд» for Kill Team's Squad, «атака» for the 10th edition's
    Assault in a 6th-edition ruling — names no term of the ruling's book)."""
    found = concepts_in(get_index(build_dir).matcher, ruling)
    if edition is None:
        return found
    printed = concept_editions(build_dir)
    return [c for c in found if edition in printed.get(c, frozenset({edition}))]




