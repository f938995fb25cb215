"""Cross-references in the rule text: «см. стр. 27», «(см. ниже)», «(см. с. 38 и 63)»…

Finding and resolving are two passes, as in a link checker: :func:`find_references` scans every
rule leaf with a named, ordered table of patterns (:data:`PATTERNS`; the first pattern to claim
a stretch of text wins), then :func:`resolve_references` points each reference at rule nodes of
the same book, once every node of every source is known.

How each kind resolves:

* ``page`` — «см. стр. 90», «(с. 166)», «на странице 29», «see page 27»: to the nodes printed on
  that page. Only sources with page markers know their pages (``7e-pp58-67``: pp. 58–67); any
  other page stays unresolved with its number and the reason.
* ``facing-page`` — «см. страницу напротив»: the other page of the spread (58 ↔ 59).
* ``relative`` — «(см. ниже)», «описано выше», «(см. справа)»: the nearest heading in that
  direction whose title shares words with the words just before the reference; failing that,
  the next (or previous) rule leaf.
* ``named`` — «(см. «Совершение атак»)», «как описано в разделе «…»»: the heading with that
  title (by lemmas, then by shared words).
* ``figure`` — «(см. рис. ниже)», «смотрите иллюстрацию на странице 28»: illustrations are not in
  the texts, so these are recorded and reported, never resolved.

On a page, or among the headings in a direction, the node whose title shares the rarest words
with the sentence before the reference wins; ties go to the nearest (or first on the page).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulekb.corpus.models import HEADING_KINDS, NON_RULE_KINDS, NodeKind, RuleNode
from rulekb.kb.text.analysis import lemmas

__all__ = [
    "PATTERNS",
    "Reference",
    "find_references",
    "page_span",
    "resolve_references",
]

_NUMS = r"\d{1,3}(?:\s*(?:,|\bи\b|–|—|-)\s*\d{1,3})*"
_PAGE_WORD = r"(?:стр\.?|страниц[аеуы]|с\.|page|pages|p\.|pp\.)"
_DIRECTION_WORDS = r"ниже|выше|далее|справа|слева|below|above"
_DIRECTION = rf"(?P<dir>{_DIRECTION_WORDS})"

#: The reference patterns, in priority order: (kind, compiled regex).
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "figure",
        re.compile(
            r"(?:см\.|см\b|смотрите|смотри)\s*(?:рис(?:\.|ун\w*)|иллюстраци\w*)"
            rf"(?:\s*на\s*{_PAGE_WORD}\s*(?P<pages>{_NUMS}))?(?:\s*{_DIRECTION})?",
            re.IGNORECASE,
        ),
    ),
    (
        "page-range",
        re.compile(r"между\s+страницами\s+(?P<a>\d{1,3})\s+и\s+(?P<b>\d{1,3})", re.IGNORECASE),
    ),
    (
        "page",
        re.compile(
            rf"(?:(?:см\.|см\b|смотрите|see)\s*|\(\s*|\bна\s+|\bon\s+){_PAGE_WORD}\s*(?P<pages>{_NUMS})(?!\s*(?:%|\"|дюйм))",
            re.IGNORECASE,
        ),
    ),
    ("facing-page", re.compile(r"(?:см\.|см\b|смотрите)\s*страниц\w*\s+напротив|see\s+opposite(?:\s+page)?", re.I)),
    (
        "named",
        re.compile(
            r"(?:описан\w*|приведен\w*|as\s+described)\s+(?:в\s+(?:разделе|способности|главе|правиле)|на\s+странице|in)"
            r"\s*«\s*(?P<name>[^»]{2,80}?)\s*»",
            re.IGNORECASE,
        ),
    ),
    (
        "relative",
        re.compile(
            rf"(?:\(\s*)?(?:см\.|см\b|смотрите|see)\s*{_DIRECTION}\b\s*\)?|(?:как\s+)?описан\w*\s+(?P<dir2>{_DIRECTION_WORDS})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "named",
        re.compile(
            r"\(\s*(?:см\.|см\b|смотрите|see)\s*(?:способность\s+|раздел\s+|правило\s+)?«?\s*"
            r"(?P<name>[^()«»]{2,80}?)\s*»?\s*\)",
            re.IGNORECASE,
        ),
    ),
]

_DIRECTIONS = {
    "ниже": "below",
    "далее": "below",
    "справа": "near",
    "слева": "near",
    "выше": "above",
    "below": "below",
    "above": "above",
}


@dataclass(frozen=True)
class Reference:
    """One cross-reference printed in a rule leaf, and where it leads (if anywhere)."""

    source_id: str
    node_id: str
    """The citing leaf."""
    line: int
    """Raw line (1-based) where the reference starts."""
    text: str
    """The reference as printed, whitespace collapsed."""
    kind: str
    """``page``, ``page-range``, ``facing-page``, ``relative``, ``named`` or ``figure``."""
    page: int | None = None
    """The page referred to (the first page of a range)."""
    page_end: int | None = None
    """The last page of a range («между страницами 10 и 31»)."""
    name: str = ""
    """The title referred to (``named``)."""
    direction: str = ""
    """``below``, ``above`` or ``near`` (``relative``)."""
    context: str = ""
    """The words just before the reference, used to pick the target."""
    targets: tuple[str, ...] = ()
    """Ids of the nodes it resolves to; empty when unresolved."""
    method: str = ""
    """How it was resolved: ``page-title``, ``page-first``, ``title``, ``sequence``."""
    reason: str = ""
    """Why it is unresolved."""

    @property
    def resolved(self) -> bool:
        return bool(self.targets)

    def to_json(self) -> dict[str, Any]:
        return {
            "source_id": self.source_id,
            "node_id": self.node_id,
            "line": self.line,
            "text": self.text,
            "kind": self.kind,
            "page": self.page,
            "page_end": self.page_end,
            "name": self.name,
            "direction": self.direction,
            "targets": list(self.targets),
            "method": self.method,
            "reason": self.reason,
        }


def _pages(raw: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d{1,3}", raw)]


def _context(text: str, start: int, words: int = 10) -> str:
    """The words of the sentence before ``start`` (at most ``words`` of them)."""
    before = text[:start]
    cut = max(before.rfind(". "), before.rfind(".\n"), before.rfind("!"), before.rfind("?"), before.rfind("•"))
    sentence = " ".join(before[cut + 1 :].split())
    return " ".join(sentence.split(" ")[-words:]).strip(" ,(«")


def find_references(nodes: Iterable[RuleNode]) -> list[Reference]:
    """Every reference printed in the rule leaves of ``nodes``, in document order."""
    found: list[Reference] = []
    for node in nodes:
        if not node.is_leaf or node.kind in NON_RULE_KINDS or not node.text:
            continue
        claimed: list[tuple[int, int]] = []
        hits: list[Reference] = []
        for kind, pattern in PATTERNS:
            for match in pattern.finditer(node.text):
                start, end = match.span()
                if any(start < b and a < end for a, b in claimed):
                    continue
                claimed.append((start, end))
                hits.extend(_make(node, kind, match))
        found.extend(sorted(hits, key=lambda r: (r.line, r.text, r.page or 0)))
    return found


def _make(node: RuleNode, kind: str, match: re.Match[str]) -> list[Reference]:
    groups = match.groupdict()
    base = Reference(
        source_id=node.source_id,
        node_id=node.id,
        line=node.lines[0] + node.text.count("\n", 0, match.start()),
        text=" ".join(match.group(0).split()).strip("() "),
        kind=kind,
        context=_context(node.text, match.start()),
    )
    if kind == "figure":
        pages = _pages(groups.get("pages") or "")
        return [replace(base, page=pages[0] if pages else None, direction=_DIRECTIONS.get(_low(groups, "dir"), ""))]
    if kind == "page-range":
        return [replace(base, page=int(groups["a"]), page_end=int(groups["b"]))]
    if kind == "page":
        return [replace(base, page=page) for page in _pages(groups["pages"])]
    if kind == "relative":
        return [replace(base, direction=_DIRECTIONS[_low(groups, "dir") or _low(groups, "dir2")])]
    if kind == "named":
        name = " ".join(groups["name"].split()).strip(" «»")
        if name.lower() in _DIRECTIONS or not re.search(r"[^\W\d_]", name):
            return []
        return [replace(base, name=name)]
    return [base]


def _low(groups: dict[str, str | Any], key: str) -> str:
    value = groups.get(key) or ""
    return str(value).lower()


# --- resolution --------------------------------------------------------------------------------


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
