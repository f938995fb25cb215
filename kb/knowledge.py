"""The built knowledge base: one reader of ``build/``, opened once per process and build.

:func:`open_knowledge_base` returns the :class:`KnowledgeBase` of a build directory, loaded lazily
the first time it is needed (so gunicorn workers fork before anything is opened) and cached by the
build's stamp (:func:`build_stamp`: the directory the ``build`` link resolves to and the modification
time of its ``manifest.json``), so a new ``rulekb build`` switched into place is picked up by the
next call and the one before it is dropped. Every per-build cache (the web's, the search index's,
the graph's) keys on the same stamp. Artefacts written by later build stages (``terms.json``,
``graph.json``, ``examples.json``, ``concepts.json``, ``termbase.json``, ``kwic.json``, the
exports) are read when present; an older build without them still opens.

The tree is computed here, once per build; breadcrumbs and previous/next come from the build's
:class:`rulekb.kb.graph.outline.Outline`, the one the graph reads too; nothing is written.
"""

from __future__ import annotations

import json
import os
import threading
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from rulekb.corpus.editions import chronological_rank
from rulekb.corpus.errors import IndexMissingError, QueryError, RulebaseError
from rulekb.corpus.models import RuleNode
from rulekb.kb.faq.loader import load_built_faq
from rulekb.kb.faq.model import FaqEntry
from rulekb.kb.graph.outline import Outline
from rulekb.kb.graph.queries import KnowledgeGraph, load_graph
from rulekb.kb.store import build_stamp, load_nodes, read_manifest, require_build, verify_build
from rulekb.kb.termbase.built import EXPORTS, Concept, termbase_from_json
from rulekb.kb.termbase.model import Termbase
from rulekb.kb.termbase.report import ConceptFinder
from rulekb.kb.text.analysis import fold
from rulekb.kb.text.concepts import ConceptMatcher, concept_entries
from rulekb.kb.text.fuzzy import closest_values
from rulekb.kb.text.vocabulary import VOCABULARY_JSON, Vocabulary, vocabulary_from_data

__all__ = [
    "KnowledgeBase",
    "build_stamp",
    "open_knowledge_base",
    "suggest",
]

_LOCK = threading.Lock()
_CACHE: dict[Path, tuple[int, KnowledgeBase]] = {}


def _read_json(path: Path) -> Any:
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@dataclass
class KnowledgeBase:
    """The artefacts of one build directory, read once and indexed for every consumer."""

    path: Path
    manifest: dict[str, Any]
    nodes: dict[str, RuleNode]
    issues: list[dict[str, Any]]
    terms_raw: list[dict[str, Any]] | None = None
    examples_raw: list[dict[str, Any]] | None = None
    concepts_raw: list[dict[str, Any]] | None = None
    #: ``manifest.json``'s modification time when loaded: with ``path``, a key for per-build caches
    stamp: int = 0

    # ---- loading -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path) -> KnowledgeBase:
        manifest = read_manifest(path)
        nodes = {node.id: node for node in load_nodes(path)}
        issues = _read_json(path / "issues.json") or []
        terms = _read_json(path / "terms.json")
        examples = _read_json(path / "examples.json")
        concepts = _read_json(path / "concepts.json")
        return cls(
            path=path,
            manifest=manifest,
            nodes=nodes,
            issues=list(issues),
            terms_raw=terms if isinstance(terms, list) else None,
            examples_raw=examples if isinstance(examples, list) else None,
            concepts_raw=concepts if isinstance(concepts, list) else None,
        )

    # ---- sources ---------------------------------------------------------------------------
    @cached_property
    def sources(self) -> dict[str, dict[str, Any]]:
        return {s["id"]: s for s in self.manifest.get("sources", [])}

    def source(self, source_id: str) -> dict[str, Any]:
        return self.sources.get(source_id, {"id": source_id, "title": source_id, "edition": "", "sha256": ""})

    @cached_property
    def editions(self) -> list[str]:
        """The editions present, in chronological order (``era`` in ``sources.toml``: 6, 7, kt, 10)."""
        found = {s.get("edition", "") for s in self.sources.values()}
        return sorted(found, key=chronological_rank)

    # ---- tree --------------------------------------------------------------------------------
    @cached_property
    def children(self) -> dict[str, list[RuleNode]]:
        kids: dict[str, list[RuleNode]] = defaultdict(list)
        for node in self.nodes.values():
            if node.parent_id is not None:
                kids[node.parent_id].append(node)
        for items in kids.values():
            items.sort(key=lambda n: (n.order, n.lines[0]))
        return dict(kids)

    @cached_property
    def outline(self) -> Outline:
        """Ancestors and reading order of this build's nodes (:mod:`rulekb.kb.graph.outline`)."""
        return Outline.of_nodes(self.nodes.values())

    def depth(self, node_id: str) -> int:
        return self.outline.depth(node_id)

    def trail(self, node: RuleNode) -> list[RuleNode]:
        """The ancestors of ``node``, root first."""
        return [self.nodes[i] for i in self.outline.trail(node.id)]

    def breadcrumb(self, node: RuleNode) -> str:
        return " › ".join(self.outline.breadcrumb(node.id)[1:])

    def neighbours(self, node: RuleNode) -> tuple[RuleNode | None, RuleNode | None]:
        """The previous and next node of the same source in reading order."""
        prev, nxt = self.outline.adjacent(node.id)
        return (self.nodes[prev] if prev else None), (self.nodes[nxt] if nxt else None)

    def leaf_at(self, source_id: str, line: int) -> RuleNode | None:
        """The leaf of ``source_id`` whose line span contains ``line``."""
        for node in self.nodes.values():
            if node.source_id == source_id and node.is_leaf and node.lines[0] <= line <= node.lines[1]:
                return node
        return None

    # ---- concepts ----------------------------------------------------------------------------
    @cached_property
    def concepts(self) -> dict[str, Concept]:
        raw = self.terms_raw or []
        found: dict[str, Concept] = {}
        for item in raw:
            if isinstance(item, dict):
                concept = Concept.from_json(item)
                if concept.id:
                    found[concept.id] = concept
        return dict(sorted(found.items()))

    @cached_property
    def graph(self) -> Any:
        """The :class:`rulekb.kb.graph.queries.KnowledgeGraph` of this build, or None when it has no graph.json."""
        if not (self.path / "graph.json").is_file():
            return None
        try:
            return self.knowledge_graph()
        except RulebaseError:
            return None

    def knowledge_graph(self) -> KnowledgeGraph:
        """The graph of this build; IndexMissingError with the fix when it has none."""
        return load_graph(self.path)

    @cached_property
    def faq(self) -> tuple[FaqEntry, ...]:
        """The FAQ as this build checked it (``faq.json``; empty for a build made before the FAQ stage)."""
        return tuple(load_built_faq(self.path))

    def _neighbours(self, node: RuleNode) -> dict[str, Any]:
        if self.graph is None:
            return {}
        try:
            found: dict[str, Any] = self.graph.neighbours(node.id)
        except RulebaseError:
            return {}
        return found

    @cached_property
    def concept_nodes(self) -> dict[str, list[dict[str, Any]]]:
        """concept id -> [{node_id, source_id, edition, lines, role}] (``concepts.json``; defines first)."""
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for item in self.concepts_raw or ():
            cid = str(item.get("concept", ""))
            for ref in item.get("nodes") or ():
                if ref.get("node_id") in self.nodes:
                    out[cid].append(dict(ref))
        for refs in out.values():
            refs.sort(key=lambda r: (r.get("role") != "defines", r["source_id"], r["lines"][0]))
        return dict(out)

    def node_concepts(self, node: RuleNode) -> list[str]:
        """Concepts a node defines or mentions (graph, else the node's own list)."""
        near = self._neighbours(node)
        if near:
            return sorted(set(near.get("defines", [])) | set(near.get("mentions", [])))
        return list(node.concepts)

    def same_concept(self, node: RuleNode) -> list[tuple[str, RuleNode]]:
        """Rules of other editions about the same concept (``same_concept`` edges of the graph)."""
        found: list[tuple[str, RuleNode]] = []
        for item in self._neighbours(node).get("same_concept", []):
            other = self.nodes.get(str(item.get("node_id")))
            if other is not None and all(other.id != seen.id for _, seen in found):
                found.append((str(item.get("concept", "")), other))
        return found

    def references(self, node: RuleNode) -> tuple[list[tuple[str, RuleNode]], list[RuleNode]]:
        """Cross-references out of ``node`` as (printed text, target) and the rules referring to it."""
        near = self._neighbours(node)
        out = [
            (str(r.get("text", "")), self.nodes[r["target"]])
            for r in near.get("references_out", [])
            if r.get("target") in self.nodes
        ]
        into: list[RuleNode] = []
        for r in near.get("references_in", []):
            source = self.nodes.get(str(r.get("source")))
            if source is not None and source not in into:
                into.append(source)
        return out, into

    # ---- the termbase as built (termbase.json, kwic.json, inconsistencies.json, exports) ------
    @cached_property
    def termbase(self) -> Termbase | None:
        """The termbase this build was made with (``termbase.json``), or None for an older build."""
        data = _read_json(self.path / "termbase.json")
        return termbase_from_json(data) if isinstance(data, dict) else None

    @cached_property
    def concept_finder(self) -> ConceptFinder | None:
        """The draft checker's concept finder over :attr:`termbase` (None for an older build)."""
        return ConceptFinder(self.termbase) if self.termbase is not None else None

    @cached_property
    def concept_matcher(self) -> ConceptMatcher | None:
        """The search's concept matcher over :attr:`termbase`, so it always agrees with the index
        of the same build (None for an older build)."""
        if self.termbase is None:
            return None
        editions = {sid: str(s.get("edition", "")) for sid, s in self.sources.items()}
        return ConceptMatcher(concept_entries(self.termbase), editions)

    @cached_property
    def synonyms(self) -> Vocabulary | None:
        """The search vocabulary this build was made with (``vocabulary.json``; None for an older build)."""
        data = _read_json(self.path / VOCABULARY_JSON)
        return vocabulary_from_data(data, VOCABULARY_JSON) if isinstance(data, dict) else None

    @cached_property
    def _kwic(self) -> dict[str, list[dict[str, Any]]]:
        data = _read_json(self.path / "kwic.json")
        return data if isinstance(data, dict) else {}

    def kwic(self, concept_id: str) -> list[dict[str, Any]]:
        """Every occurrence of a concept's renderings in context, as the build wrote them."""
        return [dict(row) for row in self._kwic.get(concept_id, ())]

    @cached_property
    def inconsistencies(self) -> dict[str, list[dict[str, Any]]]:
        """The termbase's inconsistency report (``inconsistencies.json``)."""
        data = _read_json(self.path / "inconsistencies.json")
        if not isinstance(data, dict):
            return {"variants": [], "within_source": [], "across_sources": []}
        return data

    def export(self, kind: str) -> str | None:
        """The ``tbx``, ``tsv`` or ``csv`` export of the termbase, or None when the build has none."""
        path = self.path / EXPORTS[kind]
        if not path.is_file():
            return None
        with path.open(encoding="utf-8", newline="") as handle:
            return handle.read()

    def sources_of_edition(self, edition: str) -> list[str]:
        """The ids of this build's books of ``edition`` (QueryError naming the editions when none)."""
        ids = [s["id"] for s in self.sources.values() if s.get("edition") == edition]
        if not ids:
            known = ", ".join(sorted({str(s.get("edition", "")) for s in self.sources.values()}))
            raise QueryError(f"No source of edition {edition!r}; use one of {known}.")
        return ids

    # ---- examples ------------------------------------------------------------------------------
    @cached_property
    def examples(self) -> list[dict[str, Any]]:
        """Worked examples (``examples.json``: the engine's results and their resolved rule ids)."""
        return [e for e in self.examples_raw or () if isinstance(e, dict)]

    def examples_for(self, node: RuleNode) -> list[dict[str, Any]]:
        """Worked examples that demonstrate ``node`` (the build resolved their ``rule_ids``)."""
        return [e for e in self.examples if node.id in (e.get("rule_ids") or ())]

    # ---- lookup --------------------------------------------------------------------------------
    def suggest(self, wanted: str, n: int = 5) -> list[RuleNode]:
        """Nodes whose id or title is close to ``wanted`` (for 404 pages)."""
        return suggest(wanted, self.nodes.values(), n=n)


def suggest(wanted: str, nodes: Iterable[RuleNode], n: int = 5) -> list[RuleNode]:
    """The nodes whose id or title look most like ``wanted`` (:mod:`rulekb.kb.text.fuzzy`)."""
    by_key: dict[str, list[RuleNode]] = {}
    for node in nodes:
        by_key.setdefault(node.id, [node])
        if node.title_clean:
            by_key.setdefault(fold(node.title_clean), [node])
    wanted = fold(wanted.strip("/"))[:200]
    return closest_values(wanted, by_key, n=n, cutoff=0.45, pool=n * 2)


def open_knowledge_base(path: Path) -> KnowledgeBase:
    """The build at ``path``, loaded once per process and reloaded when the manifest changes.

    ``path`` is usually the ``build`` link: it is resolved on every call, so a new build switched in
    by ``rulekb build`` is picked up by the next request, and the one before it is dropped.
    """
    link = Path(os.path.abspath(path))
    path, stamp = build_stamp(link)
    if not stamp:
        require_build(path)  # the message with the fix when nothing is built there
        raise IndexMissingError(f"No knowledge base built at {str(path)!r}: run `rulekb build` first.")
    cached = _CACHE.get(link)
    if cached is not None and cached[0] == stamp and cached[1].path == path:
        return cached[1]
    with _LOCK:
        cached = _CACHE.get(link)
        if cached is not None and cached[0] == stamp and cached[1].path == path:
            return cached[1]
        build = _load_checked(path)
        build.stamp = stamp
        _CACHE[link] = (stamp, build)
        return build


def _load_checked(path: Path) -> KnowledgeBase:
    """Load a build after checking every file against its manifest; any damage is an IndexMissingError (503)."""
    verify_build(path, hashes=True, skip=("index/",))  # the search index is checked when it fails
    try:
        return KnowledgeBase.load(path)
    except RulebaseError:
        raise
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        raise IndexMissingError(
            f"The knowledge base at {str(path)!r} is damaged ({type(exc).__name__}: {str(exc)[:200]}): "
            "run `rulekb build`."
        ) from exc
