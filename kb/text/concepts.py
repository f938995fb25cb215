"""Concept detection in a question: every rendering, alias, English term and abbreviation of the
termbase, in any inflection, found by the one lemma-sequence matcher
(:class:`rulekb.kb.text.matcher.Matcher` over already analysed terms), with the query side's rules
for abbreviations and capitals; plus a fuzzy match for slang (:class:`rulekb.kb.text.fuzzy.SlangIndex`:
«бэтлшок» ≈ «баттл-шок», «зачарджил» → «чардж») and English names spelt in Cyrillic. Part of query
understanding (:mod:`rulekb.kb.search.query`); the matcher over the project's termbase is
:func:`rulekb.kb.search.concepts.default_matcher`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rulekb.corpus.morph import is_known
from rulekb.corpus.words import is_caps
from rulekb.kb.text.analysis import Term, fold, tokens
from rulekb.kb.text.fuzzy import SlangIndex
from rulekb.kb.text.matcher import Matcher, Pattern, as_tokens, term_tokens
from rulekb.kb.text.vocabulary import LIGHT_WORDS

# --- concepts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConceptEntry:
    """What search needs of a termbase concept (an adapter over ``rulekb.kb.termbase.model.Concept``)."""

    id: str
    english: str
    phrases: tuple[tuple[str, str, str], ...]
    """``(text, origin, source_id)``: origin is rendering / alias / english / abbreviation;
    source_id is set for renderings only."""
    title: str = ""
    """The Russian term to show (the recommended rendering), or the English term."""
    keyword: bool = False
    """A keyword or named rule of the rules (КТ «Отряд»): an everyday word typed in lower case
    names it only when no other concept has that word."""


def concept_entries(termbase: Iterable[Any]) -> list[ConceptEntry]:
    """A termbase's concepts as :class:`ConceptEntry` objects (the project's or a build's)."""
    entries = []
    for concept in termbase:
        phrases: list[tuple[str, str, str]] = [(concept.english, "english", "")]
        if concept.abbreviation:
            phrases.append((concept.abbreviation, "abbreviation", ""))
        phrases += [(alias, "alias", "") for alias in concept.aliases]
        phrases += [(r.text, "rendering", r.source) for r in concept.rendering]
        title = getattr(concept, "recommended", "") or concept.english
        keyword = bool(getattr(concept, "keyword", False))
        entries.append(ConceptEntry(concept.id, concept.english, tuple(phrases), title, keyword))
    return entries


_LATIN_SOUNDS = (
    ("tion", "шн"), ("sion", "шн"), ("sh", "ш"), ("th", "т"),
    ("ph", "ф"), ("qu", "кв"), ("wh", "в"), ("x", "кс"), ("w", "в"), ("j", "дж"), ("q", "к"),
    ("b", "б"), ("d", "д"), ("f", "ф"), ("g", "г"), ("h", "х"), ("k", "к"), ("l", "л"), ("m", "м"),
    ("n", "н"), ("p", "п"), ("r", "р"), ("s", "с"), ("t", "т"), ("v", "в"), ("z", "з"),
)
_CYRILLIC_SOUNDS = (("дж", "г"), ("ж", "г"), ("тч", "ч"), ("тш", "ч"), ("щ", "ш"), ("з", "с"), ("ц", "тс"))
#: Transliteration keys shorter than this are not matched (too many words share them).
TRANSLIT_MIN_LENGTH = 4


def _translit_word(term: Term) -> bool:
    """Can this word be part of a transliterated English name? A Cyrillic word with a consonant,
    not a question or function word («моими»; but «ту» of «гоу ту граунд» may be «to»), and not a
    fragment («ке» of «7ке»): a word under three letters must be a dictionary word."""
    return _translit_spelling(term.original, term.text)


@lru_cache(maxsize=65_536)  # per word as typed and its lemma: the same words come in many questions
def _translit_spelling(original: str, lemma: str) -> bool:
    function_word = fold(original) in LIGHT_WORDS or (len(original) > 3 and lemma in LIGHT_WORDS)
    return (
        _CYRILLIC_WORD.fullmatch(original) is not None
        and not function_word
        and bool(translit_key(original))
        and (len(original) >= 3 or is_known(original))
    )


@lru_cache(maxsize=65_536)  # a query's words are read in up to four windows each
def translit_key(text: str) -> str:
    """The consonants of a phrase as it sounds, the same for an English rule name and a player's
    Cyrillic spelling of it: «гоу ту граунд» and «Go to Ground» both give «гтгрнд», «хазардус» and
    «Hazardous» «хсрдс», «чардж» and «charge» «чрг». English letters become the Cyrillic ones they
    sound as; vowels, signs and doubled letters (within a word) are dropped; «дж», «ж» and a soft
    «g» are one sound, so are «з» and «s»."""
    sounds = fold(text).replace("tch", "ч").replace("sch", "ск").replace("ch", "ч").replace("ck", "k")
    sounds = re.sub(r"c(?=[eiy])", "s", sounds).replace("c", "k")
    sounds = re.sub(r"g(?=[eiy])", "j", sounds)
    for sound, letter in (*_LATIN_SOUNDS, *_CYRILLIC_SOUNDS):
        sounds = sounds.replace(sound, letter)
    words = (re.sub(r"[^бвгдклмнпрстфхчш]", "", word) for word in sounds.split())
    return "".join(re.sub(r"(.)\1+", r"\1", word) for word in words)


#: The longest run of words read as one transliterated English name («лук аут сэр»).
TRANSLIT_MAX_WORDS = 4


def _translit_keys(phrase: str) -> set[str]:
    """The keys an English name or alias is found by: its own, without a final plural «s»
    («Strategic Reserves» ~ «стратеджик резерв»), and with «h» heard as «г» («heroic» ~ «героик»)."""
    key = translit_key(phrase)
    keys = {key}
    if re.search(r"[a-z]s\W*$", phrase, re.IGNORECASE):
        keys.add(key[:-1])
    keys |= {k.replace("х", "г") for k in keys}
    return {k for k in keys if len(k) >= TRANSLIT_MIN_LENGTH}


@dataclass(frozen=True)
class ConceptMatch:
    """A concept found in a text: which tokens, by which phrase."""

    concept: str
    start: int
    """Index of the first matched token."""
    end: int
    """Index after the last matched token."""
    phrase: str
    origin: str
    fuzzy: bool = False


_CYRILLIC_WORD = re.compile(r"[а-яёА-ЯЁ]+")


def _is_abbreviation(text: str) -> bool:
    """At most three characters and not an ordinary lower-case Russian word («ап», «ОС», «WS», «D6»,
    but not «лес» or «дым», which match by lemma like any word)."""
    if len(text) > 3:
        return False
    if _CYRILLIC_WORD.fullmatch(text) and not is_caps(text, min_letters=1):
        return not is_known(text)
    return True


class ConceptMatcher:
    """Finds termbase concepts in a token sequence by lemma n-grams (any inflection, any language),
    through the one :class:`rulekb.kb.text.matcher.Matcher` (over terms, the leftmost longest
    match); abbreviations match by their spelling and capitals-only renderings by capitals."""

    MAX_WORDS = 7

    def __init__(self, concepts: Sequence[ConceptEntry], editions: dict[str, str] | None = None) -> None:
        self.concepts = {c.id: c for c in concepts}
        #: source id → edition, for a matcher over a build (its manifest); empty: the corpus manifest
        self.editions: dict[str, str] = dict(editions or {})
        #: pattern → (a rendering printed wholly in capitals: on the text side it matches capitals
        #: only; one token of at most three characters, an abbreviation: matched by its spelling)
        self._rules: dict[Pattern, tuple[bool, bool]] = {}
        self._slang = SlangIndex()
        self._rendering_lemmas: dict[str, set[str]] = {}
        self._translit: dict[str, set[str]] = {}
        #: transliteration key → the most words a name with that key has («battle-shock»: 2)
        self._translit_words: dict[str, int] = {}
        seen: set[tuple[tuple[str, ...], str, bool, str]] = set()
        for concept in concepts:
            for text, origin, source in concept.phrases:
                key = tuple(t.text for t in tokens(text))
                if not key or len(key) > self.MAX_WORDS:
                    continue
                caps = origin == "rendering" and is_caps(text, min_letters=1) and len(text) > 3
                short = len(key) == 1 and _is_abbreviation(text.strip())
                if len(key) == 1 and not short and len(text.strip()) >= 4:
                    self._slang.add(text, concept.id)  # every spelling, even one whose lemma another phrase has
                marker = (key, concept.id, caps, text.strip() if short else "")
                if marker not in seen:
                    seen.add(marker)
                    self._rules[Pattern(concept.id, text.strip(), origin, source or None)] = (caps, short)
        self._matcher = Matcher(self._rules, analyser=term_tokens, text_rules=False)
        for concept in concepts:
            for text, origin, _ in concept.phrases:
                if origin in ("english", "alias"):
                    for sounds in _translit_keys(text):
                        self._translit.setdefault(sounds, set()).add(concept.id)
                        words = len(re.findall(r"[^\W\d_]+", text))
                        self._translit_words[sounds] = max(self._translit_words.get(sounds, 0), words)

    def __bool__(self) -> bool:
        return bool(self.concepts)

    def rendering_lemmas(self, concept_id: str) -> set[str]:
        """Every lemma of the concept's printed renderings."""
        cached = self._rendering_lemmas.get(concept_id)
        if cached is None:
            concept = self.concepts.get(concept_id)
            phrases = concept.phrases if concept is not None else ()
            cached = {t.text for text, origin, _ in phrases if origin == "rendering" for t in tokens(text)}
            self._rendering_lemmas[concept_id] = cached
        return cached

    def match_terms(self, terms: Sequence[Term], *, query: bool, raw: str = "") -> list[ConceptMatch]:
        """Concepts in ``terms`` (the output of :func:`rulekb.kb.text.analysis.tokens` over ``raw``).

        ``query=True`` relaxes case (players type «ws», «ап»); on the text side a capitals-only
        rendering matches capitals only and abbreviations match their exact spelling.
        """
        found = [
            span
            for span in self._matcher.spans(as_tokens(terms))
            if self._accept(span[2], terms, span[0], span[1] - span[0], query=query, raw=raw)
        ]
        matches: list[ConceptMatch] = []
        for start, end, best in Matcher.leftmost(found):
            if query and len(best) > 1:
                best = self._prefer_words(best, terms[start:end])
            matches += [ConceptMatch(p.concept_id, start, end, p.text, p.kind) for p in best]
        if query and self._translit:
            matches = self._match_transliterations(terms, matches)
        return matches

    def _match_transliterations(self, terms: Sequence[Term], matches: list[ConceptMatch]) -> list[ConceptMatch]:
        """Add the English rule names a player spelt in Cyrillic («гоу ту граунд», «летал хитс»):
        runs of Cyrillic words, at least one of them no dictionary word, whose sounds
        (:func:`translit_key`) are those of an English term or alias. A longer run wins over the
        shorter matches inside it («летал» alone would be «fly»)."""
        fits = [_translit_word(t) for t in terms]
        # a run is read only when every word fits and one of them is no dictionary word
        unknown = [fit and not is_known(t.original) for t, fit in zip(terms, fits, strict=True)]
        if not any(unknown):
            return matches
        added: list[ConceptMatch] = []
        replaced: set[int] = set()
        index = 0
        while index < len(terms):
            for size in range(TRANSLIT_MAX_WORDS, 0, -1):
                end = index + size
                if end > len(terms) or not all(fits[index:end]) or not any(unknown[index:end]):
                    continue
                touching = [i for i, m in enumerate(matches) if m.start < end and m.end > index]
                if any(matches[i].start < index or matches[i].end > end for i in touching):
                    continue
                if touching and size == max(matches[i].end - matches[i].start for i in touching):
                    continue  # no longer than what the termbase matched there already
                phrase = " ".join(t.original for t in terms[index:end])
                sounds = translit_key(phrase)
                found = self._translit.get(sounds)
                if found and size <= self._translit_words[sounds]:
                    added += [ConceptMatch(c, index, end, phrase, "alias", fuzzy=True) for c in sorted(found)]
                    replaced.update(touching)
                    index = end
                    break
            else:
                index += 1
        if not added:
            return matches
        kept = [m for i, m in enumerate(matches) if i not in replaced]
        return sorted([*kept, *added], key=lambda m: m.start)

    def _prefer_words(self, best: list[Pattern], typed: Sequence[Term]) -> list[Pattern]:
        """Of several concepts named by the same words, drop a keyword reached only through its
        printed name (Kill Team's rule «Отряд») when the words were typed in lower case and an
        ordinary concept («unit», whose alias «отряд» is the everyday word) has them too."""
        if all(is_caps(t.original, min_letters=1) for t in typed):
            return best
        by_alias = {p.concept_id for p in best if p.kind != "rendering"}
        named_only = {p.concept_id for p in best if self._is_keyword(p.concept_id) and p.concept_id not in by_alias}
        plain = [p for p in best if p.concept_id not in named_only]
        return plain or best

    def _is_keyword(self, concept_id: str) -> bool:
        concept = self.concepts.get(concept_id)
        return concept is not None and concept.keyword

    def _accept(self, phrase: Pattern, terms: Sequence[Term], index: int, size: int, *, query: bool, raw: str) -> bool:
        first = terms[index]
        keyword_caps, short = self._rules[phrase]
        if short:
            original = first.original
            if len(phrase.text) == 1:
                # a one-letter characteristic (S, T, W, A, I, M) only right before a value: «S3», «T 4»
                following = raw[first.end : first.end + 2] if raw else ""
                return original == phrase.text and re.match(r"\s?[\d(]", following) is not None
            if query:
                if fold(original) != fold(phrase.text):
                    return False
                # «ПО» (victory points) is not the preposition «по», «HoW» is not «how»: an
                # abbreviation typed in another case counts only when it is not an everyday word
                if original == phrase.text:
                    return True
                everyday = first.text in LIGHT_WORDS or (
                    _CYRILLIC_WORD.fullmatch(original) is not None and is_known(original)
                )
                return not everyday
            return original == phrase.text or (fold(original) == fold(phrase.text) and is_caps(original, min_letters=1))
        if keyword_caps and not query:
            return all(is_caps(t.original, min_letters=1) for t in terms[index : index + size])
        return True

    def fuzzy(self, word: str, *, edits: bool = True) -> set[str]:
        """Concepts whose one-word slang/alias is ``word`` spelt another way, its stem, or (with
        ``edits``) within one edit of it (:meth:`rulekb.kb.text.fuzzy.SlangIndex.lookup`)."""
        return self._slang.lookup(word, edits=edits)
