"""The knowledge graph and its queries (built by :mod:`rulekb.kb.graph.build`).

A ``networkx.MultiDiGraph`` whose nodes are sources, rule nodes, concepts, renderings and
worked examples, and whose edges have a ``kind``:

==============  ==========================  ===============================================
kind            from → to                   meaning
==============  ==========================  ===============================================
contains        heading → node              the source's tree
next            rule leaf → rule leaf       reading order within a source
mentions        rule leaf → concept         a rendering of the concept occurs in the text
defines         rule leaf → concept         the passage that states the rule
renders         rendering → concept         how one source writes the concept
refers_to       rule leaf → node            «см. стр. 27», «(см. ниже)» resolved
same_concept    rule leaf ↔ rule leaf       one mechanic, two editions (both directions)
demonstrates    example → rule node         a worked example of the rule
==============  ==========================  ===============================================

``build/graph.json`` holds it in node-link form (sorted, schema-versioned) plus every printed
reference, resolved or not. The web app and the commands read that file only, through
:func:`load_graph`, which returns a :class:`KnowledgeGraph` with the queries.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from rulekb.corpus.editions import chronological_rank
from rulekb.corpus.errors import IndexMissingError, QueryError
from rulekb.corpus.models import EDITIONS
from rulekb.kb.graph.outline import Outline, OutlineEntry
from rulekb.kb.store import build_stamp, require_build
from rulekb.kb.termbase.lookup import default_finder
from rulekb.kb.text.fuzzy import close_matches, closest_values

if TYPE_CHECKING:
    pass

__all__ = [
    "EDGE_KINDS",
    "GRAPH_SCHEMA",
    "KnowledgeGraph",
    "concept_node",
    "example_node",
    "load_graph",
    "rendering_node",
]

GRAPH_SCHEMA = 1
EDGE_KINDS = ("contains", "next", "mentions", "defines", "renders", "refers_to", "same_concept", "demonstrates")


def concept_node(concept_id: str) -> str:
    return f"concept:{concept_id}"


def rendering_node(source_id: str, concept_id: str, text: str) -> str:
    return f"rendering:{source_id}:{concept_id}:{text}"


def example_node(example_id: str) -> str:
    return f"example:{example_id}"


# --- querying ------------------------------------------------------------------------------------


class KnowledgeGraph:
    """The built graph with the queries the commands and the web app use."""

    def __init__(self, data: dict[str, Any], path: Path | None = None):
        if data.get("schema_version") != GRAPH_SCHEMA:
            raise IndexMissingError(
                f"graph.json at {str(path)!r} has schema {data.get('schema_version')!r}, this rulekb reads "
                f"{GRAPH_SCHEMA}: run `rulekb build` again."
            )
        self.path = path
        self.data = data
        self.graph: nx.MultiDiGraph = nx.MultiDiGraph()
        for node in data["nodes"]:
            self.graph.add_node(node["id"], **{k: v for k, v in node.items() if k != "id"})
        for edge in data["links"]:
            attrs = {k: v for k, v in edge.items() if k not in ("source", "target", "key")}
            self.graph.add_edge(edge["source"], edge["target"], key=edge["key"], **attrs)
        self.references: list[dict[str, Any]] = data.get("references", [])
        self.sources: dict[str, dict[str, Any]] = {
            n: attrs for n, attrs in self.graph.nodes(data=True) if attrs.get("type") == "source"
        }
        self._order = {
            n: (list(self.sources).index(a["source_id"]) if a.get("source_id") in self.sources else 99, a["lines"][0])
            for n, a in self.graph.nodes(data=True)
            if a.get("type") in ("rule", "source")
        }

    # nodes
    def node(self, node_id: str) -> dict[str, Any]:
        """A node's attributes with its id; unknown ids raise :class:`QueryError` with suggestions."""
        if node_id not in self.graph:
            rules = [n for n, a in self.graph.nodes(data=True) if a.get("type") in ("rule", "source")]
            close = close_matches(node_id, rules, n=5, cutoff=0.5)
            hint = f" Did you mean: {', '.join(close)}?" if close else " List ids with `rulekb nodes`."
            raise QueryError(f"Unknown node id {node_id!r}.{hint}")
        return {"id": node_id, **self.graph.nodes[node_id]}

    def _edges_out(self, node_id: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        return [(v, a) for _, v, a in self.graph.out_edges(node_id, data=True) if a["kind"] == kind]

    def _edges_in(self, node_id: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        return [(u, a) for u, _, a in self.graph.in_edges(node_id, data=True) if a["kind"] == kind]

    def _sorted(self, ids: Iterable[str]) -> list[str]:
        return sorted(set(ids), key=lambda n: (self._order.get(n, (99, 0)), n))

    def citation(self, node_id: str) -> dict[str, Any]:
        """Book, page and lines of a rule node, for printing."""
        attrs = self.graph.nodes[node_id]
        source = self.sources.get(attrs["source_id"], {})
        return {
            "node_id": node_id,
            "source_id": attrs["source_id"],
            "source_title": source.get("title", attrs["source_id"]),
            "source_sha256": source.get("sha256", ""),
            "edition": attrs["edition"],
            "page": attrs.get("page"),
            "lines": list(attrs["lines"]),
            "title": attrs.get("title", ""),
        }

    @cached_property
    def outline(self) -> Outline:
        """Ancestors and reading order of the rule and source nodes (:mod:`rulekb.kb.graph.outline`)."""
        return Outline(
            OutlineEntry(n, a.get("parent_id"), a["source_id"], a["lines"][0], a.get("title", n), a.get("type") == "source")
            for n, a in self.graph.nodes(data=True)
            if a.get("type") in ("rule", "source")
        )

    def breadcrumb(self, node_id: str) -> list[str]:
        """The titles of the node's ancestors, the source first."""
        return self.outline.breadcrumb(node_id)

    def neighbours(self, node_id: str) -> dict[str, Any]:
        """Parent, children, previous and next leaf, references out and in, the same concept in
        other editions, concepts mentioned and defined, and examples demonstrating the rule."""
        self.node(node_id)
        parents = [u for u, _ in self._edges_in(node_id, "contains")]
        refs_out = [
            {"target": v, "text": a["text"], "line": a["line"], "method": a["method"]}
            for v, a in self._edges_out(node_id, "refers_to")
        ]
        refs_in = [
            {"source": u, "text": a["text"], "line": a["line"], "method": a["method"]}
            for u, a in self._edges_in(node_id, "refers_to")
        ]
        unresolved = [r for r in self.references if r["node_id"] == node_id and not r["targets"]]
        same = [
            {"node_id": v, "edition": self.graph.nodes[v]["edition"], "concept": a["concept"], "counterpart": a["counterpart"]}
            for v, a in self._edges_out(node_id, "same_concept")
        ]
        same.sort(key=lambda s: (self._order.get(s["node_id"], (99, 0)), s["concept"]))
        return {
            "node": self.citation(node_id) if self.graph.nodes[node_id].get("type") in ("rule", "source") else {},
            "parent": parents[0] if parents else None,
            "children": self._sorted(v for v, _ in self._edges_out(node_id, "contains")),
            "previous": next((u for u, _ in self._edges_in(node_id, "next")), None),
            "next": next((v for v, _ in self._edges_out(node_id, "next")), None),
            "references_out": sorted(refs_out, key=lambda r: (r["line"], r["target"])),
            "references_unresolved": unresolved,
            "references_in": sorted(refs_in, key=lambda r: (self._order.get(r["source"], (99, 0)), r["line"])),
            "same_concept": same,
            "mentions": sorted(v.removeprefix("concept:") for v, _ in self._edges_out(node_id, "mentions")),
            "defines": sorted(v.removeprefix("concept:") for v, _ in self._edges_out(node_id, "defines")),
            "examples": sorted(u.removeprefix("example:") for u, _ in self._edges_in(node_id, "demonstrates")),
        }

    # concepts
    def concept(self, concept_id: str) -> dict[str, Any]:
        key = concept_node(concept_id)
        if key not in self.graph:
            raise QueryError(f"Unknown concept id {concept_id!r}. {self._suggest(concept_id)}")
        return dict(self.graph.nodes[key])

    def concept_ids(self) -> list[str]:
        return sorted(a["concept"] for _, a in self.graph.nodes(data=True) if a.get("type") == "concept")

    def defining(self, concept_id: str) -> list[str]:
        return self._sorted(u for u, _ in self._edges_in(concept_node(concept_id), "defines"))

    def mentioning(self, concept_id: str) -> list[str]:
        """Rule nodes mentioning the concept, in source order."""
        self.concept(concept_id)
        return self._sorted(u for u, _ in self._edges_in(concept_node(concept_id), "mentions"))

    def renderings(self, concept_id: str) -> list[dict[str, Any]]:
        found = [dict(self.graph.nodes[u]) for u, _ in self._edges_in(concept_node(concept_id), "renders")]
        order = list(self.sources)
        return sorted(found, key=lambda r: (order.index(r["source_id"]) if r["source_id"] in order else 99, r["text"]))

    def concepts_contract(self) -> list[dict[str, Any]]:
        """The ``rulekb concepts --json`` list: each concept with the rules defining or mentioning it."""
        out = []
        for concept_id in self.concept_ids():
            attrs = self.concept(concept_id)
            defining = set(self.defining(concept_id))
            nodes = self._sorted(defining | set(self.mentioning(concept_id)))
            rows = []
            for node_id in nodes:
                cite = self.citation(node_id)
                rows.append(
                    {
                        "node_id": node_id,
                        "source_id": cite["source_id"],
                        "source_sha256": cite["source_sha256"],
                        "edition": cite["edition"],
                        "lines": cite["lines"],
                        "role": "defines" if node_id in defining else "mentions",
                    }
                )
            out.append({"concept": concept_id, "english": attrs["english"], "category": attrs["category"], "nodes": rows})
        return out

    def compare(self, concept_id: str) -> dict[str, Any]:
        """The defining passages of a concept (and of the concepts that are the same mechanic
        under another name) grouped by edition, in the order 6, 7, kt, 10. A curated passage
        narrower than its leaf is cited and quoted by its own lines (``leaf_lines`` keeps the
        leaf's)."""
        attrs = self.concept(concept_id)
        mechanic = attrs.get("mechanic", concept_id)
        members = [c for c in self.concept_ids() if self.concept(c).get("mechanic", c) == mechanic]
        passages: dict[str, dict[str, Any]] = {}
        for member in members:
            for node_id in self.defining(member):
                if node_id in passages:  # one passage defining two names of the mechanic
                    passages[node_id]["concepts"].append(member)
                    continue
                edge = next((a for v, a in self._edges_out(node_id, "defines") if v == concept_node(member)), {})
                passage = self.citation(node_id)
                passage.update(
                    concept=member,
                    concepts=[member],
                    how=edge.get("how", ""),
                    breadcrumb=self.breadcrumb(node_id),
                    text=edge.get("excerpt") or self.graph.nodes[node_id].get("text", ""),
                    leaf_lines=passage["lines"],
                )
                if "lines" in edge:  # a curated passage narrower than its leaf
                    passage["lines"] = list(edge["lines"])
                passages[node_id] = passage
        by_edition: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for passage in passages.values():
            if concept_id in passage["concepts"]:
                passage["concept"] = concept_id
            by_edition[passage["edition"]].append(passage)
        editions = []
        for edition in sorted(by_edition, key=_edition_rank):
            ordered = sorted(by_edition[edition], key=lambda p: (self._order.get(p["node_id"], (99, 0)), p["concept"]))
            editions.append({"edition": edition, "label": EDITIONS.get(edition, edition), "passages": ordered})
        return {
            "concept": concept_id,
            "english": attrs["english"],
            "category": attrs["category"],
            "definition": attrs.get("definition", ""),
            "mechanic": mechanic,
            "concepts": members,
            "editions": editions,
        }

    # lookup
    def find_concept(self, text: str) -> list[str]:
        """Concept ids that ``text`` names: an id, an English term, a Russian rendering in any
        inflection, slang or an alias; best first, as the termbase's own lookup
        (:meth:`rulekb.kb.termbase.ConceptFinder.search`) ranks them."""
        wanted = text.strip()
        if concept_node(wanted) in self.graph:
            return [wanted]
        return [c.id for c in default_finder().search(wanted) if concept_node(c.id) in self.graph]

    def suggestions(self, text: str, limit: int = 5) -> list[str]:
        """Concept ids whose id, English term or renderings look like ``text``."""
        names: dict[str, list[str]] = {}
        for concept_id in self.concept_ids():
            attrs = self.concept(concept_id)
            for name in [concept_id, attrs["english"], *attrs.get("aliases", [])]:
                names.setdefault(name.casefold(), [concept_id])
            for rendering in self.renderings(concept_id):
                names.setdefault(rendering["text"].casefold(), [concept_id])
        return closest_values(text.casefold(), names, n=limit, cutoff=0.5, pool=limit * 3)

    def _suggest(self, text: str) -> str:
        close = self.suggestions(text)
        if close:
            return f"Closest concepts: {', '.join(close)}."
        return "List concepts with `rulekb concepts`."

    def resolve_concept(self, text: str) -> str:
        """The one concept ``text`` names, or :class:`QueryError` with the closest matches."""
        found = self.find_concept(text)
        if found:
            return found[0]
        raise QueryError(f"No concept matches {text!r}. {self._suggest(text)}")


def _edition_rank(edition: str) -> tuple[int, str]:
    return chronological_rank(edition)


_CACHE: dict[Path, tuple[int, KnowledgeGraph]] = {}


def load_graph(build_dir: Path | None = None) -> KnowledgeGraph:
    """The graph of the last good build (read once per build: re-read when the build's stamp,
    :func:`rulekb.kb.store.build_stamp`, changes)."""
    directory, stamp = build_stamp(require_build(build_dir))
    path = directory / "graph.json"
    if not path.is_file():
        raise IndexMissingError(f"No graph at {str(path)!r}: run `rulekb build` (it writes graph.json).")
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    graph = KnowledgeGraph(json.loads(path.read_text(encoding="utf-8")), path)
    _CACHE[path] = (stamp, graph)
    return graph


