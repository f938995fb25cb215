"""Resolving cross-references: the second pass of :mod:`rulekb.kb.graph.references`.

:func:`resolve_references` points each found reference at rule nodes of the same book, once every
node of every source is known: a page to the nodes printed on it, a direction to the nearest
heading whose title shares words with the sentence before the reference, a name to the heading
with that title. On a page, or among the headings in a direction, the node whose title shares the
rarest words with the sentence before the reference wins; ties go to the nearest.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from rulekb.corpus.models import HEADING_KINDS, NON_RULE_KINDS, NodeKind, RuleNode
from rulekb.kb.graph.references import Reference
from rulekb.kb.text.analysis import lemmas

__all__ = ["page_span", "resolve_references"]


@dataclass
class _SourceView:
    """One source's nodes in document order, with what resolution needs."""

    source_id: str
    nodes: list[RuleNode]
    position: dict[str, int] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    title_words: dict[str, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.position = {node.id: i for i, node in enumerate(self.nodes)}
        df: Counter[str] = Counter()
        for node in self.nodes:
            words = _words(node.title_clean or node.title) if node.kind in HEADING_KINDS else frozenset()
            self.title_words[node.id] = words
            df.update(words | _words(node.text_clean))
        total = max(len(self.nodes), 1)
        self.weights = {word: math.log(total / count) for word, count in df.items()}

    def ancestors(self, node_id: str) -> set[str]:
        """Ids of the headings above ``node_id`` (a reference never points at its own section)."""
        parents = {n.id: n.parent_id for n in self.nodes}
        out: set[str] = set()
        parent = parents.get(node_id)
        while parent is not None:
            out.add(parent)
            parent = parents.get(parent)
        return out

    @property
    def pages(self) -> list[int]:
        return page_span(self.nodes)

    def score(self, context: dict[str, float], node: RuleNode) -> float:
        shared = context.keys() & self.title_words.get(node.id, frozenset())
        return sum(self.weights.get(w, 0.0) * context[w] for w in shared)


def _stem(word: str) -> str:
    return word[:6] if len(word) > 6 else word


#: Words too common to point anywhere.
_STOP = frozenset("так как это этот тот который весь все или для при что чтобы они его она быть мочь the".split())


def _content(text: str) -> list[str]:
    return [_stem(w) for w in lemmas(text) if len(w) >= 3 and not w[0].isdigit() and w not in _STOP]


def _words(text: str) -> frozenset[str]:
    """Content words of ``text``: lemmas of three letters or more, cut to a six-letter stem so
    «турбоускоряться» meets «турбоускорение»."""
    return frozenset(_content(text))


#: How fast a context word counts less the further it stands from the reference.
DECAY = 0.8


def _context_weights(context: str) -> dict[str, float]:
    """Content words of the context, weighted by nearness to the reference (the last word: 1)."""
    weights: dict[str, float] = {}
    for distance, word in enumerate(reversed(_content(context))):
        weights.setdefault(word, DECAY**distance)
    return weights


#: A title must share words weighing at least this much with the context to be chosen.
MIN_TITLE_SCORE = 1.5


def _best(view: _SourceView, context: str, candidates: Sequence[RuleNode], first: bool = False) -> RuleNode | None:
    """The candidate whose title best matches ``context`` (or, with ``first``, the first one that
    matches well enough: candidates are then in order of distance)."""
    words = _context_weights(context)
    best = MIN_TITLE_SCORE
    choice: RuleNode | None = None
    for node in candidates:
        score = view.score(words, node)
        if score >= best and (choice is None or score > best):
            best, choice = score, node
            if first:
                break
    return choice


def _rule_leaf(node: RuleNode) -> bool:
    return node.is_leaf and node.kind not in NON_RULE_KINDS


def page_span(nodes: Sequence[RuleNode]) -> list[int]:
    """The printed pages a source's nodes cover (empty without page markers)."""
    return sorted({n.page for n in nodes if n.kind is NodeKind.PAGE and n.page is not None})


def _resolve_page(view: _SourceView, ref: Reference, page: int) -> Reference:
    pages = view.pages
    if not pages:
        return replace(ref, reason=f"{ref.source_id} has no page markers, so page {page} cannot be located")
    if page not in pages:
        return replace(
            ref, reason=f"page {page} is not in {ref.source_id}, which covers pages {pages[0]}–{pages[-1]}"
        )
    on_page = [n for n in view.nodes if n.page == page and n.kind not in (NodeKind.SOURCE, NodeKind.PAGE)]
    headings = [n for n in on_page if n.kind in HEADING_KINDS]
    best = _best(view, ref.context, headings)
    if best is not None:
        return replace(ref, targets=(best.id,), method="page-title")
    first = next((n for n in on_page if n.kind in HEADING_KINDS or _rule_leaf(n)), None)
    if first is None:  # pragma: no cover - a page marker is always followed by text
        return replace(ref, reason=f"page {page} of {ref.source_id} holds no rule text")
    return replace(ref, targets=(first.id,), method="page-first")


def _resolve_relative(view: _SourceView, ref: Reference, window: int = 60) -> Reference:
    here = view.position[ref.node_id]
    after = view.nodes[here + 1 : here + 1 + window]
    before = list(reversed(view.nodes[max(0, here - window) : here]))
    directions = {"below": [after], "above": [before], "near": [after, before]}[ref.direction]
    own = view.ancestors(ref.node_id)
    for nodes in directions:
        headings = [n for n in nodes if n.kind in HEADING_KINDS and n.kind is not NodeKind.SOURCE and n.id not in own]
        best = _best(view, ref.context, headings, first=True)
        if best is not None:
            return replace(ref, targets=(best.id,), method="title")
    nearest = next((n for n in directions[0] if _rule_leaf(n)), None)
    if nearest is None:
        return replace(ref, reason=f"nothing {ref.direction} it in {ref.source_id}")
    return replace(ref, targets=(nearest.id,), method="sequence")


def _resolve_named(view: _SourceView, ref: Reference) -> Reference:
    key = tuple(lemmas(ref.name))
    headings = [n for n in view.nodes if n.kind in HEADING_KINDS and n.kind is not NodeKind.SOURCE]
    here = view.position[ref.node_id]
    own = view.ancestors(ref.node_id)
    headings = [n for n in headings if n.id not in own]
    exact = [n for n in headings if tuple(lemmas(n.title_clean or n.title)) == key]
    if exact:
        nearest = min(exact, key=lambda n: abs(view.position[n.id] - here))
        return replace(ref, targets=(nearest.id,), method="title")
    wanted = _words(ref.name)
    covering = [n for n in headings if wanted and wanted == view.title_words[n.id]]
    if covering:
        nearest = min(covering, key=lambda n: abs(view.position[n.id] - here))
        return replace(ref, targets=(nearest.id,), method="title-words")
    return replace(ref, reason=f"no heading titled «{ref.name}» in {ref.source_id}")


def resolve_references(references: Iterable[Reference], nodes: Sequence[RuleNode]) -> list[Reference]:
    """Point each reference at nodes of its own source (see the module docstring)."""
    views: dict[str, _SourceView] = {}
    by_source: dict[str, list[RuleNode]] = {}
    for node in nodes:
        by_source.setdefault(node.source_id, []).append(node)
    index = {node.id: node for node in nodes}
    out: list[Reference] = []
    for ref in references:
        view = views.get(ref.source_id)
        if view is None:
            view = views[ref.source_id] = _SourceView(ref.source_id, by_source.get(ref.source_id, []))
        if ref.node_id not in view.position:
            out.append(replace(ref, reason=f"the citing node {ref.node_id!r} is not in {ref.source_id}"))
        elif ref.kind == "figure":
            out.append(replace(ref, reason="refers to an illustration, which the text does not include"))
        elif ref.kind == "page-range":
            out.append(_resolve_range(view, ref))
        elif ref.kind == "page" and ref.page is not None:
            out.append(_resolve_page(view, ref, ref.page))
        elif ref.kind == "facing-page":
            page = index[ref.node_id].page
            if page is None:
                out.append(replace(ref, reason=f"{ref.source_id} has no page markers, so the facing page is unknown"))
            else:
                facing = page + 1 if page % 2 == 0 else page - 1
                out.append(_resolve_page(view, replace(ref, page=facing), facing))
        elif ref.kind == "relative":
            out.append(_resolve_relative(view, ref))
        elif ref.kind == "named":
            out.append(_resolve_named(view, ref))
        else:  # pragma: no cover - every pattern kind is handled above
            out.append(replace(ref, reason=f"unknown reference kind {ref.kind!r}"))
    return out


def _resolve_range(view: _SourceView, ref: Reference) -> Reference:
    assert ref.page is not None and ref.page_end is not None
    pages = view.pages
    if not pages:
        return replace(
            ref, reason=f"{ref.source_id} has no page markers, so pages {ref.page}–{ref.page_end} cannot be located"
        )
    inside = [p for p in range(ref.page, ref.page_end + 1) if p in pages]
    if not inside:
        return replace(ref, reason=f"pages {ref.page}–{ref.page_end} are not in {ref.source_id}")
    targets = tuple(
        n.id for n in view.nodes if n.page in inside and n.parent_id is not None and n.kind in HEADING_KINDS
    )
    return replace(ref, targets=targets, method="page-range")
