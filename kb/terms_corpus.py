"""The termbase against the source texts: occurrences, counts, lines, pages, KWIC, and the
English terms the texts print.

Occurrences are found over each raw text as a whole (a rendering wrapped over a line break
still counts), one source's renderings at a time, the longest match winning; line numbers are
1-based raw lines, a match spanning lines counting on its first line.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from corpus.reader import find_source, load_manifest, read_lines
from kb.terms_model import Concept, Termbase, default_termbase
from kb.terms_text import Match, Matcher, Pattern, is_caps

__all__ = [
    "EnglishTerm",
    "KwicRow",
    "Occurrence",
    "TermIndex",
    "default_index",
    "english_key",
    "extract_english_terms",
    "index_for",
    "page_of",
    "renderings_not_found",
    "source_text",
    "unmapped_english_terms",
]


@dataclass(frozen=True)
class Occurrence:
    """One rendering found in one source."""

    source_id: str
    concept_id: str
    rendering: str
    """The rendering's text as written in the termbase."""
    status: str
    start: int
    end: int
    line: int
    text: str
    """The text as it stands in the source."""


@dataclass(frozen=True)
class KwicRow:
    """A keyword-in-context line."""

    source_id: str
    line: int
    page: int | None
    left: str
    match: str
    right: str
    concept_id: str | None = None
    rendering: str | None = None
    status: str | None = None


@cache
def source_text(source_id: str) -> str:
    """The raw text of a source (verified against its sha256)."""
    return "\n".join(read_lines(source_id))


@cache
def _line_starts(source_id: str) -> tuple[int, ...]:
    starts = [0]
    for line in read_lines(source_id)[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return tuple(starts)


def line_of(source_id: str, offset: int) -> int:
    """The 1-based line holding character ``offset`` of the raw text."""
    return bisect.bisect_right(_line_starts(source_id), offset)


@cache
def _pages(source_id: str) -> tuple[int | None, ...]:
    """Page per line (index 0 = line 1): from the parsed nodes, else from the page markers."""
    lines = read_lines(source_id)
    source = find_source(source_id)
    if not source.page_markers:
        return (None,) * len(lines)
    pages: list[int | None] = [None] * len(lines)
    from corpus.parser import parse_corpus  # only sources with page markers need the parse

    nodes = [n for n in parse_corpus([source]).sources[0].nodes if n.parent_id is not None]
    for node in sorted(nodes, key=lambda n: n.lines[1] - n.lines[0], reverse=True):
        for number in range(node.lines[0], node.lines[1] + 1):
            pages[number - 1] = node.page
    marker = re.compile(source.page_markers)
    current: int | None = None
    for index, line in enumerate(lines):
        found = marker.match(line)
        if found:
            current = int(found.group(1))
        if pages[index] is None:
            pages[index] = current
    return tuple(pages)


def page_of(source_id: str, line: int) -> int | None:
    """The printed page of a line, where the source has page markers."""
    pages = _pages(source_id)
    return pages[line - 1] if 0 < line <= len(pages) else None


def _kwic_row(source_id: str, start: int, end: int, width: int, **extra: str | None) -> KwicRow:
    text = source_text(source_id)
    left = " ".join(text[max(0, start - width) : start].split())
    right = " ".join(text[end : end + width].split())
    line = line_of(source_id, start)
    return KwicRow(source_id, line, page_of(source_id, line), left[-width:], " ".join(text[start:end].split()), right[:width], **extra)


class TermIndex:
    """Where each rendering of a termbase occurs in the sources (computed once, lazily)."""

    def __init__(self, termbase: Termbase, sources: list[str] | None = None):
        self.termbase = termbase
        self.sources = sources if sources is not None else [s.id for s in load_manifest()]

    def matcher(self, source_id: str) -> Matcher:
        patterns = [
            Pattern(c.id, r.text, "rendering", r.source, r.status.value)
            for c in self.termbase
            for r in c.rendering
            if r.source == source_id
        ]
        return Matcher(patterns)

    @cached_property
    def _occurrences(self) -> dict[str, list[Occurrence]]:
        out: dict[str, list[Occurrence]] = {}
        for source_id in self.sources:
            found: list[Match] = self.matcher(source_id).find(source_text(source_id))
            # A keyword form in capitals and the same word in ordinary case both match text in
            # capitals: count the span once, for the keyword form (it sorts first).
            seen: set[tuple[str, int, int]] = set()
            unique: list[Match] = []
            for m in sorted(found, key=lambda m: (m.start, not is_caps(m.pattern.text))):
                if (m.concept_id, m.start, m.end) not in seen:
                    seen.add((m.concept_id, m.start, m.end))
                    unique.append(m)
            out[source_id] = [
                Occurrence(
                    source_id, m.concept_id, m.pattern.text, m.pattern.status or "", m.start, m.end,
                    line_of(source_id, m.start), m.text,
                )
                for m in unique
            ]
        return out

    def occurrences(self, source_id: str | None = None, concept_id: str | None = None) -> list[Occurrence]:
        """Occurrences in text order, optionally of one source and/or one concept."""
        sources = [source_id] if source_id is not None else self.sources
        return [
            o
            for s in sources
            for o in self._occurrences.get(s, [])
            if concept_id is None or o.concept_id == concept_id
        ]

    @cached_property
    def stats(self) -> dict[tuple[str, str, str], list[int]]:
        """Where each rendering occurs: (concept, source, rendering) → raw lines."""
        stats: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        for occurrences in self._occurrences.values():
            for o in occurrences:
                stats[(o.concept_id, o.source_id, o.rendering)].append(o.line)
        return stats

    def lines(self, concept_id: str, source_id: str, rendering: str) -> list[int]:
        """Line numbers (1-based, one per occurrence, in order) of one rendering."""
        return list(self.stats.get((concept_id, source_id, rendering), []))

    def count(self, concept_id: str, source_id: str, rendering: str) -> int:
        return len(self.stats.get((concept_id, source_id, rendering), []))

    def kwic(self, concept: Concept, source_id: str | None = None, width: int = 60) -> list[KwicRow]:
        """Every occurrence of a concept's renderings in context."""
        return [
            _kwic_row(o.source_id, o.start, o.end, width, concept_id=o.concept_id, rendering=o.rendering, status=o.status)
            for o in self.occurrences(source_id, concept.id)
        ]

    def kwic_text(self, phrase: str, source_id: str | None = None, width: int = 60) -> list[KwicRow]:
        """Every occurrence of a free phrase (any inflection) in context."""
        matcher = Matcher([Pattern("", phrase, "phrase")])
        sources = [source_id] if source_id is not None else self.sources
        return [
            _kwic_row(s, m.start, m.end, width)
            for s in sources
            for m in matcher.find(source_text(s), query=True)
        ]


@lru_cache(maxsize=2)
def index_for(termbase: Termbase) -> TermIndex:
    """``termbase`` indexed against all sources, once per process and termbase."""
    return TermIndex(termbase)


def default_index() -> TermIndex:
    """The project termbase indexed against all sources (once per process)."""
    return index_for(default_termbase())


def renderings_not_found(termbase: Termbase) -> list[tuple[str, str, str]]:
    """(concept id, source id, rendering) of every rendering that does not occur in its source
    (matched alone by lemma over the raw text, overlaps allowed). Empty for a sound termbase."""
    missing: list[tuple[str, str, str]] = []
    for source in load_manifest():
        patterns = [Pattern(c.id, r.text, "rendering", r.source) for c in termbase for r in c.renderings_for(source.id)]
        found = {(m.concept_id, m.pattern.text) for m in Matcher(patterns).find(source_text(source.id), overlapping=True)}
        missing += [(p.concept_id, source.id, p.text) for p in patterns if (p.concept_id, p.text) not in found]
    return missing


# --- English terms printed in the texts -------------------------------------------------------

_LATIN_RUN = re.compile(r"(?<![\w‘’'])[A-Za-z][A-Za-z'’!]*(?:(?:[ \-]+|- )[A-Za-z][A-Za-z'’!]*)*(?![\w‘’'])")
_PROFILE_LINE = re.compile(r"^\s*(?:(?:WS|BS|S|T|W|I|A|Ld|Sv|M|OC|AP|D)\s*)+$")


@dataclass(frozen=True)
class EnglishTerm:
    """English text printed in a source: a gloss in parentheses, a bracketed ability, a
    characteristic abbreviation, an untranslated name."""

    source_id: str
    line: int
    text: str
    kind: str
    """``gloss`` (in parentheses), ``ability`` (in brackets), ``abbreviation``, ``quoted`` or ``text``."""


def english_key(text: str) -> str:
    """Comparison form of an English term: case-folded, «COUNTER- CHARGE» = «counter-charge»,
    a trailing ``X`` or number («RAPID FIRE X», «SUSTAINED HITS 2») and a leading «The»
    dropped, punctuation dropped."""
    key = text.casefold().replace("’", "'")
    key = re.sub(r"\s*-\s*", "-", key)
    key = re.sub(r"[^a-z0-9' \-+]", " ", key)
    key = re.sub(r"\b(?:\d+\+?|x\+?)$", "", key.strip())
    key = re.sub(r"^the ", "", key.strip())
    return " ".join(key.split())


def _kind(line: str, start: int, end: int, text: str) -> str:
    before, after = line[:start].rstrip(), line[end:].lstrip()
    if before.endswith("(") or (before.endswith(",") and "(" in before[-40:]):
        return "gloss"
    if before.endswith("[") or after.startswith("]"):
        return "ability"
    if before.endswith("«") and after.startswith("»"):
        return "quoted"
    if re.fullmatch(r"[A-Z][A-Za-z]?|WS|BS|OC|AP|CP|VP", text):
        return "abbreviation"
    return "text"


def extract_english_terms(source_ids: list[str] | None = None) -> list[EnglishTerm]:
    """Every run of Latin words printed in the sources, with the line it is on.

    Dice notation (D6, 2D6, x2) is not a term. Single letters count only as characteristic
    abbreviations, in parentheses («Сила (S)») or on a profile line («WS BS S T W I A Ld Sv»),
    since elsewhere they label models in diagrams («Космодесантники A, B, D и E»)."""
    out: list[EnglishTerm] = []
    for source_id in source_ids or [s.id for s in load_manifest()]:
        for number, line in enumerate(read_lines(source_id), start=1):
            profile = bool(_PROFILE_LINE.match(line))
            for found in _LATIN_RUN.finditer(line):
                text = found.group(0).strip(" -")
                if profile:
                    for abbreviation in text.split():
                        out.append(EnglishTerm(source_id, number, abbreviation, "abbreviation"))
                    continue
                kind = _kind(line, found.start(), found.end(), text)
                if len(text) == 1 and not (text.isupper() and kind == "gloss"):
                    continue
                out.append(EnglishTerm(source_id, number, text, kind))
    return out


def unmapped_english_terms(termbase: Termbase, terms: list[EnglishTerm] | None = None) -> list[EnglishTerm]:
    """Printed English terms that no concept (English term, abbreviation, alias) or
    ``[[ignore]]`` entry of the termbase accounts for."""
    known: set[str] = {english_key(i.text) for i in termbase.ignore}
    for concept in termbase:
        known.add(english_key(concept.english))
        if concept.abbreviation:
            known.add(english_key(concept.abbreviation))
        known.update(english_key(alias) for alias in concept.aliases)
    return [t for t in (terms if terms is not None else extract_english_terms()) if english_key(t.text) not in known]
