"""Query understanding: what a player's question is about, in which edition, in which words.

A question goes through the same analyzer as the rule texts (:mod:`rulekb.kb.text.analysis`), then:

* **cleaning** — control characters and symbols are dropped; anything beyond
  :data:`MAX_QUERY_CHARS` is refused with a :class:`~rulekb.corpus.errors.QueryError`;
* **edition detection** — «в 6-й», «6-ка», «шестёрке», «6th», «10ed», «десятка», «kill team»,
  «кт»… (:func:`detect_editions`); a dice «шестёрка» («выпала шестёрка») is not an edition;
* **concept detection** — n-grams of lemmas against every rendering, alias, English term and
  abbreviation of the termbase, in any inflection, plus a fuzzy match for slang
  («бэтлшок» ≈ «баттл-шок», «зачарджил» → «чардж») (:class:`ConceptMatcher`);
* **expansion** — English rule words and Russian synonyms that the texts use for the same thing
  (unit = отряд / подразделение / юнит), at a lower weight (``kb/data/synonyms.toml``, :func:`load_english`, ``kb/data/english.toml``);
* **paraphrases** — a player's phrase for what the rules say in other words («не докатил
  чардж» → failed charge) names the concept and adds the rule's words;
* **spelling** — an unknown word close to a word of the texts is corrected, and the correction
  is offered as «did you mean» (:class:`Speller`).

The pieces live in :mod:`rulekb.kb.search.query_text` (cleaning, editions, comparisons),
:mod:`rulekb.kb.search.vocabulary` (synonyms, English words, paraphrases) and :mod:`rulekb.kb.search.concepts`
(the termbase matcher); this module puts them together and re-exports them.

The result is a :class:`ParsedQuery`: weighted terms that :mod:`rulekb.kb.search.searcher` turns into Whoosh
query objects directly — user text never reaches a query parser, so quotes, parentheses,
``AND``/``OR``, ``*`` and ``field:value`` are just words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from rulekb.corpus.errors import QueryError
from rulekb.corpus.morph import is_known, morph
from rulekb.corpus.reader import find_source
from rulekb.kb.search.concepts import (
    ConceptEntry,
    ConceptMatch,
    ConceptMatcher,
    _deletes,
    default_matcher,
    load_concepts,
    slang_key,
    translit_key,
)
from rulekb.kb.search.query_text import (
    EDITION_CODES,
    MAX_QUERY_CHARS,
    NEAR_EDITIONS,
    NEWEST_EDITION,
    _strip_edition_words,
    clean_query,
    detect_editions,
    expand_contractions,
    is_comparison,
)
from rulekb.kb.search.vocabulary import (
    CORRECTION_WEIGHT,
    EXPANSION_WEIGHT,
    LIGHT_WEIGHT,
    LIGHT_WORDS,
    RENDERING_WEIGHT,
    SLANG_WORD_WEIGHT,
    VARIANT_WEIGHT,
    VOCABULARY_FILE,
    Paraphrase,
    Vocabulary,
    _english_map,
    _synonym_map,
    load_english,
    load_vocabulary,
)
from rulekb.kb.text.analysis import fold, lemma, tokens

__all__ = [
    "EDITION_CODES",
    "MAX_QUERY_CHARS",
    "NEAR_EDITIONS",
    "VOCABULARY_FILE",
    "ConceptEntry",
    "ConceptMatch",
    "ConceptMatcher",
    "Paraphrase",
    "ParsedQuery",
    "QueryTerm",
    "QueryWord",
    "Speller",
    "Vocabulary",
    "clean_query",
    "default_matcher",
    "detect_editions",
    "is_comparison",
    "load_concepts",
    "load_english",
    "load_vocabulary",
    "parse_query",
    "slang_key",
    "translit_key",
]


# --- spelling ---------------------------------------------------------------------------------


class Speller:
    """Corrects an unknown word to a word of the texts one edit away (symmetric deletes)."""

    def __init__(self, words: dict[str, int], lemmas: frozenset[str] | None = None) -> None:
        """``words``: folded surface forms of the texts → frequency; ``lemmas``: the texts' lemmas (a
        dictionary word one edit away whose lemma the texts print corrects a form they do not print)."""
        self.words = words
        self.lemmas = lemmas
        self._dictionary: dict[str, str | None] = {}
        self._deletes: dict[str, list[str]] | None = None

    def _index(self) -> dict[str, list[str]]:
        if self._deletes is None:
            index: dict[str, list[str]] = {}
            for word in self.words:
                if len(word) >= 4:
                    for deleted in _deletes(word):
                        index.setdefault(deleted, []).append(word)
            self._deletes = index
        return self._deletes

    def correct(self, word: str) -> str | None:
        folded = fold(word)
        if len(folded) < 5 or folded in self.words:
            return None
        index = self._index()
        candidates: set[str] = set(index.get(folded, ()))
        for deleted in _deletes(folded):
            if deleted in self.words:
                candidates.add(deleted)
            candidates.update(index.get(deleted, ()))
        candidates = {c for c in candidates if abs(len(c) - len(folded)) <= 1 and c[0] == folded[0]}
        if not candidates:
            return self._dictionary_form(folded)
        return max(sorted(candidates), key=lambda c: self.words[c])

    def _dictionary_form(self, folded: str) -> str | None:
        """A dictionary word one edit from ``folded`` whose lemma the texts print: «замедляеться» →
        «замедляется» when the texts print only «замедляет», «замедляются»."""
        if self.lemmas is None or not _CYRILLIC_WORD.fullmatch(folded):
            return None
        if folded not in self._dictionary:  # about a millisecond a word: players repeat their slang
            found = sorted(c for c in _edits(folded) if c[0] == folded[0] and is_known(c) and lemma(c) in self.lemmas)
            if len(self._dictionary) >= 20_000:
                self._dictionary.clear()  # bounded in a long-running server
            self._dictionary[folded] = found[0] if found else None
        return self._dictionary[folded]


_CYRILLIC_WORD = re.compile(r"[а-я]+")
_ALPHABET = "абвгдежзийклмнопрстуфхцчшщъыьэюя"


def _edits(word: str) -> set[str]:
    """Every word one deletion, transposition, replacement or insertion away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    found = {a + b[1:] for a, b in splits if b}
    found |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    found |= {a + c + b[1:] for a, b in splits if b for c in _ALPHABET}
    found |= {a + c + b for a, b in splits for c in _ALPHABET}
    found.discard(word)
    return found


# --- the parsed query -------------------------------------------------------------------------


@dataclass
class QueryTerm:
    """One term to search for, with its weight and why it is there."""

    text: str
    weight: float
    origin: str
    """``word``, ``light`` (a question word), ``synonym``, ``english``, ``correction``."""


@dataclass
class QueryWord:
    """One word of the question and every term that stands for it."""

    original: str
    lemma: str
    alternatives: tuple[str, ...]
    """The lemma, its translations, synonyms and spelling correction."""
    light: bool = False
    concept: str | None = None
    """The concept whose phrase this word is part of."""


@dataclass
class ParsedQuery:
    """A question, understood."""

    text: str
    """The question as given."""
    cleaned: str
    terms: list[QueryTerm] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    """Concept ids, in the order the question names them."""
    concept_phrases: dict[str, list[str]] = field(default_factory=dict)
    concept_share: dict[str, float] = field(default_factory=dict)
    """Concept → 1 / the number of concepts its words named («атака» names attack, attacks and
    charge: a third each); the best share when it was named more than once. Missing means 1."""
    editions: list[str] = field(default_factory=list)
    """Editions named in the text (or the explicit one), in order."""
    explicit_edition: str | None = None
    compare: bool = False
    """The question compares editions («как изменился овервотч с 6-й», «difference between…»):
    its editions are each given a place at the top instead of one filtering the others."""
    corrections: dict[str, str] = field(default_factory=dict)
    """Unknown word → the word of the texts it was corrected to."""
    numbers: list[str] = field(default_factory=list)
    """Numbers and dice notation of the question (``2d6``, ``3+``, ``6"``)."""
    words: list[QueryWord] = field(default_factory=list)
    """The question's words in order, each with the terms that stand for it."""

    @property
    def edition(self) -> str | None:
        """The one edition to report: explicit, or the only one named; ``None`` for none or several."""
        if self.explicit_edition is not None:
            return self.explicit_edition
        return self.editions[0] if len(self.editions) == 1 else None

    @property
    def did_you_mean(self) -> str | None:
        """The question with its corrected words, or ``None`` if nothing was corrected."""
        if not self.corrections:
            return None
        text = self.cleaned
        for wrong, right in self.corrections.items():
            text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text, flags=re.IGNORECASE)
        return text

    @property
    def empty(self) -> bool:
        return not self.terms and not self.concepts


#: A reading of a word form at least this likely (pymorphy3's score) counts as a variant.
READING_MIN_SCORE = 0.1


@lru_cache(maxsize=20_000)
def readings(word: str) -> tuple[str, ...]:
    """Every likely normal form of a Russian word form, the first (the lemma) first."""
    folded = fold(word)
    if not re.search(r"[а-я]", folded):
        return (lemma(word),)
    forms = [lemma(word)]
    for parse in morph().parse(folded):
        form = fold(parse.normal_form)
        if parse.score >= READING_MIN_SCORE and form not in forms:
            forms.append(form)
    return tuple(forms)


def reading_links(surface: Iterable[str]) -> dict[str, list[str]]:
    """Lemma → the other lemmas that share a word form of the texts with it.

    The index holds each form under its first reading: «ран» is «ран», «броней» is «бронь», while
    «раны» is «рана» and «броня» is «броня». A question's «рана» must find «ран» too.
    """
    links: dict[str, set[str]] = {}
    for word in surface:
        forms = readings(word)
        for other in forms[1:]:
            links.setdefault(other, set()).add(forms[0])
            links.setdefault(forms[0], set()).add(other)
    return {key: sorted(values) for key, values in sorted(links.items())}


_VERB_END = re.compile(r"(?:ывать|ивать|вать|ать|ять|ить|еть|ыть)$")


def aspect_key(word: str) -> str | None:
    """The stem a verb shares with its other aspect: «проиграть», «проигрывать» → «проигр»;
    «назначить», «назначать(ся)» → «назнач». ``None`` for a word that is not an infinitive."""
    if word.endswith(("ться", "тись")):
        word = word[:-2]
    if not word.endswith("ть"):
        return None
    stem = _VERB_END.sub("", word)
    return stem if len(stem) >= 4 and stem != word else None


@lru_cache(maxsize=4)
def _aspect_index(vocabulary: frozenset[str]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for word in vocabulary:
        key = aspect_key(word)
        if key is not None:
            index.setdefault(key, []).append(word)
    return {key: tuple(sorted(words)) for key, words in index.items()}


def aspect_partners(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    """Verbs of the texts with the same aspect stem as ``word`` (itself excluded)."""
    key = aspect_key(word)
    if key is None:
        return ()
    return tuple(w for w in _aspect_index(vocabulary).get(key, ()) if w != word)


def _readings(original: str, text: str, variants: dict[str, list[str]] | None) -> list[str]:
    found = [r for r in readings(original)[1:] if r != text]
    for other in (variants or {}).get(text, ()):
        if other != text and other not in found:
            found.append(other)
    return found


def _add(terms: dict[str, QueryTerm], text: str, weight: float, origin: str) -> None:
    current = terms.get(text)
    if current is None:
        terms[text] = QueryTerm(text, weight, origin)
    elif weight > current.weight:
        current.weight = weight
        current.origin = origin


def _add_renderings(
    weighted: dict[str, QueryTerm], matcher: ConceptMatcher, concept_id: str, editions: Iterable[str] = ()
) -> None:
    """The lemmas of the printed renderings of a concept, as expansion terms: those of the named
    editions' texts when the question names editions that render it («пайл-ин в 6-ке» searches the
    6th edition's «сближение», not the 10th's «навалиться»), otherwise every one."""
    concept = matcher.concepts.get(concept_id)
    if concept is None:
        return
    renderings = [(text, source) for text, origin, source in concept.phrases if origin == "rendering"]
    wanted = set(editions)
    if wanted:
        edition_of = matcher.editions.get
        named = [(text, source) for text, source in renderings if (edition_of(source) or find_source(source).edition) in wanted]
        renderings = named or renderings
    for text, _ in renderings:
        for term in tokens(text):
            if term.text not in LIGHT_WORDS:
                _add(weighted, term.text, RENDERING_WEIGHT, "rendering")


def parse_query(
    question: str,
    *,
    edition: str | None = None,
    matcher: ConceptMatcher | None = None,
    speller: Speller | None = None,
    vocabulary: frozenset[str] | set[str] | None = None,
    variants: dict[str, list[str]] | None = None,
    synonyms: Vocabulary | None = None,
) -> ParsedQuery:
    """Understand ``question``: terms with weights, concepts, editions, corrections.

    ``vocabulary`` is the set of lemmas the index knows (words outside it may be corrected);
    ``speller`` corrects them; ``variants`` maps a lemma to the lemmas the texts gave the same
    word forms (see :func:`reading_links`); ``synonyms`` is the search vocabulary (the build's;
    default: ``kb/data/synonyms.toml``). Raises :class:`QueryError` for an unknown ``edition`` or a
    question longer than :data:`MAX_QUERY_CHARS`.
    """
    if edition is not None and edition not in EDITION_CODES:
        raise QueryError(f"Unknown edition {edition!r}; use one of {', '.join(EDITION_CODES)}.")
    cleaned = clean_query(question)
    parsed = ParsedQuery(text=question, cleaned=cleaned, explicit_edition=edition)
    parsed.editions = [edition] if edition is not None else detect_editions(cleaned)
    if edition is None and is_comparison(cleaned):
        parsed.compare = True
        if len(parsed.editions) == 1:  # «с 6-й редакции»: from that edition to the newest, or back
            parsed.editions.append(NEWEST_EDITION if parsed.editions[0] != NEWEST_EDITION else "6")
    body = expand_contractions(_strip_edition_words(cleaned))
    matcher = matcher if matcher is not None else default_matcher()
    terms = list(tokens(body))
    matches = matcher.match_terms(terms, query=True, raw=body)
    if vocabulary is not None and any("-" in t.original for t in terms):
        # «анти-техника», «супер-спас»: a hyphenated word neither the texts nor the termbase know
        # is read as its parts
        named = {i for m in matches for i in range(m.start, m.end)}
        split = [
            t for t in terms
            if "-" in t.original and t.position not in named and t.text not in vocabulary
            and not matcher.fuzzy(t.original, edits=False)
        ]
        if split:
            chars = list(body)
            for t in split:
                for offset in range(t.start, t.end):
                    if chars[offset] == "-":
                        chars[offset] = " "
            body = "".join(chars)
            terms = list(tokens(body))
            matches = matcher.match_terms(terms, query=True, raw=body)
    weighted: dict[str, QueryTerm] = {}
    covered: dict[int, str] = {}
    slang: set[int] = set()
    span_size: dict[tuple[int, int], int] = {}
    for match in matches:
        span_size[(match.start, match.end)] = span_size.get((match.start, match.end), 0) + 1
    for match in matches:
        share = 1.0 / span_size[(match.start, match.end)]
        parsed.concept_share[match.concept] = max(parsed.concept_share.get(match.concept, 0.0), share)
        parsed.concept_phrases.setdefault(match.concept, []).append(match.phrase)
        if match.concept not in parsed.concepts:
            parsed.concepts.append(match.concept)
        printed = matcher.rendering_lemmas(match.concept) if match.origin != "rendering" else set()
        for position in range(match.start, match.end):
            covered.setdefault(position, match.concept)
            if match.origin != "rendering" and terms[position].text not in printed:
                slang.add(position)
        if match.origin != "rendering":
            _add_renderings(weighted, matcher, match.concept, parsed.editions)
    synonym_map = _synonym_map(synonyms)
    english = _english_map(synonyms)
    for position, term in enumerate(terms):
        text = term.text
        concept = covered.get(position)
        if text[0].isdigit() or text[0] in "+-" or (text[0] == "d" and text[1:2].isdigit()):
            parsed.numbers.append(text)
            _add(weighted, text, 1.0, "word")
            parsed.words.append(QueryWord(term.original, text, (text,), concept=concept))
            continue
        latin = not re.search(r"[а-я]", text)
        if text in LIGHT_WORDS:
            _add(weighted, text, LIGHT_WEIGHT, "light")
            parsed.words.append(QueryWord(term.original, text, (text,), light=True, concept=concept))
            continue
        alternatives = [text]
        # a word of slang or English that named a concept is searched through the concept's
        # renderings; as a word of its own it would find look-alikes («хит ролл» → «хиты»)
        own = SLANG_WORD_WEIGHT if position in slang else 1.0
        if latin:
            for russian in english.get(text, ()):
                _add(weighted, russian, EXPANSION_WEIGHT if concept else 0.8, "english")
                alternatives.append(russian)
            _add(weighted, text, own, "word")
        else:
            _add(weighted, text, own, "word")
            # the other readings of an ambiguous form («ран» → «рана», «броней» → «броня»): the
            # texts were lemmatised by their first reading, the question may be read another way
            readings = [text, *_readings(term.original, text, variants)]
            for reading in readings[1:]:
                if vocabulary is None or reading in vocabulary:
                    _add(weighted, reading, VARIANT_WEIGHT * own, "variant")
                    alternatives.append(reading)
            for reading in readings:
                for other in synonym_map.get(reading, ()):
                    _add(weighted, other, EXPANSION_WEIGHT, "synonym")
                    alternatives.append(other)
            if vocabulary is not None:
                # the verb's other aspect («проиграть» ~ «проигрывать», «назначить» ~ «назначать»)
                for other in aspect_partners(text, frozenset(vocabulary)):
                    if other not in alternatives:
                        _add(weighted, other, VARIANT_WEIGHT * own, "variant")
                        alternatives.append(other)
        word = QueryWord(term.original, text, tuple(alternatives), concept=concept)
        parsed.words.append(word)
        if concept or len(term.original) < 4:
            continue
        if vocabulary is None or text in vocabulary or text in english:
            continue
        # a player's word with synonyms may still be a concept's slang inflected («морталок» ←
        # «мортал»), but is not a typo of one
        with_synonyms = text in synonym_map
        # one edit away is a typo of slang only when the word itself is no dictionary word
        # («роутер» is a word, not a misspelt «ростер»)
        edits = not with_synonyms and (latin or not is_known(term.original))
        fuzzy = matcher.fuzzy(term.original, edits=edits)
        if fuzzy:
            for found in sorted(fuzzy):
                if found not in parsed.concepts:
                    parsed.concepts.append(found)
                parsed.concept_phrases.setdefault(found, []).append(term.original)
            word.concept = sorted(fuzzy)[0]
            continue
        if with_synonyms:
            continue
        if speller is not None and (latin or not is_known(term.original)):
            fixed = speller.correct(term.original)
            if fixed is not None:
                parsed.corrections[term.original] = fixed
                fixed_terms = [t.text for t in tokens(fixed)]
                for other in fixed_terms:
                    _add(weighted, other, CORRECTION_WEIGHT, "correction")
                word.alternatives = (*word.alternatives, *fixed_terms)
    _apply_paraphrases(parsed, weighted, matcher, synonyms)
    parsed.terms = list(weighted.values())
    return parsed


#: Weight of the words a paraphrase adds.
PARAPHRASE_WEIGHT = 0.6


def _apply_paraphrases(
    parsed: ParsedQuery, weighted: dict[str, QueryTerm], matcher: ConceptMatcher, synonyms: Vocabulary | None = None
) -> None:
    """Name the concepts and add the words of every paraphrase whose trigger is in the question."""
    present: set[str] = set()
    for word in parsed.words:
        present.update(word.alternatives)
    for paraphrase in (synonyms or load_vocabulary()).paraphrases:
        trigger = next((t for t in paraphrase.triggers if t <= present), None)
        if trigger is None:
            continue
        added: list[str] = []
        for text in paraphrase.words:
            if text not in LIGHT_WORDS:
                _add(weighted, text, PARAPHRASE_WEIGHT, "synonym")
                added.append(text)
        concept = paraphrase.concept if paraphrase.concept in matcher.concepts else None
        if concept is not None:
            if concept not in parsed.concepts:
                parsed.concepts.append(concept)
            _add_renderings(weighted, matcher, concept, parsed.editions)
            concept_entry = matcher.concepts[concept]
            added.extend(t.text for text, origin, _ in concept_entry.phrases if origin == "rendering" for t in tokens(text))
        for word in parsed.words:
            if word.lemma in trigger and not word.light:
                word.alternatives = tuple(dict.fromkeys((*word.alternatives, *added)))
                if word.concept is None and concept is not None:
                    word.concept = concept
