"""Cross-references in the rule text: «см. стр. 27», «(см. ниже)», «(см. с. 38 и 63)»…

Finding and resolving are two passes, as in a link checker: :func:`find_references` scans every
rule leaf with a named, ordered table of patterns (:data:`PATTERNS`; the first pattern to claim
a stretch of text wins), then :func:`rulekb.kb.graph.resolve.resolve_references` points each reference at rule nodes of
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

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rulekb.corpus.models import NON_RULE_KINDS, RuleNode

__all__ = ["PATTERNS", "Reference", "find_references"]

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
