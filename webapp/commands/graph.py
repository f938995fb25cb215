"""Knowledge-graph commands: compare, concepts, related (thin wrappers over :mod:`rulekb.kb.graph.queries`)."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import click

from rulekb.corpus.editions import chronological
from rulekb.kb.contracts import Concept, dump_list
from rulekb.kb.contracts.cite import citation_label
from rulekb.kb.graph.queries import KnowledgeGraph
from rulekb.kb.knowledge import open_knowledge_base
from rulekb.kb.store import default_build_dir
from rulekb.webapp.commands.options import BUILD_DIR

#: Narrower columns than this are printed one after another.
MIN_COLUMN = 36


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=1))


def cite(passage: dict[str, Any]) -> str:
    """«Book, с. 58, строки 13–13» — the citation printed under each passage."""
    return citation_label(passage["source_title"], passage["lines"], passage.get("page"))


def _passage_lines(passage: dict[str, Any], width: int) -> list[str]:
    out = textwrap.wrap(cite(passage), width) or [""]
    trail = " › ".join(passage.get("breadcrumb", [])[1:])
    if trail:
        out += textwrap.wrap(trail, width)
    names = passage.get("concepts") or [passage["concept"]]
    if passage.get("asked") not in names:
        out += textwrap.wrap("[" + ", ".join(names) + "]", width)
    out.append("")
    for paragraph in (passage.get("text") or passage.get("title", "")).split("\n"):
        out += textwrap.wrap(paragraph, width) or [""]
    out.append("")
    return out


def format_comparison(comparison: dict[str, Any], width: int) -> str:
    """The passages per edition side by side when ``width`` allows, else one after another."""
    head = [f"{comparison['english']} ({comparison['concept']}) — {comparison['category']}"]
    if comparison.get("definition"):
        head.append(comparison["definition"])
    others = [c for c in comparison["concepts"] if c != comparison["concept"]]
    if others:
        head.append("Та же механика: " + ", ".join(others))
    editions = comparison["editions"]
    if not editions:
        return "\n".join([*head, "", "No source defines this concept."]) + "\n"
    for edition in editions:
        for passage in edition["passages"]:
            passage["asked"] = comparison["concept"]
    gap = 3
    column = (width - gap * (len(editions) - 1)) // len(editions)
    if len(editions) == 1 or column < MIN_COLUMN:
        body: list[str] = []
        for edition in editions:
            body += ["", f"── {edition['label']} " + "─" * max(0, min(width, 60) - len(edition["label"]) - 4)]
            for passage in edition["passages"]:
                body += _passage_lines(passage, width)
        return "\n".join(head + body).rstrip() + "\n"
    columns = []
    for edition in editions:
        lines = [edition["label"], "─" * column]
        for passage in edition["passages"]:
            lines += _passage_lines(passage, column)
        columns.append(lines)
    rows = max(len(c) for c in columns)
    body = [
        (" " * gap).join(c[i].ljust(column) if i < len(c) else " " * column for c in columns).rstrip() for i in range(rows)
    ]
    return "\n".join([*head, "", *body]).rstrip() + "\n"


@click.command()
@click.argument("concept", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.option("--width", type=int, default=None, help="Page width (default: the terminal's).")
@BUILD_DIR
def compare(concept: tuple[str, ...], as_json: bool, width: int | None, build_dir: Path | None) -> None:
    """Show the rule that defines CONCEPT in each edition, side by side, with citations.

    CONCEPT may be an id (overwatch), an English term (Fall Back), Russian in any inflection
    («дозорной стрельбы») or an alias («овервотч»)."""
    kg = open_knowledge_base(build_dir or default_build_dir()).knowledge_graph()
    concept_id = kg.resolve_concept(" ".join(concept))
    comparison = kg.compare(concept_id)
    if as_json:
        _dump(comparison)
        return
    width = width or shutil.get_terminal_size((100, 24)).columns
    click.echo(format_comparison(comparison, max(width, 40)), nl=False)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract (a list of concepts).")
@BUILD_DIR
def concepts(as_json: bool, build_dir: Path | None) -> None:
    """List the concepts with the rules that define or mention them, per edition."""
    kg = open_knowledge_base(build_dir or default_build_dir()).knowledge_graph()
    rows = kg.concepts_contract()
    if as_json:
        _dump(dump_list(Concept, rows))
        return
    editions = list(chronological())
    click.echo(f"{'concept':<28} {'english':<28} " + " ".join(f"{e:>7}" for e in editions) + "  (defines/mentions)")
    for row in rows:
        cells = []
        for edition in editions:
            nodes = [n for n in row["nodes"] if n["edition"] == edition]
            defines = sum(1 for n in nodes if n["role"] == "defines")
            cells.append(f"{defines}/{len(nodes) - defines}".rjust(7))
        click.echo(f"{row['concept']:<28} {row['english'][:28]:<28} " + " ".join(cells))


def _label(kg: KnowledgeGraph, node_id: str | None) -> str:
    if node_id is None:
        return "—"
    attrs = kg.graph.nodes[node_id]
    a, b = attrs["lines"]
    return f"{node_id}  ({attrs.get('title', '')[:50]}; {a}–{b})"


@click.command()
@click.argument("node_id")
@click.option("--json", "as_json", is_flag=True, help="Print the neighbours as JSON.")
@BUILD_DIR
def related(node_id: str, as_json: bool, build_dir: Path | None) -> None:
    """Show a rule's neighbours: parent, previous/next, references, same concept elsewhere."""
    kg = open_knowledge_base(build_dir or default_build_dir()).knowledge_graph()
    found = kg.neighbours(node_id)
    if as_json:
        _dump(found)
        return
    click.echo(click.style(_label(kg, node_id), bold=True))
    click.echo(f"parent:   {_label(kg, found['parent'])}")
    click.echo(f"previous: {_label(kg, found['previous'])}")
    click.echo(f"next:     {_label(kg, found['next'])}")
    if found["children"]:
        click.echo(f"children: {len(found['children'])}")
    for ref in found["references_out"]:
        click.echo(f"refers to («{ref['text']}», line {ref['line']}): {_label(kg, ref['target'])}")
    for ref in found["references_unresolved"]:
        click.echo(f"refers to («{ref['text']}», line {ref['line']}): unresolved — {ref['reason']}")
    for ref in found["references_in"]:
        click.echo(f"referred to by («{ref['text']}»): {_label(kg, ref['source'])}")
    for same in found["same_concept"]:
        click.echo(f"same concept ({same['concept']}, edition {same['edition']}): {_label(kg, same['node_id'])}")
    if found["defines"]:
        click.echo("defines:  " + ", ".join(found["defines"]))
    if found["mentions"]:
        click.echo("mentions: " + ", ".join(found["mentions"]))
    if found["examples"]:
        click.echo("examples: " + ", ".join(found["examples"]))


COMMANDS = [compare, concepts, related]
