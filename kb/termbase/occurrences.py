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
from typing import Any

from rulekb.corpus.models import RuleNode
from rulekb.corpus.reader import find_source, load_manifest, read_lines
from rulekb.kb.termbase.model import Concept, Termbase, default_termbase
from rulekb.kb.termbase.sense import SenseResolver
from rulekb.kb.text.matcher import Matcher, Pattern

__all__ = [
    "Block",
    "EnglishTerm",
    "Heading",
    "KwicRow",
    "Occurrence",
    "TermIndex",
    "block_span",
    "blocks",
    "default_index",
    "english_key",
    "extract_english_terms",
    "headings",
    "index_for",
    "page_of",
    "rendering_stats",
    "renderings_not_found",
    "source_nodes",
    "source_text",
    "unmapped_english_terms",
    "unmapped_headings",
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
    candidates: tuple[str, ...] = ()
    """Every concept the string renders in this source (more than one: a shared string)."""
    evidence: str = ""
    """Why the occurrence counts for ``concept_id`` when the string is shared
    (:mod:`rulekb.kb.termbase.sense`): ``cue «…»``, ``heading «…»``, ``rule: …`` or ``default``."""
    node_id: str = ""
    """The parsed node (passage or heading) the occurrence stands in."""


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
    evidence: str | None = None
    """Why a shared string counts for this concept here (see :class:`Occurrence`)."""
    candidates: tuple[str, ...] = ()


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
def source_nodes(source_id: str) -> tuple[RuleNode, ...]:
    """The parsed nodes of one source (headings and passages, with their raw lines)."""
    from rulekb.corpus.parser import parse_corpus

    return tuple(parse_corpus([find_source(source_id)]).sources[0].nodes)


@dataclass(frozen=True)
class Block:
    """A run of raw lines that one heading or one passage holds: occurrences never cross a
    block's edge, so a heading is never read together with the paragraph after it."""

    first: int
    last: int
    node_id: str
    headings: tuple[str, ...]
    """The titles the block sits under, nearest first (a heading's own title first)."""
    heading: bool = False
    """The block is a heading's title."""


@cache
def blocks(source_id: str) -> tuple[Block, ...]:
    """The blocks of a source in line order: each line belongs to the innermost node covering it;
    lines no node covers (blank lines between passages) start new blocks."""
    nodes = source_nodes(source_id)
    count = len(read_lines(source_id))
    owner: list[RuleNode | None] = [None] * (count + 1)
    for node in sorted((n for n in nodes if n.parent_id is not None), key=lambda n: n.lines[1] - n.lines[0], reverse=True):
        for number in range(node.lines[0], min(node.lines[1], count) + 1):
            owner[number] = node
    by_id = {n.id: n for n in nodes}

    def titles(node: RuleNode | None) -> tuple[str, ...]:
        out: list[str] = []
        while node is not None:
            if not node.is_leaf and node.parent_id is not None and (node.title_clean or node.title):
                out.append(node.title_clean or node.title)
            node = by_id.get(node.parent_id) if node.parent_id else None
        return tuple(out)

    lines = read_lines(source_id)
    out: list[Block] = []
    number = 1
    while number <= count:
        here = owner[number]
        if here is None and not lines[number - 1].strip():
            number += 1
            continue
        last = number
        while last + 1 <= count and owner[last + 1] is here and (here is not None or lines[last].strip()):
            last += 1
        out.append(
            Block(number, last, here.id if here is not None else "", titles(here), here is not None and not here.is_leaf)
        )
        number = last + 1
    return tuple(out)


def block_span(source_id: str, block: Block) -> tuple[int, int]:
    """The raw character offsets of a block (its first line's start, its last line's end)."""
    starts = _line_starts(source_id)
    end = starts[block.last] - 1 if block.last < len(starts) else len(source_text(source_id))
    return starts[block.first - 1], end


@cache
def _pages(source_id: str) -> tuple[int | None, ...]:
    """Page per line (index 0 = line 1): from the parsed nodes, else from the page markers."""
    lines = read_lines(source_id)
    source = find_source(source_id)
    if not source.page_markers:
        return (None,) * len(lines)
    pages: list[int | None] = [None] * len(lines)
    nodes = [n for n in source_nodes(source_id) if n.parent_id is not None]
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


def _kwic_row(source_id: str, start: int, end: int, width: int, **extra: Any) -> KwicRow:
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
        self._resolvers: dict[str, SenseResolver] = {}

    def matcher(self, source_id: str) -> Matcher:
        patterns = [
            Pattern(c.id, r.text, "rendering", r.source, r.status.value)
            for c in self.termbase
            for r in c.rendering
            if r.source == source_id
        ]
        return Matcher(patterns)

    def resolver(self, source_id: str) -> SenseResolver:
        """The sense resolver of one source's renderings (:mod:`rulekb.kb.termbase.sense`)."""
        if source_id not in self._resolvers:
            self._resolvers[source_id] = SenseResolver(self.termbase, source_id)
        return self._resolvers[source_id]

    @cached_property
    def _occurrences(self) -> dict[str, list[Occurrence]]:
        """Per source, every occurrence found block by block (a heading or a passage; never
        across the edge of one), each assigned to one concept."""
        out: dict[str, list[Occurrence]] = {}
        for source_id in self.sources:
            text = source_text(source_id)
            starts = _line_starts(source_id)
            resolver = self.resolver(source_id)
            found: list[Occurrence] = []
            for block in blocks(source_id):
                begin = starts[block.first - 1]
                stop = starts[block.last] - 1 if block.last < len(starts) else len(text)
                for a in resolver.find(text[begin:stop], block.headings, offset=begin, heading=block.heading):
                    m = a.match
                    found.append(
                        Occurrence(
                            source_id, m.concept_id, m.pattern.text, m.pattern.status or "", m.start, m.end,
                            line_of(source_id, m.start), m.text, a.candidates, a.evidence, block.node_id,
                        )
                    )
            out[source_id] = found
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
            _kwic_row(
                o.source_id, o.start, o.end, width, concept_id=o.concept_id, rendering=o.rendering, status=o.status,
                evidence=o.evidence or None, candidates=o.candidates if len(o.candidates) > 1 else (),
            )
            for o in self.occurrences(source_id, concept.id)
        ]

    def kwic_text(self, phrase: str, source_id: str | None = None, width: int = 60) -> list[KwicRow]:
        """Every occurrence of a free phrase (any inflection) in context."""
        matcher = Matcher([Pattern("", phrase, "phrase")])
        sources = [source_id] if source_id is not None else self.sources
        rows: list[KwicRow] = []
        for s in sources:
            text, starts = source_text(s), _line_starts(s)
            for block in blocks(s):
                begin = starts[block.first - 1]
                stop = starts[block.last] - 1 if block.last < len(starts) else len(text)
                for m in matcher.find(text[begin:stop], query=True):
                    rows.append(_kwic_row(s, begin + m.start, begin + m.end, width))
        return rows


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
    known: set[str] = {english_key(i.text) for i in termbase.ignore if not i.heading}
    for concept in termbase:
        known.add(english_key(concept.english))
        if concept.abbreviation:
            known.add(english_key(concept.abbreviation))
        known.update(english_key(alias) for alias in concept.aliases)
    return [t for t in (terms if terms is not None else extract_english_terms()) if english_key(t.text) not in known]


@dataclass(frozen=True)
class Heading:
    """A heading printed in a source."""

    source_id: str
    line: int
    text: str
    concepts: tuple[str, ...]
    """The concepts the title names (renderings of its source found in it)."""


def headings(termbase: Termbase, source_ids: list[str] | None = None) -> list[Heading]:
    """Every heading of the sources with the concepts its title names."""
    out: list[Heading] = []
    for source_id in source_ids or [s.id for s in load_manifest()]:
        resolver = SenseResolver(termbase, source_id)
        for node in source_nodes(source_id):
            if node.is_leaf or node.parent_id is None:
                continue
            title = node.title_clean or node.title
            found = tuple(dict.fromkeys(a.concept_id for a in resolver.find(title, heading=True)))
            out.append(Heading(source_id, node.lines[0], title, found))
    return out


def unmapped_headings(termbase: Termbase) -> list[Heading]:
    """Headings that name no concept and are not listed under ``[[ignore]]`` with
    ``heading = true`` (compared with whitespace collapsed and case folded)."""
    ignored = {(i.source, " ".join(i.text.split()).casefold()) for i in termbase.ignore if i.heading}
    return [
        h for h in headings(termbase) if not h.concepts and (h.source_id, " ".join(h.text.split()).casefold()) not in ignored
    ]


def rendering_stats(termbase: Termbase) -> dict[tuple[str, str, str], list[int]]:
    """Where each rendering occurs: (concept, source, rendering) → raw lines."""
    stats: dict[tuple[str, str, str], list[int]] = index_for(termbase).stats
    return stats
