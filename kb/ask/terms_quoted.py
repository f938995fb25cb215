"""The terms a terminology question marks itself: a quoted string («1. Ударная калитка», 'Insane
Heroism') is the term asked, and an English name the termbase does not know is read by the words it
shares with one concept's English name.

A question quoting a rendering asks for its concept («пункт «Ударная калитка» — что это за
термин?»: Hit roll, with every rendering), whatever other concepts its words name around the quote.
An English name typed another way than the termbase's ("Insane Heroism" for Insane Courage) is the
concept whose English name shares one of its distinctive words, when exactly one does — or exactly
one of those is related to a concept the question names in Russian («при перегруппировке»).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rulekb.kb.search.concepts import default_matcher
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.vocabulary import LIGHT_WORDS

__all__ = ["MAX_NAME_WORDS", "marked_terms", "named_at", "quoted_concepts", "quoted_concepts_at", "quoted_spans",
           "quoted_spans_at", "sharing_words"]

#: A quoted string of at most this many characters is a term; a longer one quotes a sentence.
MAX_QUOTED = 60
#: A ``"`` after a digit is an inch mark (6"), not a quote's opening; a closing one is followed by no letter.
_QUOTES = re.compile(rf"«([^«»]{{2,{MAX_QUOTED}}})»|(?<!\d)\"([^\"]{{2,{MAX_QUOTED}}})\"(?![^\W\d_])"
                     rf"|(?<![A-Za-z])'([^']{{2,{MAX_QUOTED}}})'(?![A-Za-z])")
#: A word of an English name this short, or one of these, names no concept on its own.
MIN_WORD = 5
_COMMON = frozenset({"phase", "rules", "roll", "rolls", "test", "tests", "model", "models", "units", "weapon",
                     "weapons", "attack", "attacks", "marker", "ability", "action", "stratagem", "double",
                     "range", "value", "mission", "table", "battle", "battlefield", "edition", "count",
                     "counts", "first", "where", "which", "what", "there", "their", "called", "translated",
                     "check", "checks", "translator", "translation", "russian", "english", "names", "texts"})
#: An English run longer than this is the question's prose, not a name typed another way.
MAX_NAME_WORDS = 3


def quoted_spans(question: str) -> list[str]:
    """The question's quoted strings, in its order, a list number in front dropped («1. Ударная калитка»)."""
    return [text for _, text in quoted_spans_at(question)]


def quoted_spans_at(question: str) -> list[tuple[int, str]]:
    """:func:`quoted_spans` with the offset each quote opens at."""
    spans = []
    for match in _QUOTES.finditer(question):
        text = next(g for g in match.groups() if g is not None)
        text = re.sub(r"^\s*\d{1,2}[.)]\s*", "", text).strip(" .,;:")
        if text:
            spans.append((match.start(), text))
    return spans


def quoted_concepts(question: str, known: Mapping[str, Any]) -> list[str]:
    """The concepts of ``known`` a quoted Russian string of the question names as a whole: a
    rendering, alias or English name covering every content word of the quote."""
    return [concept for _, concept in quoted_concepts_at(question, known)]


def quoted_concepts_at(question: str, known: Mapping[str, Any]) -> list[tuple[int, str]]:
    """:func:`quoted_concepts` with the offset of the quote naming each."""
    found: list[tuple[int, str]] = []
    for start, span in quoted_spans_at(question):
        terms = list(tokens(span))
        content = {t.position for t in terms if t.text not in LIGHT_WORDS and t.text.isalpha() and len(t.text) > 2}
        if not content:
            continue
        matches = default_matcher().match_terms(terms, query=True, raw=span)
        for match in matches:
            covered = {terms[i].position for i in range(match.start, match.end)}
            if content <= covered and match.concept in known and match.concept not in {c for _, c in found}:
                found.append((start, match.concept))
    return found


def _words(name: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", name.lower()) if len(w) >= MIN_WORD and w not in _COMMON}


def sharing_words(phrase: str, known: Mapping[str, Any], around: Iterable[str]) -> str | None:
    """The one concept whose English name shares a distinctive word with ``phrase`` (an English name
    the termbase does not know, of at most :data:`MAX_NAME_WORDS` words); when several do, the one
    related to a concept in ``around``."""
    wanted = _words(phrase)
    if not wanted or len(phrase.split()) > MAX_NAME_WORDS:
        return None
    sharing = sorted(c for c, record in known.items() if wanted & _words(str(record.get("english", ""))))
    if len(sharing) == 1:
        return sharing[0]
    context = [c for c in around if c in known]
    related = [c for c in sharing if _related(c, context, known)]
    return related[0] if len(related) == 1 else None


def _related(concept: str, context: Sequence[str], known: Mapping[str, Any]) -> bool:
    own = set(known[concept].get("related", []))
    return any(c in own or concept in set(known[c].get("related", [])) for c in context if c != concept)


def marked_terms(known: Mapping[str, Any], question: str, names: Sequence[tuple[str, re.Pattern[str], str]],
                 books: frozenset[str], around: Sequence[str], *, unknown: bool, named: bool = False
                 ) -> list[tuple[int, str]]:
    """The concepts the question marks as its term (:mod:`rulekb.kb.ask.terms_quoted`), each with
    the offset it is named at: a quoted Russian string naming one, and an English quote or an
    unquoted run that looks like a name («Insane Heroism»: two or more capitalised words, not the
    sentence's opening words) which matches no name but shares a distinctive word with one concept's
    English name (``around``: the concepts named beside it; ``unknown`` false when the question
    names a misspelt name, read as such; ``named`` when it names a known term: an unquoted run is
    then not a second, unknown one)."""
    marked = quoted_concepts_at(question, known)
    latin = [(at, q.lower()) for at, q in quoted_spans_at(question) if re.fullmatch(r"[A-Za-z][A-Za-z' -]*", q)]
    runs = [] if named else [(at, run.lower()) for at, run in _name_like_runs(question) if run.lower() not in books]
    for at, phrase in [*latin, *runs] if unknown else []:
        spaced = re.sub(r"[\s-]+", " ", phrase).strip()
        if any(name not in books and (name == spaced or (len(name) > 3 and pattern.search(spaced)))
               for name, pattern, _ in names):
            continue  # a name the termbase knows
        concept = sharing_words(spaced, known, around)
        if concept is not None and concept not in {c for _, c in marked}:
            marked.append((at, concept))
    return marked


_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’ -]*[A-Za-z]")  # a typographic apostrophe inside a name


def _name_like_runs(question: str) -> list[tuple[int, str]]:
    """The unquoted Latin runs of ``question`` written as a name: every word capitalised, two words
    or more, and not the words a sentence opens with before «:» or «,» ("Basic question: …")."""
    runs = []
    for match in _LATIN_RUN.finditer(question):
        words = match.group(0).replace("-", " ").split()
        if len(words) < 2 or not all(w[0].isupper() for w in words):
            continue
        before = question[:match.start()].rstrip()
        after = question[match.end():].lstrip()
        if (not before or before[-1] in ".!?") and after[:1] in (":", ","):
            continue  # the sentence's opening words, set off: prose, not a name
        runs.append((match.start(), match.group(0)))
    return runs


def named_at(lowered: str, concept: str, names: Sequence[tuple[str, re.Pattern[str], str]],
              phrases_of: Mapping[str, Sequence[str]], default: int) -> int:
    """Where in the (lower-cased, hyphens as spaces) question ``concept`` is first named: one of its
    English names, or the Russian words the query read it from; ``default`` when neither is found."""
    starts = [m.start() for name, pattern, c in names if c == concept and (m := pattern.search(lowered))]
    starts += [i for phrase in phrases_of.get(concept, ()) if (i := lowered.find(str(phrase).lower())) >= 0]
    return min(starts, default=default)
