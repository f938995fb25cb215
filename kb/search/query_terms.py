"""The question's words to search and the concepts they name (:func:`search_terms`), the words naming
an edition taken out first."""

from __future__ import annotations

from functools import lru_cache

from rulekb.corpus.reader import find_source
from rulekb.kb.search.concepts import same_mechanic
from rulekb.kb.search.parsed import ParsedQuery
from rulekb.kb.search.query_text import expand_contractions, strip_edition_words, term_edition_names
from rulekb.kb.text.analysis import Term, tokens
from rulekb.kb.text.concepts import ConceptMatch, ConceptMatcher
from rulekb.kb.text.vocabulary import LIGHT_WORDS

__all__ = ["MIN_WORDS_WITHOUT_NAME", "is_number", "match_concepts", "rendered_in", "search_terms"]


#: A question naming an edition by a name its texts print («Kill Team») searches that name only when
#: it has fewer content words than this besides it: «Что такое Kill Team?» is about the game; in «What does
#: Non-Flammable do in Kill Team?» the name says where, and as a concept it would rank the
#: book's introductions (every passage defining «Kill Team») above the rule asked.
MIN_WORDS_WITHOUT_NAME = 1


def search_terms(
    parsed: ParsedQuery, cleaned: str, matcher: ConceptMatcher, vocabulary: frozenset[str] | set[str] | None
) -> tuple[list[Term], list[ConceptMatch]]:
    """The question's terms to search and the concepts they name: without the words naming an
    edition; a name that is also a term («Kill Team») goes too when the question has other words
    (:data:`MIN_WORDS_WITHOUT_NAME`) and the name is not part of another concept's name («Kill Team
    missions»)."""
    body = expand_contractions(strip_edition_words(cleaned))
    terms, matches = match_concepts(body, matcher, vocabulary)
    if parsed.editions:
        matches = _editions_phrases(terms, matches, matcher, set(parsed.editions), body)
    names = term_edition_names(cleaned) if parsed.editions else []
    if not names:
        return terms, matches
    bare = expand_contractions(strip_edition_words(cleaned, keep_terms=False))
    content = [t for t in tokens(bare) if t.text not in LIGHT_WORDS and not is_number(t.text)]
    if len(content) < MIN_WORDS_WITHOUT_NAME:
        return terms, matches
    name_concepts = {m.concept for name in names for m in matcher.match_terms(list(tokens(name)), query=True, raw=name)}
    bare_terms, bare_matches = match_concepts(bare, matcher, vocabulary)
    bare_matches = _editions_phrases(bare_terms, bare_matches, matcher, set(parsed.editions), bare)
    kept = {m.concept for m in bare_matches} | name_concepts
    if any(m.concept not in kept for m in matches):
        return terms, matches  # «Kill Team missions»: the name is part of a concept's name
    return bare_terms, bare_matches


def rendered_in(matcher: ConceptMatcher, concept_id: str, editions: set[str] | frozenset[str]) -> bool:
    """Does one of ``editions``' texts print a rendering of the concept?"""
    return _rendered_in(matcher, concept_id, frozenset(editions))


@lru_cache(maxsize=4096)
def _rendered_in(matcher: ConceptMatcher, concept_id: str, editions: frozenset[str]) -> bool:
    """:func:`rendered_in`, once per matcher (a rebuilt index brings a new one), concept and editions."""
    concept = matcher.concepts.get(concept_id)
    if concept is None:
        return False
    edition_of = matcher.editions.get
    return any(
        (edition_of(source) or find_source(source).edition) in editions
        for _, origin, source in concept.phrases
        if origin == "rendering"
    )


def _editions_phrases(
    terms: list[Term], matches: list[ConceptMatch], matcher: ConceptMatcher, editions: set[str], raw: str
) -> list[ConceptMatch]:
    """A phrase naming only concepts the named editions' texts do not render gives way to the longest
    phrase inside it naming the same mechanic under the name those editions use (a curated
    ``[[mechanic]]``): in a Kill Team question «fires Overwatch» is Kill Team's overwatch, not the 10th
    edition's stratagem Fire Overwatch its two words name. Other inner concepts do not count:
    «wholly within в 6-й» stays the concept asked about, not «within»."""
    spans: dict[tuple[int, int], list[ConceptMatch]] = {}
    for match in matches:
        spans.setdefault((match.start, match.end), []).append(match)
    out: list[ConceptMatch] = []
    for (start, end), found in spans.items():
        if end - start < 2 or any(rendered_in(matcher, m.concept, editions) for m in found):
            out += found
            continue
        related = frozenset().union(*(same_mechanic().get(m.concept, frozenset()) for m in found))
        inner = _inner_phrase(terms, start, end, matcher, editions, raw, related) if related else []
        out += inner or found
    return out


def _inner_phrase(
    terms: list[Term], start: int, end: int, matcher: ConceptMatcher, editions: set[str], raw: str,
    related: frozenset[str],
) -> list[ConceptMatch]:
    """The matches of the longest window inside ``terms[start:end]`` naming one of the ``related``
    concepts (the same mechanic) that ``editions`` render (positions in ``terms``), or none."""
    for size in range(end - start - 1, 0, -1):
        for left in range(start, end - size + 1):
            window = terms[left : left + size]
            found = [m for m in matcher.match_terms(window, query=True, raw=raw) if m.start == 0 and m.end == size]
            if any(m.concept in related and rendered_in(matcher, m.concept, editions) for m in found):
                return [ConceptMatch(m.concept, m.start + left, m.end + left, m.phrase, m.origin, m.fuzzy)
                        for m in found]
    return []


def match_concepts(
    body: str, matcher: ConceptMatcher, vocabulary: frozenset[str] | set[str] | None
) -> tuple[list[Term], list[ConceptMatch]]:
    """The question's terms and the concepts they name.

    «анти-техника», «супер-спас»: a hyphenated word neither the texts nor the termbase know is read
    as its parts (only with a ``vocabulary`` to tell known words)."""
    terms = list(tokens(body))
    matches = matcher.match_terms(terms, query=True, raw=body)
    if vocabulary is None or not any("-" in t.original for t in terms):
        return terms, matches
    named = {i for m in matches for i in range(m.start, m.end)}
    split = [
        t for t in terms
        if "-" in t.original and t.position not in named and t.text not in vocabulary
        and not matcher.fuzzy(t.original, edits=False)
    ]
    if not split:
        return terms, matches
    chars = list(body)
    for t in split:
        for offset in range(t.start, t.end):
            if chars[offset] == "-":
                chars[offset] = " "
    body = "".join(chars)
    terms = list(tokens(body))
    return terms, matcher.match_terms(terms, query=True, raw=body)


def is_number(text: str) -> bool:
    return text[0].isdigit() or text[0] in "+-" or (text[0] == "d" and text[1:2].isdigit())
