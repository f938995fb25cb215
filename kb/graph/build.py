"""Build the knowledge graph from the linker's output and write ``graph.json``, ``concepts.json``
and ``terms.json`` (the ``terms`` and ``graph`` build stages). See :mod:`rulekb.kb.graph.queries` for the
edge kinds and the queries."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import networkx as nx

from rulekb.corpus.editions import chronological, family_of
from rulekb.corpus.errors import LinkError
from rulekb.corpus.models import NON_RULE_KINDS, NodeKind, ParseIssue, RuleNode
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.context import BuildContext, dump_json
from rulekb.kb.examples.model import load_examples
from rulekb.kb.graph.curation import link_examples, load_curation
from rulekb.kb.graph.linker import Links, link
from rulekb.kb.graph.outline import Outline
from rulekb.kb.graph.queries import (
    EDGE_KINDS,
    GRAPH_SCHEMA,
    KnowledgeGraph,
    concept_node,
    example_node,
    rendering_node,
)
from rulekb.kb.graph.resolve import page_span
from rulekb.kb.graph.validate import link_issues
from rulekb.kb.termbase.export import to_records
from rulekb.kb.termbase.model import Termbase, project_termbase
from rulekb.kb.termbase.occurrences import index_for, rendering_stats

__all__ = [
    "build_graph",
    "graph_data",
    "project_termbase",
    "rendering_stats",
    "stage_graph",
    "stage_terms",
    "term_index",
]

# --- building ------------------------------------------------------------------------------------


def build_graph(
    corpus: ParsedCorpus,
    links: Links,
    termbase: Termbase,
    stats: dict[tuple[str, str, str], list[int]] | None = None,
    examples: Sequence[dict[str, Any]] = (),
) -> nx.MultiDiGraph:
    """The graph of one corpus; ``stats`` maps (concept, source, rendering) to the lines
    where the rendering occurs; ``examples`` are ``{"id", "title", "concepts", "rule_ids"}``."""
    graph = nx.MultiDiGraph()
    sha = {parsed.source.id: parsed.sha256 for parsed in corpus.sources}
    _add_rules(graph, corpus, links, sha)
    _add_concepts(graph, termbase, links, stats or {})
    _add_links(graph, links)
    _add_examples(graph, examples)
    graph.graph.update(sources=sha)
    return graph


def _add_rules(graph: nx.MultiDiGraph, corpus: ParsedCorpus, links: Links, sha: dict[str, str]) -> None:
    """Every parsed node with its ``contains`` edges, and ``next`` between consecutive rule leaves
    of the reading order (:class:`rulekb.kb.graph.outline.Outline`)."""
    for parsed in corpus.sources:
        source = parsed.source
        for node in parsed.nodes:
            graph.add_node(node.id, **_rule_attrs(node, links))
            if node.kind is NodeKind.SOURCE:
                graph.nodes[node.id].update(
                    type="source",
                    file=source.file,
                    upstream_file=source.upstream_file,
                    sha256=sha[source.id],
                    title_en=source.title_en,
                    translation=source.translation,
                    pages=page_span(parsed.nodes),
                )
            if node.parent_id is not None:
                graph.add_edge(node.parent_id, node.id, key="contains", kind="contains")
        by_id = {n.id: n for n in parsed.nodes}
        reading = Outline.of_nodes(parsed.nodes).reading_order.get(source.id, [])
        leaves = [by_id[i] for i in reading if by_id[i].is_leaf and by_id[i].kind not in NON_RULE_KINDS]
        for a, b in itertools.pairwise(leaves):
            graph.add_edge(a.id, b.id, key="next", kind="next")


def _add_concepts(
    graph: nx.MultiDiGraph, termbase: Termbase, links: Links, stats: dict[tuple[str, str, str], list[int]]
) -> None:
    """A node per concept and per rendering, each rendering ``renders`` its concept."""
    for concept in termbase:
        graph.add_node(
            concept_node(concept.id),
            type="concept",
            concept=concept.id,
            english=concept.english,
            abbreviation=concept.abbreviation,
            category=concept.category.value,
            definition=concept.definition,
            aliases=list(concept.aliases),
            recommended=concept.recommended,
            mechanic=links.mechanics.get(concept.id, concept.id),
        )
        for rendering in concept.rendering:
            lines = stats.get((concept.id, rendering.source, rendering.text), [])
            rid = rendering_node(rendering.source, concept.id, rendering.text)
            graph.add_node(
                rid,
                type="rendering",
                concept=concept.id,
                source_id=rendering.source,
                text=rendering.text,
                status=rendering.status.value,
                note=rendering.note,
                count=len(lines),
                lines=sorted(set(lines)),
            )
            graph.add_edge(rid, concept_node(concept.id), key="renders", kind="renders", source_id=rendering.source)


def _add_links(graph: nx.MultiDiGraph, links: Links) -> None:
    """The linker's edges: ``mentions``, ``defines``, ``refers_to`` and ``same_concept``."""
    for node_id, counts in links.mentions.items():
        for concept_id, count in counts.items():
            graph.add_edge(node_id, concept_node(concept_id), key="mentions", kind="mentions", count=count)
    for definition in links.definitions:
        extra: dict[str, Any] = {}
        if definition.lines is not None:
            extra = {"lines": list(definition.lines), "excerpt": definition.excerpt}
        graph.add_edge(
            definition.node_id, concept_node(definition.concept_id), key="defines", kind="defines", how=definition.how, **extra
        )
    for ref in links.references:
        for target in ref.targets:
            graph.add_edge(
                ref.node_id,
                target,
                key=f"refers_to:{ref.line}:{ref.text}",
                kind="refers_to",
                text=ref.text,
                line=ref.line,
                reference=ref.kind,
                method=ref.method,
                page=ref.page,
            )
    for same in links.same_concept:
        graph.add_edge(
            same.a,
            same.b,
            key=f"same_concept:{same.concept_a}:{same.concept_b}",
            kind="same_concept",
            concept=same.concept_a,
            counterpart=same.concept_b,
            mechanic=same.mechanic,
        )


def _add_examples(graph: nx.MultiDiGraph, examples: Sequence[dict[str, Any]]) -> None:
    """A node per worked example, ``demonstrates`` the rules it cites."""
    for example in examples:
        eid = example_node(example["id"])
        graph.add_node(
            eid, type="example", example=example["id"], title=example.get("title", ""), concepts=example.get("concepts", [])
        )
        for rule_id in example.get("rule_ids", []):
            graph.add_edge(eid, rule_id, key="demonstrates", kind="demonstrates")


def _rule_attrs(node: RuleNode, links: Links) -> dict[str, Any]:
    mentioned = sorted(links.mentions.get(node.id, {}))
    return {
        "type": "rule",
        "kind": node.kind.value,
        "source_id": node.source_id,
        "edition": node.edition,
        "title": node.title_clean or node.title,
        "parent_id": node.parent_id,
        "order": node.order,
        "lines": list(node.lines),
        "page": node.page,
        "text": node.text_clean,
        "concepts": mentioned,
    }


def graph_data(graph: nx.MultiDiGraph, links: Links) -> dict[str, Any]:
    """The JSON form: nodes sorted by id, links by (source, target, key); deterministic."""
    nodes = [{"id": node_id, **attrs} for node_id, attrs in sorted(graph.nodes(data=True))]
    edges = [
        {"source": u, "target": v, "key": k, **attrs}
        for u, v, k, attrs in sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))
    ]
    kinds = Counter(attrs["kind"] for _, _, attrs in graph.edges(data=True))
    return {
        "schema_version": GRAPH_SCHEMA,
        "directed": True,
        "multigraph": True,
        "graph": {
            "sources": dict(sorted(graph.graph.get("sources", {}).items())),
            "edge_counts": {kind: kinds.get(kind, 0) for kind in EDGE_KINDS},
        },
        "nodes": nodes,
        "links": edges,
        "references": [ref.to_json() for ref in links.references],
        "issues": [str(issue) for issue in links.issues],
    }



# --- build stages --------------------------------------------------------------------------------


def term_index(termbase: Termbase) -> Any:
    """The termbase's occurrences in the sources (shared with the termbase tools' own index)."""
    return index_for(termbase)


def stage_terms(ctx: BuildContext) -> None:
    """Build stage ``terms``: ``build/terms.json`` (the ``rulekb terms --json`` contract)."""
    termbase = project_termbase(ctx.log)
    rows = to_records(term_index(termbase))
    dump_json(ctx.out / "terms.json", rows)
    ctx.counts["concepts"] = len(rows)
    ctx.counts["renderings"] = sum(len(r["renderings"]) for r in rows)


def stage_graph(ctx: BuildContext) -> None:
    """Build stage ``graph``: link, then write ``graph.json`` and ``concepts.json``.

    Link errors (wrong curated data, dangling ids) fail a ``--strict`` build with
    :class:`rulekb.corpus.errors.LinkError`; warnings (facts about the texts, such as a reference to a
    page the corpus does not hold) are logged and kept in ``graph.json``."""
    termbase = project_termbase()
    links = link(ctx.corpus, termbase, load_curation())
    examples, example_issues = link_examples(ctx.corpus.nodes, load_examples())
    stats = rendering_stats(termbase)
    links.issues[:] = link_issues(ctx.corpus, links, termbase, stats, example_issues)
    graph = build_graph(ctx.corpus, links, termbase, stats, examples)
    data = graph_data(graph, links)
    dump_json(ctx.out / "graph.json", data)
    kg = KnowledgeGraph(data)
    dump_json(ctx.out / "concepts.json", kg.concepts_contract())
    errors = [i for i in links.issues if i.severity == "error"]
    warnings = [i for i in links.issues if i.severity != "error"]
    for kind, count in data["graph"]["edge_counts"].items():
        ctx.counts[f"edges_{kind}"] = count
    ctx.counts["references"] = len(links.references)
    ctx.counts["references_resolved"] = sum(1 for r in links.references if r.resolved)
    ctx.counts["link_errors"] = len(errors)
    ctx.counts["link_warnings"] = len(warnings)
    ctx.log(
        f"graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges; "
        f"{ctx.counts['references_resolved']}/{len(links.references)} references resolved; "
        f"{len(errors)} link error(s), {len(warnings)} warning(s)"
    )
    for issue in errors:
        ctx.log(str(issue))
    if errors and ctx.strict:
        raise LinkError(f"--strict: {len(errors)} link error(s), first {errors[0]}; run `rulekb check` to list them all.")
    ctx.issues.extend(
        ParseIssue(source_id="", file=i.file, line=i.line, reason=f"{i.severity}: {i.message}", severity="error")
        for i in errors
    )



# --- figures for docs/graph.md -----------------------------------------------------------------


def stats_markdown(kg: KnowledgeGraph) -> str:
    """Markdown tables of the graph: edges by kind, and per source the concepts mentioned and
    defined, the same-concept links and the references (``python -m rulekb.kb.graph.build``)."""
    counts = kg.data["graph"]["edge_counts"]
    lines = ["| edge kind | edges |", "|---|---:|"]
    lines += [f"| `{kind}` | {counts.get(kind, 0)} |" for kind in EDGE_KINDS]
    lines += [
        "",
        "| source | rule leaves | leaves mentioning a concept | concepts mentioned | concepts defined "
        "| defining leaves | same_concept links | references (resolved) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    per: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"leaves": 0, "mentioning": 0, "mentioned": set(), "defined": set(), "defining": set(), "same": 0}
    )
    for _, attrs in kg.graph.nodes(data=True):
        if attrs.get("type") != "rule" or attrs["kind"] in {k.value for k in NON_RULE_KINDS} or attrs["text"] == "":
            continue
        row = per[attrs["source_id"]]
        row["leaves"] += 1
        row["mentioning"] += bool(attrs["concepts"])
        row["mentioned"].update(attrs["concepts"])
    for u, v, attrs in kg.graph.edges(data=True):
        source = kg.graph.nodes[u].get("source_id")
        if attrs["kind"] == "defines":
            per[source]["defined"].add(v)
            per[source]["defining"].add(u)
        elif attrs["kind"] == "same_concept":
            per[source]["same"] += 1
    refs: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for ref in kg.references:
        refs[ref["source_id"]][0] += 1
        refs[ref["source_id"]][1] += bool(ref["targets"])
    for source in kg.sources:
        row = per[source]
        lines.append(
            f"| `{source}` | {row['leaves']} | {row['mentioning']} | {len(row['mentioned'])} | {len(row['defined'])} "
            f"| {len(row['defining'])} | {row['same']} | {refs[source][0]} ({refs[source][1]}) |"
        )
    newest = chronological()[-1]
    older = set(chronological()) - set(family_of(newest))
    spanning = {
        attrs["mechanic"]
        for u, v, attrs in kg.graph.edges(data=True)
        if attrs["kind"] == "same_concept"
        and kg.graph.nodes[u]["edition"] in older
        and kg.graph.nodes[v]["edition"] == newest
    }
    lines += ["", f"Mechanics linked between the 6th/7th/Kill Team texts and the 10th edition: {len(spanning)}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - a documentation helper
    import sys
    from pathlib import Path

    from rulekb.kb.graph.queries import load_graph

    print(stats_markdown(load_graph(Path(sys.argv[1]) if len(sys.argv) > 1 else None)), end="")
