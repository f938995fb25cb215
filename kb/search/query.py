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
:mod:`rulekb.kb.text.vocabulary` (synonyms, English words, paraphrases), :mod:`rulekb.kb.text.concepts`
(the termbase matcher), :mod:`rulekb.kb.search.readings` (other readings, verb aspects) and
:mod:`rulekb.kb.search.spelling` (the speller); this module puts them together and re-exports them.

The result is a :class:`ParsedQuery`: weighted terms that :mod:`rulekb.kb.search.searcher` turns into Whoosh
query objects directly — user text never reaches a query parser, so quotes, parentheses,
``AND``/``OR``, ``*`` and ``field:value`` are just words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from rulekb.corpus.errors import QueryError
from rulekb.corpus.morph import is_known
from rulekb.corpus.reader import find_source
from rulekb.kb.search.concepts import default_matcher, load_concepts
from rulekb.kb.search.parsed import ParsedQuery, QueryTerm, QueryWord
from rulekb.kb.search.query_nouns import is_verb, verbal_nouns
from rulekb.kb.search.query_terms import is_number as _is_number
from rulekb.kb.search.query_terms import rendered_in
from rulekb.kb.search.query_terms import search_terms as _search_terms
from rulekb.kb.search.query_text import (
    EDITION_CODES,
    MAX_QUERY_CHARS,
    NEAR_EDITIONS,
    NEWEST_EDITION,
    clean_query,
    detect_editions,
    expand_contractions,
    is_comparison,
)
from rulekb.kb.search.readings import (
    READING_MIN_SCORE,
    aspect_key,
    aspect_partners,
    other_readings,
    reading_links,
    readings,
)
from rulekb.kb.search.spelling import Speller
from rulekb.kb.text.analysis import Term, tokens
from rulekb.kb.text.concepts import ConceptEntry, ConceptMatch, ConceptMatcher, translit_key
from rulekb.kb.text.fuzzy import slang_key
from rulekb.kb.text.vocabulary import (
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
    english_map,
    load_english,
    load_vocabulary,
    synonym_map,
)

__all__ = [
    "EDITION_CODES",
    "MAX_QUERY_CHARS",
    "NEAR_EDITIONS",
    "READING_MIN_SCORE",
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
    "aspect_key",
    "aspect_partners",
    "clean_query",
    "default_matcher",
    "detect_editions",
    "expand_contractions",
    "is_comparison",
    "load_concepts",
    "load_english",
    "load_vocabulary",
    "parse_query",
    "reading_links",
    "readings",
    "slang_key",
    "translit_key",
]


def _add(terms: dict[str, QueryTerm], text: str, weight: float, origin: str) -> None:
    current = terms.get(text)
    if current is None:
        terms[text] = QueryTerm(text, weight, origin)
    elif weight > current.weight:
        current.weight = weight
        current.origin = origin


@lru_cache(maxsize=8192)
def _phrase_terms(text: str) -> tuple[str, ...]:
    """The analysed terms of a termbase phrase (a rendering), once per process: the questions naming
    a concept add the same renderings again and again."""
    return tuple(t.text for t in tokens(text))


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
        for term in _phrase_terms(text):
            if term not in LIGHT_WORDS:
                _add(weighted, term, RENDERING_WEIGHT, "rendering")



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
    _read_editions(parsed, cleaned, edition)
    matcher = matcher if matcher is not None else default_matcher()
    terms, matches = _search_terms(parsed, cleaned, matcher, vocabulary)
    weighted: dict[str, QueryTerm] = {}
    covered, slang = _name_concepts(parsed, weighted, matcher, terms, matches)
    reader = _WordReader(parsed, weighted, matcher, speller, vocabulary, variants, synonyms)
    for position, term in enumerate(terms):
        reader.read(term, covered.get(position, ()), position in slang)
    _apply_paraphrases(parsed, weighted, matcher, synonyms)
    if vocabulary is not None:
        _add_verbal_nouns(parsed, weighted, vocabulary)
    parsed.terms = list(weighted.values())
    return parsed


def _read_editions(parsed: ParsedQuery, cleaned: str, edition: str | None) -> None:
    """The editions the question names (or the explicit one), and whether it compares them."""
    parsed.editions = [edition] if edition is not None else detect_editions(cleaned)
    if edition is None and is_comparison(cleaned):
        parsed.compare = True
        if len(parsed.editions) == 1:  # «с 6-й редакции»: from that edition to the newest, or back
            parsed.editions.append(NEWEST_EDITION if parsed.editions[0] != NEWEST_EDITION else "6")


def _name_concepts(
    parsed: ParsedQuery,
    weighted: dict[str, QueryTerm],
    matcher: ConceptMatcher,
    terms: Sequence[Term],
    matches: Sequence[ConceptMatch],
) -> tuple[dict[int, tuple[str, ...]], set[int]]:
    """Record the matched concepts (with their share and phrases) and add their renderings.

    Returns the concepts each covered position names — with editions named, every one, one those
    editions render first («овервотч в 6ке»: the 6th edition's overwatch before the 10th's Fire
    Overwatch); with none, the first (the word read in the newest edition's sense) —, and the positions of slang or English words (a concept's phrase that is
    not its printed rendering)."""
    covered: dict[int, list[str]] = {}
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
            named = covered.setdefault(position, [])
            if match.concept not in named:
                named.append(match.concept)
            if match.origin != "rendering" and terms[position].text not in printed:
                slang.add(position)
        if match.origin != "rendering":
            _add_renderings(weighted, matcher, match.concept, parsed.editions)
    if not parsed.editions:  # read in the newest edition's sense: the first concept only
        return {position: tuple(named[:1]) for position, named in covered.items()}, slang
    wanted = set(parsed.editions)
    for named in covered.values():
        if len(named) > 1:
            named.sort(key=lambda concept: not rendered_in(matcher, concept, wanted))
    return {position: tuple(named) for position, named in covered.items()}, slang


class _WordReader:
    """Reads the question's words one by one into ``parsed`` and the weighted terms."""

    def __init__(
        self,
        parsed: ParsedQuery,
        weighted: dict[str, QueryTerm],
        matcher: ConceptMatcher,
        speller: Speller | None,
        vocabulary: frozenset[str] | set[str] | None,
        variants: dict[str, list[str]] | None,
        synonyms: Vocabulary | None,
    ) -> None:
        self.parsed = parsed
        self.weighted = weighted
        self.matcher = matcher
        self.speller = speller
        self.vocabulary = vocabulary
        self.variants = variants
        self.synonym_map = synonym_map(synonyms)
        self.english = english_map(synonyms)

    def read(self, term: Term, concepts: tuple[str, ...], is_slang: bool) -> None:
        """One word: a number, a question word, or a word with its expansions (then, for a word
        the texts do not know, a concept's slang or a spelling correction); ``concepts`` are those
        the phrases it is part of name."""
        text = term.text
        concept = concepts[0] if concepts else None
        parsed, weighted = self.parsed, self.weighted
        if _is_number(text):
            parsed.numbers.append(text)
            _add(weighted, text, 1.0, "word")
            parsed.words.append(QueryWord(term.original, text, (text,), concept=concept, concepts=concepts))
            return
        latin = not re.search(r"[а-я]", text)
        if text in LIGHT_WORDS:
            _add(weighted, text, LIGHT_WEIGHT, "light")
            parsed.words.append(QueryWord(term.original, text, (text,), light=True, concept=concept, concepts=concepts))
            return
        # a word of slang or English that named a concept is searched through the concept's
        # renderings; as a word of its own it would find look-alikes («хит ролл» → «хиты»)
        own = SLANG_WORD_WEIGHT if is_slang else 1.0
        alternatives = self._expand_latin(text, own, concept) if latin else self._expand_russian(term, own)
        word = QueryWord(term.original, text, tuple(alternatives), concept=concept, concepts=concepts)
        parsed.words.append(word)
        if concept or len(term.original) < 4:
            return
        if self.vocabulary is None or text in self.vocabulary or text in self.english:
            return
        self._unknown_word(term, word, latin)

    def _expand_latin(self, text: str, own: float, concept: str | None) -> list[str]:
        alternatives = [text]
        for russian in self.english.get(text, ()):
            _add(self.weighted, russian, EXPANSION_WEIGHT if concept else 0.8, "english")
            alternatives.append(russian)
        _add(self.weighted, text, own, "word")
        return alternatives

    def _expand_russian(self, term: Term, own: float) -> list[str]:
        text, weighted, vocabulary = term.text, self.weighted, self.vocabulary
        alternatives = [text]
        _add(weighted, text, own, "word")
        # the other readings of an ambiguous form («ран» → «рана», «броней» → «броня»): the
        # texts were lemmatised by their first reading, the question may be read another way
        forms = [text, *other_readings(term.original, text, self.variants)]
        for reading in forms[1:]:
            if vocabulary is None or reading in vocabulary:
                _add(weighted, reading, VARIANT_WEIGHT * own, "variant")
                alternatives.append(reading)
        for reading in forms:
            for other in self.synonym_map.get(reading, ()):
                _add(weighted, other, EXPANSION_WEIGHT, "synonym")
                alternatives.append(other)
        if vocabulary is not None:
            # the verb's other aspect («проиграть» ~ «проигрывать», «назначить» ~ «назначать»)
            for other in aspect_partners(text, frozenset(vocabulary)):
                if other not in alternatives:
                    _add(weighted, other, VARIANT_WEIGHT * own, "variant")
                    alternatives.append(other)

        return alternatives

    def _unknown_word(self, term: Term, word: QueryWord, latin: bool) -> None:
        """A word the texts do not know: a concept's slang (fuzzy), else a spelling correction."""
        parsed = self.parsed
        # a player's word with synonyms may still be a concept's slang inflected («морталок» ←
        # «мортал»), but is not a typo of one
        with_synonyms = term.text in self.synonym_map
        # one edit away is a typo of slang only when the word itself is no dictionary word
        # («роутер» is a word, not a misspelt «ростер»)
        edits = not with_synonyms and (latin or not is_known(term.original))
        fuzzy = self.matcher.fuzzy(term.original, edits=edits)
        if fuzzy:
            for found in sorted(fuzzy):
                if found not in parsed.concepts:
                    parsed.concepts.append(found)
                parsed.concept_phrases.setdefault(found, []).append(term.original)
            word.concept = sorted(fuzzy)[0]
            word.concepts = tuple(sorted(fuzzy))
            return
        if with_synonyms:
            return
        if self.speller is not None and (latin or not is_known(term.original)):
            fixed = self.speller.correct(term.original)
            if fixed is not None:
                parsed.corrections[term.original] = fixed
                fixed_terms = [t.text for t in tokens(fixed)]
                for other in fixed_terms:
                    _add(self.weighted, other, CORRECTION_WEIGHT, "correction")
                word.alternatives = (*word.alternatives, *fixed_terms)


def _add_verbal_nouns(parsed: ParsedQuery, weighted: dict[str, QueryTerm], vocabulary: frozenset[str] | set[str]) -> None:
    """A verb naming no concept (no termbase phrase, no paraphrase) also searches the noun of its
    action at :data:`VARIANT_WEIGHT` (:func:`verbal_nouns`)."""
    for word in parsed.words:
        if word.light or word.concept is not None or not is_verb(word.original):
            continue
        for noun in verbal_nouns(word.lemma, vocabulary):
            if noun not in word.alternatives:
                _add(weighted, noun, VARIANT_WEIGHT, "variant")
                word.alternatives = (*word.alternatives, noun)


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
            added.extend(t for text, origin, _ in concept_entry.phrases if origin == "rendering" for t in _phrase_terms(text))
        for word in parsed.words:
            if word.lemma in trigger and not word.light:
                word.alternatives = tuple(dict.fromkeys((*word.alternatives, *added)))
                if word.concept is None and concept is not None:
                    word.concept = concept
                    word.concepts = (concept,)
