"""The termbase against the source texts: occurrences, counts, lines, pages, KWIC, and the
English terms the texts print.

Occurrences are found over each raw text as a whole (a rendering wrapped over a line break
still counts), one source's renderings at a time, the longest match winning; line numbers are
1-based raw lines, a match spanning lines counting on its first line.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from rulekb.corpus.reader import load_manifest
from rulekb.kb.termbase.model import Concept, Termbase, default_termbase
from rulekb.kb.termbase.printed import (
    EnglishTerm,
    Heading,
    english_key,
    extract_english_terms,
    headings,
    unmapped_english_terms,
    unmapped_headings,
)
from rulekb.kb.termbase.sense import SenseResolver
from rulekb.kb.termbase.texts import (
    Block,
    block_span,
    blocks,
    line_of,
    line_starts,
    page_of,
    source_nodes,
    source_text,
)
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
    "line_of",
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
            starts = line_starts(source_id)
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
            text, starts = source_text(s), line_starts(s)
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


def rendering_stats(termbase: Termbase) -> dict[tuple[str, str, str], list[int]]:
    """Where each rendering occurs: (concept, source, rendering) → raw lines."""
    stats: dict[tuple[str, str, str], list[int]] = index_for(termbase).stats
    return stats
