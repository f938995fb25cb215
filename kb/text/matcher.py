"""Finding termbase entries in text by lemma n-grams.

Text is cut into word tokens by :func:`rulekb.kb.text.analysis.tokens` (so character offsets point into the
raw text), with two additions the rulebooks need:

* keywords the 10th-edition text glued to their neighbours («ЭтотТРАНСПОРТНОЕ СРЕДСТВООбладает»)
  are split at :func:`rulekb.corpus.words.glued_split_points`, the cut
  :func:`rulekb.corpus.normalize.split_glued_keywords` makes for ``text_clean``, but per token so
  that offsets stay raw;
* each word carries a *set* of lemmas: the normal forms of all its dictionary parses, and for
  words pymorphy3 does not know (game slang: «спасброски», «стратегемы») the guesses plus a
  crude stem. Two words match when the sets meet, so an inflection never hides a rendering
  even when pymorphy3 guesses different normal forms for it.

A :class:`Matcher` indexes patterns (renderings, aliases, English terms, abbreviations) by
their first lemma and scans a text once. A pattern printed wholly in capitals (a keyword form
such as «ПЕХОТА», an abbreviation such as «ОШ») matches only capitals in source text; queries
ignore case except for abbreviations that are also function words («ПО» / «по»).

The query side (:class:`rulekb.kb.text.concepts.ConceptMatcher`, for search) uses the same
matcher over terms it has already analysed (:func:`term_tokens`: one lemma a word, no glued-word
cut), with its own rules for capitals and abbreviations (``text_rules=False``) and the leftmost
longest choice (:meth:`Matcher.leftmost`).
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rulekb.corpus.morph import morph
from rulekb.corpus.words import glued_split_points, is_caps
from rulekb.kb.text.analysis import Term, fold, lemma, tokens
from rulekb.kb.text.fuzzy import edit_distance

__all__ = ["Analyser", "Match", "Matcher", "Pattern", "Span", "Token", "analyse", "as_tokens", "term_tokens"]

_LO = "а-яё"
_ENDINGS = sorted(
    "а я о е ё и ы у ю ь й ам ям ах ях ом ем ой ей ою ею ов ев ами ями ого его ому ему ым им ых их "
    "ая яя ое ее ую юю".split(),
    key=len,
    reverse=True,
)
_FUNCTION_POS = frozenset({"PREP", "CONJ", "PRCL", "INTJ", "NPRO"})
_SOFT_GAP = re.compile(r"[\s«»\"“”„'’‘()\[\]*…]+")


@dataclass(frozen=True, slots=True)
class Token:
    """One word or notation token with its lemma set and raw offsets."""

    original: str
    lemmas: frozenset[str]
    start: int
    end: int

    @property
    def caps(self) -> bool:
        return is_caps(self.original)


#: How a matcher reads a text (and its patterns) into tokens.
Analyser = Callable[[str], list[Token]]


def _stem(word: str) -> str:
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


@lru_cache(maxsize=200_000)
def lemma_set(word: str) -> frozenset[str]:
    """Every plausible normal form of ``word`` (folded)."""
    primary = lemma(word)
    folded = fold(word)
    if not re.search(rf"[{_LO}]", folded):
        return frozenset({primary})
    parses = morph().parse(folded)
    known = [p for p in parses if p.is_known]
    forms = {primary} | {fold(p.normal_form) for p in (known or parses)}
    if not known:
        forms.add("~" + _stem(folded))
        forms |= {"~" + _stem(fold(p.normal_form)) for p in parses}
    return frozenset(forms)


def analyse(text: str) -> list[Token]:
    """The tokens of ``text`` with lemma sets; glued keywords are split."""
    out: list[Token] = []
    for term in tokens(text):
        raw = term.original
        if not raw[:1].isalpha():
            out.append(Token(raw, frozenset({term.text}), term.start, term.end))
            continue
        cuts = (0, *glued_split_points(raw), len(raw))
        for a, b in itertools.pairwise(cuts):
            out.append(Token(raw[a:b], lemma_set(raw[a:b]), term.start + a, term.start + b))
    return out


def as_tokens(terms: Iterable[Term]) -> list[Token]:
    """Already analysed terms (:func:`rulekb.kb.text.analysis.tokens`) as tokens of one lemma each."""
    return [Token(t.original, frozenset({t.text}), t.start, t.end) for t in terms]


def term_tokens(text: str) -> list[Token]:
    """The analyser of the query side: :func:`rulekb.kb.text.analysis.tokens`, one lemma a word."""
    return as_tokens(tokens(text))


def _is_function_word(word: str) -> bool:
    parses = morph().parse(fold(word))
    return bool(parses) and parses[0].is_known and str(parses[0].tag.POS) in _FUNCTION_POS


@dataclass(frozen=True)
class Pattern:
    """Something to find: a rendering, alias, English term or abbreviation of one concept."""

    concept_id: str
    text: str
    kind: str = "rendering"
    """``rendering``, ``alias``, ``english`` or ``abbreviation``."""
    source_id: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class Match:
    """One occurrence of a pattern in a text."""

    concept_id: str
    pattern: Pattern
    start: int
    end: int
    text: str
    """The matched text as it stands in the input."""
    fuzzy: bool = False


@dataclass
class _Compiled:
    pattern: Pattern
    lemmas: tuple[frozenset[str], ...]
    gaps: tuple[str, ...]
    caps: bool
    caps_in_queries: bool


def _gap(text: str) -> str:
    return _SOFT_GAP.sub("", text)


#: One occurrence found by :meth:`Matcher.spans`: the token range ``[start, end)`` and the pattern.
Span = tuple[int, int, Pattern]


class Matcher:
    """Finds every occurrence of a set of patterns in a text, by lemma n-grams: the one place that
    matches lemma sequences of concept names.

    ``analyser`` reads the patterns and the texts (:func:`analyse` by default). With
    ``text_rules`` (the default) a pattern in capitals matches only capitals, the text between two
    words must be the pattern's (spaces and quotes aside) and one-letter patterns are not indexed;
    without, a pattern's lemmas are all that is matched and the caller applies its own rules."""

    def __init__(self, patterns: Iterable[Pattern], *, analyser: Analyser = analyse, text_rules: bool = True):
        self.analyser = analyser
        self.text_rules = text_rules
        self.patterns: list[_Compiled] = []
        self._index: dict[str, list[_Compiled]] = defaultdict(list)
        self._fuzzy: list[tuple[str, _Compiled]] = []
        for pattern in patterns:
            toks = analyser(pattern.text)
            if not toks:
                continue
            if text_rules and len(toks) == 1 and len(toks[0].original) == 1:
                continue  # one-letter abbreviations (S, T, A…) are only looked up exactly
            gaps = tuple(_gap(pattern.text[a.end : b.start]) for a, b in itertools.pairwise(toks))
            caps = text_rules and is_caps(pattern.text)
            compiled = _Compiled(
                pattern,
                tuple(t.lemmas for t in toks),
                gaps,
                caps,
                caps and len(toks) == 1 and _is_function_word(toks[0].original),
            )
            self.patterns.append(compiled)
            for first in toks[0].lemmas:
                self._index[first].append(compiled)
            folded = " ".join(fold(t.original) for t in toks)
            if pattern.kind in ("alias", "english") and len(folded.replace(" ", "")) >= 5:
                self._fuzzy.append((folded, compiled))

    def __len__(self) -> int:
        return len(self.patterns)

    def _candidates(self, token: Token) -> list[_Compiled]:
        if len(token.lemmas) == 1:  # a query's term, or a word with one normal form
            (form,) = token.lemmas
            return self._index.get(form, [])
        seen: dict[int, _Compiled] = {}
        for form in token.lemmas:
            for compiled in self._index.get(form, ()):
                seen[id(compiled)] = compiled
        return list(seen.values())

    def _fits(self, compiled: _Compiled, toks: Sequence[Token], i: int, text: str, query: bool) -> bool:
        n = len(compiled.lemmas)
        if i + n > len(toks):
            return False
        for k in range(n):
            tok = toks[i + k]
            if not compiled.lemmas[k] & tok.lemmas:
                return False
            if not self.text_rules:
                continue
            needs_caps = compiled.caps_in_queries if query else compiled.caps
            if needs_caps and not tok.caps and sum(ch.isalpha() for ch in tok.original) > 1:
                return False
            if k and _gap(text[toks[i + k - 1].end : tok.start]) not in ("", compiled.gaps[k - 1]):
                return False
        return True

    def _spans(self, toks: Sequence[Token], text: str, query: bool) -> list[tuple[int, int, _Compiled]]:
        found: list[tuple[int, int, _Compiled]] = []
        # without text rules a one-word pattern found by the token's own lemma fits as it is
        plain = not self.text_rules
        for i, token in enumerate(toks):
            for compiled in self._candidates(token):
                if (plain and len(compiled.lemmas) == 1) or self._fits(compiled, toks, i, text, query):
                    found.append((i, i + len(compiled.lemmas), compiled))
        return found

    def spans(self, toks: Sequence[Token], text: str = "", *, query: bool = False) -> list[Span]:
        """Every pattern whose lemmas fit the tokens at some place, overlapping, in token order
        (``text`` is what ``toks`` were read from, for the text rules)."""
        return [(a, b, c.pattern) for a, b, c in self._spans(toks, text, query)]

    @staticmethod
    def leftmost(found: Iterable[Span]) -> list[tuple[int, int, list[Pattern]]]:
        """Left to right, the longest of the spans starting at each place, with every pattern of
        that length there; the next place is after it (a query's reading)."""
        by_start: dict[int, list[Span]] = defaultdict(list)
        for span in found:
            by_start[span[0]].append(span)
        chosen: list[tuple[int, int, list[Pattern]]] = []
        index, last = 0, max(by_start, default=-1)
        while index <= last:
            here = by_start.get(index)
            if not here:
                index += 1
                continue
            end = max(b for _, b, _ in here)
            chosen.append((index, end, [p for _, b, p in here if b == end]))
            index = end
        return chosen

    def find(self, text: str, *, query: bool = False, overlapping: bool = False) -> list[Match]:
        """Every occurrence, in text order. Without ``overlapping``, the longest match wins
        (leftmost first); patterns sharing the winning span are all reported."""
        toks = self.analyser(text)
        found = self._spans(toks, text, query)
        if not overlapping:
            found = self._longest(found)
        matches = [
            Match(c.pattern.concept_id, c.pattern, toks[a].start, toks[b - 1].end, text[toks[a].start : toks[b - 1].end])
            for a, b, c in found
        ]
        matches.sort(key=lambda m: (m.start, -m.end, m.concept_id, m.pattern.text))
        return matches

    @staticmethod
    def _longest(found: list[tuple[int, int, _Compiled]]) -> list[tuple[int, int, _Compiled]]:
        """Longer spans claim their tokens first; a span already kept accepts its other patterns."""
        kept: list[tuple[int, int, _Compiled]] = []
        claimed: dict[int, tuple[int, int]] = {}
        for a, b, c in sorted(found, key=lambda f: (-(f[1] - f[0]), f[0])):
            owners = {claimed[k] for k in range(a, b) if k in claimed}
            if not owners:
                kept.append((a, b, c))
                claimed.update(dict.fromkeys(range(a, b), (a, b)))
            elif owners == {(a, b)}:
                kept.append((a, b, c))
        return sorted(kept, key=lambda f: f[0])

    def find_fuzzy(self, text: str, exclude: Iterable[tuple[int, int]] = ()) -> list[Match]:
        """Typo-tolerant matches of aliases and English terms (5+ letters): an edit distance of
        1, or 2 for 8+ letters, over the folded words, outside the spans in ``exclude``."""
        toks = self.analyser(text)
        blocked = [range(a, b) for a, b in exclude]
        out: list[Match] = []
        for i in range(len(toks)):
            for n in (3, 2, 1):
                if i + n > len(toks):
                    continue
                start, end = toks[i].start, toks[i + n - 1].end
                if any(start in r or end - 1 in r for r in blocked):
                    continue
                typed = " ".join(fold(t.original) for t in toks[i : i + n])
                best: list[tuple[int, _Compiled]] = []
                for folded, compiled in self._fuzzy:
                    if folded.count(" ") != n - 1:
                        continue
                    limit = 1 if len(folded) < 8 else 2
                    distance = edit_distance(typed, folded, limit)
                    if 0 < distance <= limit:
                        best.append((distance, compiled))
                if best:
                    low = min(d for d, _ in best)
                    for _, compiled in (b for b in best if b[0] == low):
                        out.append(Match(compiled.pattern.concept_id, compiled.pattern, start, end, text[start:end], True))
                    blocked.append(range(start, end))
                    break
        return out
