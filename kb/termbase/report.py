"""What the termbase tells a translator and a searcher: concept lookup (any language, any
inflection, typos), inconsistency reports, a lint for draft translations, and a summary table.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rulekb.corpus.errors import QueryError
from rulekb.corpus.reader import find_source, load_manifest
from rulekb.corpus.words import is_caps
from rulekb.kb.termbase.model import BAD_STATUSES, Concept, Status, Termbase, default_termbase
from rulekb.kb.termbase.occurrences import TermIndex
from rulekb.kb.termbase.sense import SenseResolver
from rulekb.kb.text.analysis import fold, lemma_key
from rulekb.kb.text.fuzzy import closest_values
from rulekb.kb.text.inflect import inflect_like
from rulekb.kb.text.matcher import Match, Matcher, Pattern, analyse

__all__ = [
    "ConceptFinder",
    "DraftFlag",
    "InconsistencyReport",
    "SharedString",
    "Variants",
    "check_draft",
    "inconsistencies",
    "preferred_in",
    "stats_rows",
    "stats_table",
]


def _patterns(termbase: Termbase) -> list[Pattern]:
    out: list[Pattern] = []
    for concept in termbase:
        out.append(Pattern(concept.id, concept.english, "english"))
        if concept.abbreviation:
            out.append(Pattern(concept.id, concept.abbreviation, "abbreviation"))
        out.extend(Pattern(concept.id, alias, "alias") for alias in concept.aliases)
        out.extend(Pattern(concept.id, r.text, "rendering", r.source, r.status.value) for r in concept.rendering)
    return out


class ConceptFinder:
    """Finds concepts in any text: renderings of every source, aliases, English terms and
    abbreviations, by lemma n-grams; queries also get a typo-tolerant fallback."""

    def __init__(self, termbase: Termbase):
        self.termbase = termbase

    @cached_property
    def matcher(self) -> Matcher:
        return Matcher(_patterns(self.termbase))

    @cached_property
    def _exact(self) -> dict[str, list[str]]:
        """Folded name → concept ids: ids first, then English terms and abbreviations, then
        aliases, then renderings."""
        ranked: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
        for order, concept in enumerate(self.termbase):
            names = [(0, concept.id), (1, concept.english), (1, concept.abbreviation)]
            names += [(2, alias) for alias in concept.aliases] + [(3, r.text) for r in concept.rendering]
            for rank, name in names:
                if name:
                    ranked[fold(name.strip())].append((rank, order, concept.id))
        table: dict[str, list[str]] = {}
        for key, entries in ranked.items():
            table[key] = list(dict.fromkeys(concept_id for _, _, concept_id in sorted(entries)))
        return table

    def find(self, text: str, *, query: bool = False, fuzzy: bool | None = None) -> list[Match]:
        """Every occurrence in ``text`` (longest match wins). In ``query`` mode case is ignored
        (but «ПО» is not «по») and, unless ``fuzzy=False``, words that matched nothing are
        compared with aliases by edit distance («овервоч» → overwatch)."""
        found = self.matcher.find(text, query=query)
        if fuzzy if fuzzy is not None else query:
            found += self.matcher.find_fuzzy(text, exclude=[(m.start, m.end) for m in found])
        # One match per concept and span: a keyword form before a plain one, a rendering first.
        kinds = {"rendering": 0, "english": 1, "abbreviation": 1, "alias": 2}
        found.sort(key=lambda m: (m.start, -m.end, not is_caps(m.pattern.text), kinds.get(m.pattern.kind, 3)))
        seen: set[tuple[str, int, int]] = set()
        unique: list[Match] = []
        for match in found:
            if (match.concept_id, match.start, match.end) not in seen:
                seen.add((match.concept_id, match.start, match.end))
                unique.append(match)
        return unique

    def concepts(self, text: str, *, query: bool = True) -> list[str]:
        """Concept ids found in ``text``, in order of first appearance, each once."""
        seen: dict[str, None] = {}
        for match in self.find(text, query=query):
            seen.setdefault(match.concept_id, None)
        return list(seen)

    def search(self, query: str) -> list[Concept]:
        """Concepts a user means by ``query``: an id, an English term, an abbreviation, an
        alias or a Russian rendering in any inflection, slang, or a near miss."""
        key = fold(query.strip())
        ids = list(self._exact.get(key, []))
        if not ids:
            matches = self.find(query, query=True)
            whole = [m for m in matches if m.start == 0 and m.end >= len(query.rstrip())]
            for match in whole + matches:
                if match.concept_id not in ids:
                    ids.append(match.concept_id)
        return [self.termbase[i] for i in ids]

    def lookup(self, query: str) -> list[Concept]:
        """Concepts ``query`` names as a whole: an id, English term, abbreviation, alias or
        rendering (any inflection, or a near miss), or several of them that together cover every
        word of the query. A query only part of which names a concept («Heavy Intercessor»)
        names nothing: :meth:`search` would return the part («Heavy»)."""
        key = fold(query.strip())
        if key in self._exact:
            return [self.termbase[i] for i in self._exact[key]]
        words = [t for t in analyse(query) if t.original[:1].isalnum()]
        if not words:
            return []
        matches = self.find(query, query=True)
        covered = {i for i, t in enumerate(words) for m in matches if m.start <= t.start and t.end <= m.end}
        if len(covered) < len(words):
            return []
        ids: list[str] = []
        for match in matches:
            if match.concept_id not in ids:
                ids.append(match.concept_id)
        return [self.termbase[i] for i in ids]

    def closest(self, query: str, n: int = 5) -> list[str]:
        """Concept ids whose id, English term or aliases look most like ``query`` (:mod:`rulekb.kb.text.fuzzy`)."""
        names: dict[str, list[str]] = defaultdict(list)
        for concept in self.termbase:
            for name in (concept.id, fold(concept.english), *(fold(a) for a in concept.aliases)):
                names[name].append(concept.id)
        return closest_values(fold(query.strip()), names, n=n, cutoff=0.5, pool=n * 3)


# --- Inconsistencies ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Variants:
    """One concept written more than one way in one source."""

    source_id: str
    concept_id: str
    english: str
    renderings: tuple[tuple[str, str, int], ...]
    """(text, status, count), most frequent first."""


@dataclass(frozen=True)
class SharedString:
    """One Russian string (any inflection) used for different concepts."""

    text: str
    uses: tuple[tuple[str, str, str, int], ...]
    """(source id, concept id, status, count)."""

    @property
    def concept_ids(self) -> list[str]:
        return sorted({use[1] for use in self.uses})


@dataclass
class InconsistencyReport:
    variants: list[Variants] = field(default_factory=list)
    within_source: list[SharedString] = field(default_factory=list)
    across_sources: list[SharedString] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "variants": [
                {
                    "source_id": v.source_id,
                    "concept": v.concept_id,
                    "english": v.english,
                    "renderings": [{"text": t, "status": s, "count": c} for t, s, c in v.renderings],
                }
                for v in self.variants
            ],
            "within_source": [_shared_json(s) for s in self.within_source],
            "across_sources": [_shared_json(s) for s in self.across_sources],
        }


def _shared_json(shared: SharedString) -> dict[str, Any]:
    return {
        "text": shared.text,
        "uses": [{"source_id": s, "concept": c, "status": st, "count": n} for s, c, st, n in shared.uses],
    }


def inconsistencies(index: TermIndex, source_id: str | None = None) -> InconsistencyReport:
    """Per source, the concepts rendered more than one way (with counts), and the Russian
    strings used for different concepts within a source and across sources. Only renderings
    that occur count."""
    sources = [source_id] if source_id is not None else index.sources
    report = InconsistencyReport()
    by_key: dict[tuple[tuple[str, ...], bool], list[tuple[str, str, str, int, str]]] = defaultdict(list)
    for concept in index.termbase:
        for source in index.sources:
            used = [(r.text, r.status.value, index.count(concept.id, source, r.text)) for r in concept.renderings_for(source)]
            used = [u for u in used if u[2] > 0]
            for text, status, count in used:
                by_key[(lemma_key(text), is_caps(text))].append((source, concept.id, status, count, text))
            if source in sources and len(used) > 1:
                report.variants.append(
                    Variants(source, concept.id, concept.english, tuple(sorted(used, key=lambda u: (-u[2], u[0]))))
                )
    for uses in by_key.values():
        concepts = {u[1] for u in uses}
        if len(concepts) < 2:
            continue
        text = uses[0][4]
        for source in sources:
            here = [u for u in uses if u[0] == source]
            if len({u[1] for u in here}) > 1:
                report.within_source.append(SharedString(text, tuple(u[:4] for u in here)))
        if source_id is not None and source_id not in {u[0] for u in uses}:
            continue
        if any(a[0] != b[0] and a[1] != b[1] for a in uses for b in uses):
            report.across_sources.append(SharedString(text, tuple(u[:4] for u in uses)))
    order = {s: n for n, s in enumerate(index.sources)}
    report.variants.sort(key=lambda v: (order[v.source_id], v.concept_id))
    report.within_source.sort(key=lambda s: (order[s.uses[0][0]], fold(s.text)))
    report.across_sources.sort(key=lambda s: fold(s.text))
    return report


# --- Draft translations ------------------------------------------------------------------------


@dataclass(frozen=True)
class DraftFlag:
    """A deprecated or mistranslated rendering found in a draft: one flag per occurrence, for
    the one concept its context gives (:mod:`rulekb.kb.termbase.sense`)."""

    line: int
    column: int
    """1-based, in characters."""
    text: str
    concept_id: str
    english: str
    status: str
    rendering: str
    preferred: str
    """The rendering to use: the checked book's (``--source``/``--edition``), else the
    termbase's recommendation."""
    note: str
    fix: str = ""
    """``preferred`` in the draft's word form («в пределах досягаемости» → «зоны поражения»)."""
    source_id: str = ""
    """The book whose rendering ``preferred`` is (empty: the termbase's recommendation)."""
    evidence: str = ""
    """Why this concept, when the string renders several («cue «оружия»», «default»)."""

    def __str__(self) -> str:
        use = self.fix or self.preferred
        where = f" ({self.source_id})" if self.source_id else ""
        fix = f"; use «{use}»{where}" if use else ""
        return f"{self.line}:{self.column}: «{self.text}» — {self.status} for {self.concept_id} ({self.english}){fix}. {self.note}".rstrip()


def _scope(source: str | None, edition: str | None) -> list[str] | None:
    """The books a draft is checked against: one source, an edition's sources, or all (None)."""
    if source is not None:
        find_source(source)
        return [source]
    if edition is not None:
        ids = [s.id for s in load_manifest() if s.edition == edition]
        if not ids:
            known = ", ".join(sorted({s.edition for s in load_manifest()}))
            raise QueryError(f"No source of edition {edition!r}; use one of {known}.")
        return ids
    return None


def preferred_in(concept: Concept, sources: list[str] | None) -> tuple[str, str]:
    """The rendering ``sources`` use for ``concept`` — the first preferred, else the first
    admitted — with its source; else the termbase's recommendation (and no source)."""
    if sources:
        for wanted in (Status.PREFERRED, Status.ADMITTED):
            for source in sources:
                for r in concept.renderings_for(source):
                    if r.status is wanted and not r.heading:
                        return r.text, source
    return concept.recommended, ""


def check_draft(
    text: str,
    termbase: Termbase | None = None,
    finder: ConceptFinder | None = None,
    *,
    source: str | None = None,
    edition: str | None = None,
    books: list[str] | None = None,
) -> list[DraftFlag]:
    """Flag every deprecated or mistranslated rendering in a draft, by lemma, with its line and
    column (1-based), the concept and the rendering to use in the draft's word form.

    With ``source`` (or ``edition``) the draft is read against that book's renderings (or that
    edition's books): the fix is that book's preferred rendering. A string that renders several
    concepts is flagged once, for the concept its context gives; a string that is also an
    accepted rendering (in the books checked against) is not flagged. ``books`` gives those books
    already resolved (a built knowledge base knows its editions' books without the manifest)."""
    if termbase is None:
        termbase = finder.termbase if finder is not None else default_termbase()
    sources = books if books is not None else _scope(source, edition)
    resolver = SenseResolver(termbase, sources)
    found = resolver.passage_matcher.find(text)
    by_span: dict[tuple[int, int], list[Match]] = defaultdict(list)
    for match in found:
        by_span[(match.start, match.end)].append(match)
    bad_spans = {
        span for span, matches in by_span.items() if all(Status(m.pattern.status or "preferred") in BAD_STATUSES for m in matches)
    }
    notes = {(c.id, r.source, r.text): r.note for c in termbase for r in c.rendering}
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    flags: list[DraftFlag] = []
    for assigned in resolver.resolve(found, text):
        match = assigned.match
        if (match.start, match.end) not in bad_spans:
            continue
        line = max(n for n, s in enumerate(line_starts, start=1) if s <= match.start)
        concept = termbase[match.concept_id]
        preferred, where = preferred_in(concept, sources)
        before = re.findall(r"[А-Яа-яЁё]+", text[max(0, match.start - 40) : match.start])
        fix = inflect_like(preferred, match.text, before[-1] if before else "") if preferred else ""
        flags.append(
            DraftFlag(
                line, match.start - line_starts[line - 1] + 1, match.text, concept.id, concept.english,
                match.pattern.status or "", match.pattern.text, preferred,
                notes.get((concept.id, match.pattern.source_id or "", match.pattern.text), ""),
                fix, where, assigned.evidence,
            )
        )
    return flags


# --- Summary -----------------------------------------------------------------------------------


def stats_rows(index: TermIndex) -> list[dict[str, Any]]:
    report = inconsistencies(index)
    rows = []
    for source in index.sources:
        concepts = [c for c in index.termbase if c.renderings_for(source)]
        renderings = [(c, r) for c in concepts for r in c.renderings_for(source)]
        rows.append(
            {
                "source_id": source,
                "edition": find_source(source).edition,
                "concepts": len(concepts),
                "renderings": len(renderings),
                "occurrences": sum(index.count(c.id, source, r.text) for c, r in renderings),
                "flagged": sum(1 for _, r in renderings if r.status in BAD_STATUSES),
                "variants": sum(1 for v in report.variants if v.source_id == source),
                "shared": sum(1 for s in report.within_source if s.uses[0][0] == source),
            }
        )
    return rows


def stats_table(index: TermIndex) -> str:
    """A Markdown table per source: concepts, renderings, occurrences, deprecated or wrong
    renderings, concepts written several ways, strings shared by several concepts."""
    head = (
        "| source | edition | concepts | renderings | occurrences | deprecated or wrong | "
        "concepts written several ways | strings shared by concepts |"
    )
    lines = [head, "|---|---|---:|---:|---:|---:|---:|---:|"]
    total: dict[str, int] = defaultdict(int)
    for row in stats_rows(index):
        lines.append(
            f"| `{row['source_id']}` | {row['edition']} | {row['concepts']} | {row['renderings']} | {row['occurrences']} | "
            f"{row['flagged']} | {row['variants']} | {row['shared']} |"
        )
        for key in ("renderings", "occurrences", "flagged", "variants", "shared"):
            total[key] += row[key]
    lines.append(
        f"| all | | {len(index.termbase)} | {total['renderings']} | {total['occurrences']} | {total['flagged']} | "
        f"{total['variants']} | {total['shared']} |"
    )
    return "\n".join(lines) + "\n"
