"""The rule page: breadcrumbs, the rendered text with terms and references linked, the citation,
neighbours and children, the same concept in other editions, and worked examples with charts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, redirect, render_template, url_for

from rulekb.corpus.models import RuleNode
from rulekb.webapp.data import Build
from rulekb.webapp.render import RenderContext, TermMatcher, TermSense, render_text
from rulekb.webapp.views.common import citation, current_build, node_json
from rulekb.webapp.views.examples import example_view

__all__ = ["RulePageData", "bp", "render_node", "rule_page", "term_context"]

bp = Blueprint("rules", __name__)


def term_context(build: Build, source_id: str) -> RenderContext:
    """Term senses and the lemma matcher of one book of this build (made once per build and
    book): a rule page's tooltips know only that book's renderings, so «отряд» in the 6th
    edition is a unit, not Kill Team's squad. An empty ``source_id`` prepares every book."""
    parts: dict[str, tuple[dict[str, TermSense], TermMatcher]] = build.__dict__.setdefault("_term_parts", {})
    if source_id not in parts:
        senses: dict[str, TermSense] = {}
        phrases: dict[str, list[tuple[str, str]]] = {}
        # a rendering printed only as a heading («Тяжелый») is ordinary Russian in a sentence
        titles = {(n.source_id, n.lines[0]) for n in build.nodes.values() if not n.is_leaf}
        for concept in build.concepts.values():
            per_source: dict[str, list[tuple[str, str]]] = {}
            for r in concept.renderings:
                per_source.setdefault(r.source_id, []).append((r.text, r.status))
                if not r.lines or not all((r.source_id, line) in titles for line in r.lines):
                    phrases.setdefault(r.source_id, []).append((r.text, concept.id))
            senses[concept.id] = TermSense(concept.id, concept.english, concept.definition, per_source)
        for source, pairs in phrases.items():
            parts.setdefault(source, (senses, TermMatcher(pairs)))
        parts.setdefault(source_id, (senses, TermMatcher([])))
    senses_, matcher = parts[source_id]
    return RenderContext(source_id=source_id, senses=senses_, matcher=matcher, concept_url=url_for("concepts.index") + "/")


def _xrefs(build: Build, node: RuleNode) -> dict[str, str]:
    """Each printed reference of ``node`` («см. стр. 27») → the URL of the rule it resolves to."""
    out: dict[str, str] = {}
    for printed, target in build.references(node)[0]:
        if printed:
            out.setdefault(printed, url_for("rules.rule", node_id=target.id))
    return out


def render_node(build: Build, node: RuleNode) -> Any:
    ctx = term_context(build, node.source_id)
    ctx.xrefs = _xrefs(build, node)
    ctx.prefer = frozenset(build.node_concepts(node))
    return render_text(node.text_clean or node.text, ctx)


def _table(node: RuleNode) -> list[list[str]]:
    return [line.split() for line in (node.text_clean or node.text).split("\n") if line.strip()]


def _brief(node: RuleNode | None) -> dict[str, Any] | None:
    if node is None:
        return None
    return {"id": node.id, "title": node.title, "kind": node.kind.value, "edition": node.edition, "lines": list(node.lines)}


@dataclass
class RulePageData:
    """What the rule page shows and ``/api/rules/{node_id}`` serves, computed once for both."""

    build: Build
    node: RuleNode
    cite: dict[str, Any]
    trail: list[RuleNode]
    parent: RuleNode | None
    children: list[RuleNode]
    previous: RuleNode | None
    next: RuleNode | None
    same: list[tuple[str, RuleNode]]
    refs_out: list[tuple[str, RuleNode]]
    refs_in: list[RuleNode]
    examples: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The :class:`rulekb.kb.contracts.RulePage` object."""
        return {
            "node": node_json(self.build, self.node),
            "citation": self.cite,
            "breadcrumb": [_brief(n) for n in self.trail],
            "parent": _brief(self.parent),
            "children": [_brief(n) for n in self.children],
            "previous": _brief(self.previous),
            "next": _brief(self.next),
            "same_concept": [{"concept": cid, **(_brief(n) or {})} for cid, n in self.same],
            "refers_to": [{"text": text, **(_brief(n) or {})} for text, n in self.refs_out],
            "referred_by": [_brief(n) for n in self.refs_in],
            "examples": [e.get("id") for e in self.examples],
            "diagrams": [
                {"example": e.get("id"), "svg": e["svg"], "figure": e.get("figure")}
                for e in self.examples
                if isinstance(e.get("svg"), str)
            ],
        }


def rule_page(build: Build, node_id: str) -> RulePageData:
    """The data of one rule page (404 for an unknown id)."""
    node = build.nodes.get(node_id.strip("/"))
    if node is None:
        abort(404)
    prev, nxt = build.neighbours(node)
    refs_out, refs_in = build.references(node)
    return RulePageData(
        build=build,
        node=node,
        cite=citation(build, node),
        trail=build.trail(node),
        parent=build.nodes.get(node.parent_id or ""),
        children=build.children.get(node.id, []),
        previous=prev,
        next=nxt,
        same=build.same_concept(node),
        refs_out=refs_out,
        refs_in=refs_in,
        examples=build.examples_for(node),
    )


@bp.route("/rules/<path:node_id>")
def rule(node_id: str) -> str:
    build = current_build()
    page = rule_page(build, node_id)
    node = page.node
    concepts = [build.concepts[c] for c in build.node_concepts(node) if c in build.concepts]
    return render_template(
        "rule.html",
        node=node,
        trail=page.trail,
        source=build.source(node.source_id),
        cite=page.cite,
        body=render_node(build, node) if node.is_leaf and node.kind.value != "table" else None,
        table=_table(node) if node.kind.value == "table" else None,
        children=page.children,
        child_bodies={
            child.id: render_node(build, child)
            for child in page.children
            if child.is_leaf and child.kind.value != "table"
        },
        prev=page.previous,
        next=page.next,
        same=page.same,
        refs_out=[target for _, target in page.refs_out],
        refs_in=page.refs_in,
        concepts=concepts,
        examples=[example_view(e) for e in page.examples],
    )


@bp.route("/cite/<source_id>/<int:line>")
def line(source_id: str, line: int) -> Any:
    """The rule that holds line ``line`` of ``source_id`` (a citation as a link)."""
    build = current_build()
    node = build.leaf_at(source_id, line)
    if node is None:
        abort(404)
    return redirect(url_for("rules.rule", node_id=node.id) + f"#L{line}", code=302)
