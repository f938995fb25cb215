"""Per-leaf search features, computed at build time (:class:`NodeFeatures`, :func:`node_features`).

What search shows and ranks by without touching the texts again: breadcrumb, citation, sentences
with their lemmas, the concepts a leaf mentions and defines (from the linker's ``graph.json``,
:func:`read_graph_links`, and the concept matcher).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulekb.corpus.models import HEADING_KINDS, NON_RULE_KINDS, RuleNode
from rulekb.kb.search.query import ConceptMatcher, default_matcher
from rulekb.kb.text.analysis import fold, tokens

__all__ = [
    "GraphLinks",
    "NodeFeatures",
    "concepts_in",
    "node_features",
    "own_title",
    "read_graph_links",
    "searchable",
    "split_sentences",
]

_SENTENCE_END = re.compile(r"(?<=[.!?…:;])\s+(?=[«\"(\[A-ZА-ЯЁ0-9•–-])|\n+")


def split_sentences(text: str) -> list[str]:
    """Sentences (and list items) of a leaf's clean text, stripped, non-empty."""
    parts = _SENTENCE_END.split(text)
    return [part.strip() for part in parts if part and part.strip()]


@dataclass(frozen=True)
class NodeFeatures:
    """What search shows and ranks by, for one indexed leaf (precomputed at build time)."""

    id: str
    source_id: str
    source_sha256: str
    edition: str
    kind: str
    title: str
    heading: str
    breadcrumb: tuple[str, ...]
    lines: tuple[int, int]
    page: int | None
    text: str
    sentences: tuple[str, ...]
    sentence_lemmas: tuple[tuple[str, ...], ...]
    concepts: tuple[str, ...]
    defines: tuple[str, ...]
    heading_lemmas: tuple[str, ...]
    """Lemmas of the heading and the headings above it (the breadcrumb)."""
    first: bool
    """The first leaf under its heading (where a rule is usually stated)."""

    @property
    def is_leaf(self) -> bool:
        """Every indexed node is a leaf (for the citation helpers of :mod:`rulekb.corpus.citations`)."""
        return True

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["breadcrumb"] = list(self.breadcrumb)
        data["lines"] = list(self.lines)
        data["sentences"] = list(self.sentences)
        data["sentence_lemmas"] = [list(s) for s in self.sentence_lemmas]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NodeFeatures:
        return cls(
            id=data["id"],
            source_id=data["source_id"],
            source_sha256=data["source_sha256"],
            edition=data["edition"],
            kind=data["kind"],
            title=data["title"],
            heading=data["heading"],
            breadcrumb=tuple(data["breadcrumb"]),
            lines=(data["lines"][0], data["lines"][1]),
            page=data["page"],
            text=data["text"],
            sentences=tuple(data["sentences"]),
            sentence_lemmas=tuple(tuple(s) for s in data["sentence_lemmas"]),
            concepts=tuple(data["concepts"]),
            defines=tuple(data["defines"]),
            heading_lemmas=tuple(data["heading_lemmas"]),
            first=data["first"],
        )


def searchable(node: RuleNode) -> bool:
    """A leaf search indexes: a rule, summary, list, example or table with text (no heading, credits, page)."""
    return node.kind not in HEADING_KINDS and node.kind not in NON_RULE_KINDS and bool(node.text_clean.strip())


def concepts_in(matcher: ConceptMatcher, text: str) -> list[str]:
    """The concepts ``matcher`` finds in ``text``, each once, in text order."""
    return list(_concepts_in(matcher, text))


@lru_cache(maxsize=4096)
def _concepts_in(matcher: ConceptMatcher, text: str) -> tuple[str, ...]:
    # cached: the answer card asks for the concepts of the same rulings question after question
    found = matcher.match_terms(list(tokens(text)), query=False, raw=text)
    return tuple(dict.fromkeys(m.concept for m in found))


@dataclass
class GraphLinks:
    """What the linker (``build/graph.json``) says about rule leaves and concepts."""

    defines: dict[str, list[str]]
    """node id → concepts it defines."""
    mentions: dict[str, list[str]]
    """node id → concepts it mentions."""

    @classmethod
    def empty(cls) -> GraphLinks:
        return cls({}, {})


def read_graph_links(path: Path) -> GraphLinks:
    """``defines``/``mentions`` edges of a ``graph.json``; empty when there is none."""
    if not path.is_file():
        return GraphLinks.empty()
    data = json.loads(path.read_text(encoding="utf-8"))
    concept_of = {n["id"]: n.get("concept") for n in data.get("nodes", []) if n.get("type") == "concept"}
    links = GraphLinks.empty()
    for edge in data.get("links", []):
        kind = edge.get("kind")
        concept = concept_of.get(edge.get("target"))
        if concept is None or kind not in ("defines", "mentions"):
            continue
        target = links.defines if kind == "defines" else links.mentions
        target.setdefault(edge["source"], []).append(concept)
    return links


def own_title(node: RuleNode) -> str:
    """The printed name of a leaf that has one («КОНТРОЛЬ ЗА ПОЖАРОМ»), or ``""``.

    Most leaves are titled by their first words; a leaf whose title is not the start of its
    text was given its own name by the parser (a boxed stratagem)."""
    title = " ".join(fold(node.title_clean or node.title).rstrip("…").split())
    text = " ".join(fold(node.text_clean).split())
    if not title or text.startswith(title):
        return ""
    return (node.title_clean or node.title).strip()


def node_features(
    nodes: Sequence[RuleNode],
    sha256: dict[str, str],
    matcher: ConceptMatcher | None = None,
    graph: GraphLinks | None = None,
) -> list[NodeFeatures]:
    """Features of every searchable leaf of ``nodes`` (all sources), in corpus order.

    A leaf *defines* a concept when the linker says so (``graph``) or when its heading, or the
    heading above, names the concept; it *mentions* the concepts the linker or our matcher
    finds in its text.
    """
    matcher = matcher if matcher is not None else default_matcher()
    graph = graph if graph is not None else GraphLinks.empty()
    by_id = {node.id: node for node in nodes}
    heading_concepts: dict[str, list[str]] = {}
    seen_first: set[str] = set()
    result: list[NodeFeatures] = []
    for node in nodes:
        if not searchable(node):
            continue
        ancestors: list[RuleNode] = []
        parent = node.parent_id
        while parent is not None and parent in by_id:
            ancestor = by_id[parent]
            if ancestor.kind.value != "source":
                ancestors.append(ancestor)
            parent = ancestor.parent_id
        heading = ancestors[0] if ancestors else None
        trail = tuple(a.title_clean or a.title for a in reversed(ancestors))
        defines: list[str] = []
        named = own_title(node)
        if named:
            # a leaf printed under its own name (a 10th-edition stratagem box): the name is its
            # heading, and what the name says it defines
            trail = (*trail, named)
            defines += concepts_in(matcher, named)
        for ancestor in ancestors[: 1 if named else 2]:
            if ancestor.id not in heading_concepts:
                heading_concepts[ancestor.id] = concepts_in(matcher, ancestor.title_clean or ancestor.title)
            defines += heading_concepts[ancestor.id]
        defines = list(dict.fromkeys([*graph.defines.get(node.id, ()), *defines]))
        mentions = list(
            dict.fromkeys([*node.concepts, *graph.mentions.get(node.id, ()), *concepts_in(matcher, node.text_clean)])
        )
        sentences = split_sentences(node.text_clean)
        heading_key = heading.id if heading is not None else node.source_id
        first = heading_key not in seen_first
        seen_first.add(heading_key)
        result.append(
            NodeFeatures(
                id=node.id,
                source_id=node.source_id,
                source_sha256=sha256[node.source_id],
                edition=node.edition,
                kind=node.kind.value,
                title=node.title_clean or node.title,
                heading=trail[-1] if trail else "",
                breadcrumb=trail,
                lines=node.lines,
                page=node.page,
                text=node.text_clean,
                sentences=tuple(sentences),
                sentence_lemmas=tuple(tuple(t.text for t in tokens(s)) for s in sentences),
                concepts=tuple(mentions),
                defines=tuple(defines),
                heading_lemmas=tuple(dict.fromkeys(t.text for title in trail for t in tokens(title))),
                first=first,
            )
        )
    return result
