"""The linker: rule nodes + termbase → mentions, definitions, references, same concept.

Gather, then link: every source's nodes are loaded before anything is resolved.

* ``mentions`` — a rule leaf mentions a concept when one of the concept's renderings *for that
  source* occurs in its ``text_clean`` (the termbase's lemma matcher, :mod:`rulekb.kb.text.matcher`); an
  occurrence of a string that renders several concepts counts for the one its context gives
  (:mod:`rulekb.kb.termbase.sense`), so «атака» under «ФАЗА РЫВКА» mentions the charge, not every attack.
* ``defines`` — a rule leaf defines a concept when it opens a heading whose title renders the
  concept (the rendering covers most of the title's words): the heading's first leaves, up
  to :data:`LEADING_LEAVES`. Curated entries in ``kb/data/defines.toml`` (source, lines, quote)
  replace the automatic ones for their concept and source.
* ``refers_to`` — «см. стр. 27» and its kin (:mod:`rulekb.kb.graph.references`), plus curated corrections.
* ``same_concept`` — for each concept (or curated *mechanic*, a group of concepts that are the
  same rule under different names in different editions, such as the Leadership test and the
  Battle-shock test), every defining leaf of one edition is linked to every defining leaf of
  each other edition.

Problems become :class:`LinkIssue` lines; see :mod:`rulekb.kb.graph.validate` for which are errors.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from rulekb.corpus.models import HEADING_KINDS, NON_RULE_KINDS, NodeKind, RuleNode
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.graph.curation import (
    Curation,
    LinkIssue,
    covering_leaves,
    load_curation,
    normalise_space,
    project_path,
    span_text,
)
from rulekb.kb.graph.references import Reference, find_references
from rulekb.kb.graph.resolve import resolve_references
from rulekb.kb.termbase.model import Termbase, default_termbase
from rulekb.kb.termbase.sense import SenseResolver
from rulekb.kb.text.matcher import Matcher, Pattern, analyse

__all__ = [
    "LEADING_LEAVES",
    "Definition",
    "LinkIssue",
    "Links",
    "SameConcept",
    "link",
]

#: How many leading leaves of a heading count as its definition.
LEADING_LEAVES = 2


@dataclass(frozen=True)
class Definition:
    """A rule leaf that defines a concept."""

    node_id: str
    concept_id: str
    how: str
    """``title`` (under a heading that renders the concept) or ``curated``."""
    lines: tuple[int, int] | None = None
    """The curated lines inside the leaf, when they are fewer than the leaf's."""
    excerpt: str = ""
    """Those lines' text (whitespace collapsed), when ``lines`` is set."""


@dataclass(frozen=True)
class SameConcept:
    """Two defining leaves of the same mechanic in different editions."""

    a: str
    b: str
    concept_a: str
    concept_b: str
    mechanic: str


@dataclass
class Links:
    """Everything the linker found."""

    mentions: dict[str, dict[str, int]]
    """node id → concept id → number of mentions."""
    definitions: list[Definition]
    references: list[Reference]
    same_concept: list[SameConcept]
    issues: list[LinkIssue]
    mechanics: dict[str, str]
    """concept id → mechanic id (a concept without a curated group is its own mechanic)."""


# --- matching ------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _matcher(termbase: Termbase, source_id: str) -> Matcher:
    return Matcher(
        Pattern(c.id, r.text, "rendering", r.source, r.status.value)
        for c in termbase
        for r in c.rendering
        if r.source == source_id
    )


@lru_cache(maxsize=32)
def _resolver(termbase: Termbase, source_id: str) -> SenseResolver:
    return SenseResolver(termbase, source_id)


def _headings(node: RuleNode, by_id: dict[str, RuleNode]) -> list[str]:
    """The titles ``node`` sits under, nearest first."""
    out: list[str] = []
    parent = by_id.get(node.parent_id) if node.parent_id else None
    while parent is not None and parent.parent_id is not None:
        if parent.title_clean or parent.title:
            out.append(parent.title_clean or parent.title)
        parent = by_id.get(parent.parent_id) if parent.parent_id else None
    return out


def _mentions(nodes: Sequence[RuleNode], termbase: Termbase) -> dict[str, dict[str, int]]:
    """Per rule leaf, the concepts its text names, each occurrence of a string shared by
    several concepts counted once, for the sense its context gives (:mod:`rulekb.kb.termbase.sense`)."""
    out: dict[str, dict[str, int]] = {}
    by_id = {n.id: n for n in nodes}
    for node in nodes:
        if not node.is_leaf or node.kind in NON_RULE_KINDS or not node.text_clean:
            continue
        counts: dict[str, int] = defaultdict(int)
        for assigned in _resolver(termbase, node.source_id).find(node.text_clean, _headings(node, by_id)):
            counts[assigned.concept_id] += 1
        if counts:
            out[node.id] = dict(sorted(counts.items()))
    return out


_NUMBERING = re.compile(r"^\s*\d+\s*[.)]?\s*")


def _title_concepts(node: RuleNode, termbase: Termbase) -> list[str]:
    """Concepts the heading's title renders: a rendering covering most of its words (words of
    one or two letters, such as «и», «в», do not count)."""
    title = _NUMBERING.sub("", node.title_clean or node.title)
    words = [t for t in analyse(title) if t.original[:1].isalpha() and len(t.original) > 2]
    if not words:
        return []
    out: list[str] = []
    for match in _matcher(termbase, node.source_id).find(title):
        covered = sum(1 for t in words if match.start <= t.start and t.end <= match.end)
        if covered * 2 > len(words) and match.concept_id not in out:
            out.append(match.concept_id)
    return out


_OPENING_KINDS = frozenset({NodeKind.RULE, NodeKind.SUMMARY, NodeKind.LIST, NodeKind.TABLE})


def _leading_leaves(heading: RuleNode, children: dict[str, list[RuleNode]]) -> list[RuleNode]:
    """The rule text that opens ``heading``: its first leaves, up to the first sub-heading or
    example. A heading with no text of its own defines nothing (its sub-headings speak)."""
    out: list[RuleNode] = []
    for child in children.get(heading.id, []):
        if child.kind in NON_RULE_KINDS:
            continue
        if child.kind not in _OPENING_KINDS or len(out) == LEADING_LEAVES:
            break
        out.append(child)
    return out


# --- the linker ----------------------------------------------------------------------------------


def link(
    corpus: ParsedCorpus,
    termbase: Termbase | None = None,
    curation: Curation | None = None,
) -> Links:
    """Link every source of ``corpus`` (see the module docstring)."""
    termbase = termbase if termbase is not None else default_termbase()
    curation = curation if curation is not None else load_curation()
    nodes = corpus.nodes
    issues: list[LinkIssue] = []
    by_id = {n.id: n for n in nodes}
    children: dict[str, list[RuleNode]] = defaultdict(list)
    for node in nodes:
        if node.parent_id is not None:
            children[node.parent_id].append(node)

    definitions = _definitions(nodes, children, termbase, curation, issues)
    references = _references(corpus, curation, issues)
    mechanics = _mechanic_of(termbase, curation, issues)
    same = _same_concept(definitions, by_id, mechanics)
    return Links(
        mentions=_mentions(nodes, termbase),
        definitions=definitions,
        references=references,
        same_concept=same,
        issues=issues,
        mechanics=mechanics,
    )


def _definitions(
    nodes: Sequence[RuleNode],
    children: dict[str, list[RuleNode]],
    termbase: Termbase,
    curation: Curation,
    issues: list[LinkIssue],
) -> list[Definition]:
    curated: dict[tuple[str, str], list[Definition]] = defaultdict(list)
    file = project_path(curation.path)
    sources = {n.source_id for n in nodes}
    for entry in curation.defines:
        where = f"[[define]] {entry.concept!r} in {entry.source} lines {entry.lines[0]}–{entry.lines[1]}"
        if entry.concept not in termbase:
            issues.append(LinkIssue("error", file, entry.line, f"{where}: unknown concept id", "bad-define"))
            continue
        if entry.source not in sources:
            issues.append(LinkIssue("error", file, entry.line, f"{where}: unknown source", "bad-define"))
            continue
        leaves = covering_leaves(nodes, entry.source, entry.lines)
        if not leaves:
            issues.append(LinkIssue("error", file, entry.line, f"{where}: no rule leaf covers these lines", "bad-define"))
            continue
        if normalise_space(entry.quote) not in span_text(leaves, entry.lines):
            issues.append(
                LinkIssue("error", file, entry.line, f"{where}: quote {entry.quote!r} is not in these lines", "bad-quote")
            )
            continue
        for number, leaf in enumerate(leaves):
            if all(d.node_id != leaf.id for d in curated[(entry.concept, entry.source)]):
                span = (max(entry.lines[0], leaf.lines[0]), min(entry.lines[1], leaf.lines[1]))
                excerpt = span_text([leaf], span)
                trimmed = _trim(excerpt, entry.start if number == 0 else "", entry.end if number == len(leaves) - 1 else "")
                if trimmed is None:
                    issues.append(
                        LinkIssue("error", file, entry.line, f"{where}: start/end text is not in these lines", "bad-quote")
                    )
                    break
                inner = span != leaf.lines or trimmed != excerpt
                curated[(entry.concept, entry.source)].append(
                    Definition(leaf.id, entry.concept, "curated", span if inner else None, trimmed if inner else "")
                )
    for undefined in curation.undefined:
        where = f"[[undefined]] {undefined.concept!r} in {undefined.source}"
        if undefined.concept not in termbase or undefined.source not in sources:
            issues.append(LinkIssue("error", file, undefined.line, f"{where}: unknown concept id or source", "bad-define"))
            continue
        if curated.get((undefined.concept, undefined.source)):
            issues.append(LinkIssue("error", file, undefined.line, f"{where}: a [[define]] defines it there too", "bad-define"))
            continue
        curated[(undefined.concept, undefined.source)] = []

    found: list[Definition] = []
    seen: set[tuple[str, str]] = set()
    for definitions in curated.values():
        for definition in definitions:
            found.append(definition)
            seen.add((definition.node_id, definition.concept_id))
    for node in nodes:
        if node.kind not in HEADING_KINDS or node.kind is NodeKind.SOURCE:
            continue
        for concept_id in _title_concepts(node, termbase):
            if (concept_id, node.source_id) in curated:
                continue
            for leaf in _leading_leaves(node, children):
                if (leaf.id, concept_id) not in seen:
                    seen.add((leaf.id, concept_id))
                    found.append(Definition(leaf.id, concept_id, "title"))
    order = {n.id: i for i, n in enumerate(nodes)}
    return sorted(found, key=lambda d: (d.concept_id, order[d.node_id]))


def _trim(text: str, start: str, end: str) -> str | None:
    """``text`` from ``start`` (inclusive) to the end of ``end``; ``None`` when either is missing."""
    begin = 0
    if start:
        begin = text.find(normalise_space(start))
        if begin < 0:
            return None
    stop = len(text)
    if end:
        at = text.find(normalise_space(end), begin)
        if at < 0:
            return None
        stop = at + len(normalise_space(end))
    return text[begin:stop].strip()


def _references(corpus: ParsedCorpus, curation: Curation, issues: list[LinkIssue]) -> list[Reference]:
    nodes = corpus.nodes
    refs = resolve_references(find_references(nodes), nodes)
    file = project_path(curation.path)
    for entry in curation.references:
        where = f"[[reference]] {entry.source}:{entry.line} «{entry.text}»"
        hits = [i for i, r in enumerate(refs) if r.source_id == entry.source and r.line == entry.line and entry.text in r.text]
        if not hits:
            issues.append(LinkIssue("error", file, entry.entry_line, f"{where}: no such reference in the text", "bad-reference"))
            continue
        if entry.target is None:
            for i in hits:
                refs[i] = replace(refs[i], targets=(), method="curated", reason=entry.reason)
            continue
        targets = [
            n
            for n in nodes
            if n.source_id == entry.source and n.lines[0] == entry.target[0] and n.kind is not NodeKind.SOURCE
        ] or covering_leaves(nodes, entry.source, entry.target)
        if not targets:
            issues.append(LinkIssue("error", file, entry.entry_line, f"{where}: no node at the target lines", "bad-reference"))
            continue
        for i in hits:
            refs[i] = replace(refs[i], targets=(targets[0].id,), method="curated", reason="")
    return refs


def _mechanic_of(termbase: Termbase, curation: Curation, issues: list[LinkIssue]) -> dict[str, str]:
    out = {concept.id: concept.id for concept in termbase}
    file = project_path(curation.path)
    for mechanic in curation.mechanics:
        for concept_id in mechanic.concepts:
            if concept_id not in termbase:
                issues.append(
                    LinkIssue("error", file, mechanic.line, f"[[mechanic]] {mechanic.id!r}: unknown concept {concept_id!r}", "bad-mechanic")
                )
                continue
            out[concept_id] = mechanic.id
    return out


def _same_concept(definitions: list[Definition], by_id: dict[str, RuleNode], mechanics: dict[str, str]) -> list[SameConcept]:
    groups: dict[str, list[Definition]] = defaultdict(list)
    for d in definitions:
        groups[mechanics.get(d.concept_id, d.concept_id)].append(d)
    out: list[SameConcept] = []
    for mechanic, defs in sorted(groups.items()):
        for a in defs:
            for b in defs:
                if by_id[a.node_id].edition != by_id[b.node_id].edition:
                    out.append(SameConcept(a.node_id, b.node_id, a.concept_id, b.concept_id, mechanic))
    return out


