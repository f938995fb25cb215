"""Corpus commands: build, check, outline, show, nodes.

The modules a command needs are imported inside it, so that ``rulekb --help`` and every other
command start without loading the index, the termbase or the engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from rulekb.corpus.errors import QueryError
from rulekb.corpus.models import RuleNode
from rulekb.corpus.outline import format_outline
from rulekb.corpus.parser import parse_corpus
from rulekb.corpus.reader import find_source
from rulekb.kb.contracts import Node, dump_list
from rulekb.kb.contracts.cite import lines_label
from rulekb.kb.knowledge import open_knowledge_base
from rulekb.kb.store import default_build_dir
from rulekb.kb.text.fuzzy import close_matches
from rulekb.webapp.commands.options import BUILD_DIR


@click.command()
@click.option("--strict", is_flag=True, help="Fail (exit 2) on any parse or link issue.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors.")
@BUILD_DIR
def build(strict: bool, quiet: bool, build_dir: Path | None) -> None:
    """Parse the sources and build the knowledge base into build/ (atomically)."""

    def log(message: str) -> None:
        if not quiet:
            click.echo(f"  {message}", err=True)

    from rulekb.kb.build import build as run_build  # the whole pipeline: loaded only to build

    result = run_build(out=build_dir, strict=strict, log=log)
    if not quiet:
        manifest = result.manifest
        for source in manifest["sources"]:
            kinds = ", ".join(f"{k} {v}" for k, v in source["kinds"].items())
            click.echo(f"{source['id']:<12} {source['nodes']:>4} nodes ({kinds}); issues {source['parse_issues']}")
        click.echo(f"built {result.out} in {manifest['timings_ms']['total']:.0f} ms")


@click.command()
@click.option("--strict", is_flag=True, help="Exit 1 when there is any issue.")
def check(strict: bool) -> None:
    """List parse and link issues, one line each: file, line, reason."""
    corpus = parse_corpus()
    issues = [str(issue) for issue in corpus.issues]
    try:
        from rulekb.kb.graph.validate import validate  # added by the graph stage

        issues += validate(corpus)
    except ImportError:
        pass
    for line in issues:
        click.echo(line)
    click.echo(f"{len(issues)} issue(s)", err=True)
    if strict and issues:
        sys.exit(1)


@click.command()
@click.argument("source_id")
def outline(source_id: str) -> None:
    """Print the node tree of one source: kind, title, lines, page."""
    source = find_source(source_id)
    parsed = parse_corpus([source]).sources[0]
    click.echo(format_outline(parsed.nodes), nl=False)


def _nodes(build_dir: Path | None) -> list[RuleNode]:
    where = build_dir or default_build_dir()
    if where.joinpath("nodes.json").is_file():
        return list(open_knowledge_base(where).nodes.values())
    return parse_corpus().nodes


@click.command()
@click.argument("node_id")
@click.option("--json", "as_json", is_flag=True, help="Print the node as JSON.")
@BUILD_DIR
def show(node_id: str, as_json: bool, build_dir: Path | None) -> None:
    """Show one node: citation, breadcrumb and text."""
    nodes = {node.id: node for node in _nodes(build_dir)}
    node = nodes.get(node_id)
    if node is None:
        close = close_matches(node_id, nodes, n=5, cutoff=0.5)
        hint = f" Did you mean: {', '.join(close)}?" if close else " List ids with `rulekb nodes --json`."
        raise QueryError(f"Unknown node id {node_id!r}.{hint}")
    if as_json:
        click.echo(json.dumps(node.model_dump(mode="json"), ensure_ascii=False, indent=1))
        return
    trail = []
    parent = node.parent_id
    while parent is not None:
        trail.append(nodes[parent].title)
        parent = nodes[parent].parent_id
    source = find_source(node.source_id)
    page = f", с. {node.page}" if node.page is not None else ""
    click.echo(" › ".join(reversed(trail)))
    click.echo(click.style(node.title, bold=True))
    click.echo(f"{source.title} ({node.kind.value}{page}, {lines_label(node.lines)})")
    click.echo()
    click.echo(node.text_clean or node.title_clean)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract (a list of nodes).")
@click.option("--source", "source_id", default=None, help="Only this source.")
@BUILD_DIR
def nodes(as_json: bool, source_id: str | None, build_dir: Path | None) -> None:
    """List every rule node."""
    all_nodes = _nodes(build_dir)
    if source_id is not None:
        find_source(source_id)
        all_nodes = [n for n in all_nodes if n.source_id == source_id]
    if as_json:
        rows = [
            {
                "id": n.id,
                "source_id": n.source_id,
                "source_sha256": find_source(n.source_id).sha256,
                "edition": n.edition,
                "kind": n.kind.value,
                "title": n.title,
                "parent_id": n.parent_id,
                "lines": list(n.lines),
                "page": n.page,
            }
            for n in all_nodes
        ]
        click.echo(json.dumps(dump_list(Node, rows), ensure_ascii=False, indent=1))
        return
    for n in all_nodes:
        click.echo(f"{n.id}\t{n.kind.value}\t{n.lines[0]}-{n.lines[1]}")


COMMANDS = [build, check, outline, show, nodes]
