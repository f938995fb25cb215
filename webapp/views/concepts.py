"""Concept pages: the definition, each edition's defining rule side by side, the engine's comparison
where one applies, and the renderings per book."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, render_template

from rulekb.corpus.errors import RulebaseError
from rulekb.webapp.data import Build, Concept
from rulekb.webapp.views.common import citation, current_build
from rulekb.webapp.views.compare import Comparison, comparisons_for
from rulekb.webapp.views.rules import render_node

__all__ = ["ConceptPageData", "bp", "concept_ids", "concept_json", "concept_page", "edition_columns"]

bp = Blueprint("concepts", __name__)


def edition_columns(build: Build, concept_id: str) -> list[dict[str, Any]]:
    """One column per edition (6, 7, Kill Team, 10) with the defining rules.

    From the graph's comparison when the build has one (it gathers the concepts that are the same
    mechanic under another name), else from ``concepts.json``: the defining rules, or the first
    mentions when an edition has no definition.
    """
    passages: dict[str, list[str]] = {}
    if build.graph is not None:
        try:
            compared = build.graph.compare(concept_id)
        except RulebaseError:
            compared = {"editions": []}
        for group in compared.get("editions", []):
            passages[str(group.get("edition"))] = [str(p["node_id"]) for p in group.get("passages", [])]
    refs = build.concept_nodes.get(concept_id, [])
    columns = []
    for edition in build.editions:
        mine = [r for r in refs if r.get("edition") == edition and r["node_id"] in build.nodes]
        defining = [n for n in passages.get(edition, []) if n in build.nodes] or [
            r["node_id"] for r in mine if r.get("role") == "defines"
        ]
        chosen = defining[:3] if defining else [r["node_id"] for r in mine[:2]]
        columns.append(
            {
                "edition": edition,
                "defines": bool(defining),
                "nodes": [build.nodes[n] for n in chosen],
                "more": max(len(mine) - len(chosen), 0),
            }
        )
    return columns


@dataclass
class ConceptPageData:
    """What a concept page shows and ``/api/concepts/{id}`` serves, computed once for both."""

    concept_id: str
    concept: Concept | None
    nodes: list[dict[str, Any]]
    comparisons: tuple[Comparison, ...]

    def to_json(self) -> dict[str, Any]:
        """The :class:`rulekb.kb.contracts.Concept` object: the ``concepts --json`` fields and the termbase entry."""
        data: dict[str, Any] = self.concept.to_json() if self.concept else {"concept": self.concept_id}
        data["nodes"] = self.nodes
        data["comparisons"] = [c.to_json() for c in self.comparisons]
        return data


def concept_page(build: Build, concept_id: str) -> ConceptPageData:
    """The data of one concept page (404 for a concept neither the termbase nor the graph knows)."""
    item = build.concepts.get(concept_id)
    if item is None and concept_id not in build.concept_nodes:
        abort(404)
    return ConceptPageData(concept_id, item, build.concept_nodes.get(concept_id, []), comparisons_for(concept_id))


def concept_ids(build: Build) -> list[str]:
    """Every concept of the build: the termbase's and those only the graph links."""
    return sorted(set(build.concepts) | set(build.concept_nodes))


def concept_json(build: Build, concept: Concept | None, concept_id: str) -> dict[str, Any]:
    """The ``rulekb concepts --json`` object for one concept, plus its termbase entry."""
    page = ConceptPageData(concept_id, concept, build.concept_nodes.get(concept_id, []), comparisons_for(concept_id))
    return page.to_json()


@bp.route("/concepts")
def index() -> str:
    build = current_build()
    counts = {cid: len(refs) for cid, refs in build.concept_nodes.items()}
    return render_template("concepts.html", concepts=list(build.concepts.values()), counts=counts)


@bp.route("/concepts/<path:concept_id>")
def concept(concept_id: str) -> str:
    build = current_build()
    page = concept_page(build, concept_id)
    columns = edition_columns(build, concept_id)
    bodies = {n.id: render_node(build, n) for col in columns for n in col["nodes"]}
    cites = {n.id: citation(build, n) for col in columns for n in col["nodes"]}
    return render_template(
        "concept.html",
        concept=page.concept,
        concept_id=concept_id,
        columns=columns,
        bodies=bodies,
        cites=cites,
        comparisons=page.comparisons,
        sources=build.sources,
    )
