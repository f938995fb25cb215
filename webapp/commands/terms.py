"""Termbase commands: `rulekb terms [QUERY]` (+ inconsistencies, check, stats, unmapped) and
`rulekb kwic TERM`. Thin wrappers over :mod:`rulekb.kb.termbase`."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

import click

from rulekb.corpus.errors import QueryError
from rulekb.corpus.reader import find_source
from rulekb.kb.contracts import Term, dump_list
from rulekb.kb.termbase import (
    Concept,
    KwicRow,
    check_draft,
    default_finder,
    default_index,
    default_termbase,
    inconsistencies,
    kwic,
    stats_table,
    to_csv,
    to_records,
    to_tbx,
    to_tsv,
    unmapped_english_terms,
    unmapped_headings,
)

__all__ = ["COMMANDS"]

_QUERY_KEY = "rulekb.terms.query"


class QueryGroup(click.Group):
    """A group whose first word is a subcommand if it names one, and otherwise a query:
    `rulekb terms inconsistencies` runs the subcommand, `rulekb terms зона поражения` searches."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {
            name
            for param in self.params
            if isinstance(param, click.Option) and not param.is_flag and not param.count
            for name in param.opts + param.secondary_opts
        }
        kept: list[str] = []
        words: list[str] = []
        index = 0
        while index < len(args):
            arg = args[index]
            if arg == "--":
                words.extend(args[index + 1 :])
                break
            if arg.startswith("-") and len(arg) > 1 and not arg[1:2].isdigit():
                kept.append(arg)
                if arg in takes_value and index + 1 < len(args):
                    kept.append(args[index + 1])
                    index += 1
            elif not words and arg in self.commands:
                kept.extend(args[index:])
                break
            else:
                words.append(arg)
            index += 1
        ctx.meta[_QUERY_KEY] = " ".join(words).strip() or None
        return super().parse_args(ctx, kept)


def _check_source(source_id: str | None) -> None:
    if source_id is not None:
        find_source(source_id)


def _closest(query: str) -> list[str]:
    """Concepts a query looks like, or names only a part of («Heavy Intercessor» → heavy)."""
    finder = default_finder()
    return list(dict.fromkeys(finder.closest(query) + [c.id for c in finder.search(query)]))[:6]


def _resolve(query: str) -> list[Concept]:
    found = default_finder().lookup(query)
    if not found:
        close = _closest(query)
        hint = f" Closest: {', '.join(close)}." if close else " List all concepts with `rulekb terms`."
        raise QueryError(f"No such term: {query!r}.{hint}")
    return found


def _print_concept(concept: Concept, source_id: str | None) -> None:
    index = default_index()
    abbreviation = f" ({concept.abbreviation})" if concept.abbreviation else ""
    keyword = ", keyword" if concept.keyword else ""
    click.echo(click.style(f"{concept.id}", bold=True) + f" — {concept.english}{abbreviation}  [{concept.category.value}{keyword}]")
    click.echo(f"  {concept.definition}")
    if concept.recommended:
        click.echo(f"  recommended: {concept.recommended}")
    if concept.aliases:
        click.echo(f"  aliases: {', '.join(concept.aliases)}")
    for r in concept.rendering:
        if source_id is not None and r.source != source_id:
            continue
        lines = index.lines(concept.id, r.source, r.text)
        shown = ", ".join(map(str, lines[:12])) + ("…" if len(lines) > 12 else "")
        click.echo(f"  {r.source:<11} {r.status.value:<14} {len(lines):>4}×  «{r.text}»  lines {shown}")
        if r.note:
            click.echo(f"  {'':<11} {'':<14}        {r.note}")
    if concept.related:
        click.echo(f"  related: {', '.join(concept.related)}")


def _emit(fmt: str | None, concepts: list[Concept] | None, source_id: str | None) -> bool:
    index = default_index()
    if fmt == "json":
        click.echo(json.dumps(dump_list(Term, to_records(index, concepts, source_id)), ensure_ascii=False, indent=1))
    elif fmt == "tbx":
        click.echo(to_tbx(index, concepts, source_id), nl=False)
    elif fmt == "csv":
        click.echo(to_csv(index, concepts, source_id), nl=False)
    elif fmt == "tsv":
        click.echo(to_tsv(index, concepts, source_id), nl=False)
    else:
        return False
    return True


_FORMATS = [
    click.option("--json", "fmt", flag_value="json", help="The JSON contract: a list of concepts with renderings, counts, lines."),
    click.option("--tbx", "fmt", flag_value="tbx", help="TBX-Basic (ISO 30042) for CAT tools."),
    click.option("--csv", "fmt", flag_value="csv", help="CSV, one row per rendering, for spreadsheets."),
    click.option("--tsv", "fmt", flag_value="tsv", help="An OmegaT glossary: English TAB Russian TAB comment."),
]
_SOURCE = click.option("--source", "-s", "source_id", default=None, help="Only renderings of this source (e.g. 10e-core).")


def _with_formats(function: Any) -> Any:
    for option in reversed(_FORMATS):
        function = option(function)
    return function


def _show(query: str | None, source_id: str | None, fmt: str | None) -> None:
    _check_source(source_id)
    concepts = _resolve(query) if query else None
    if _emit(fmt, concepts, source_id):
        return
    if concepts is None:
        termbase = default_termbase()
        for concept in termbase:
            if source_id is not None and not concept.renderings_for(source_id):
                continue
            count = len(concept.renderings_for(source_id)) if source_id else len(concept.rendering)
            click.echo(f"{concept.id:<28} {concept.english:<34} {concept.recommended or '—'}  ({count})")
        return
    for number, concept in enumerate(concepts):
        if number:
            click.echo()
        _print_concept(concept, source_id)


@click.group(
    "terms",
    cls=QueryGroup,
    invoke_without_command=True,
    subcommand_metavar="[QUERY]... | COMMAND [ARGS]...",
)
@_SOURCE
@_with_formats
@click.pass_context
def terms(ctx: click.Context, source_id: str | None, fmt: str | None) -> None:
    """The termbase: concepts, their Russian renderings per source, statuses and counts.

    With a QUERY (an id, English, Russian in any inflection, slang or an abbreviation:
    `rulekb terms зоны поражения`, `rulekb terms овервотч`, `rulekb terms AP`), show the
    matching concepts; without one, list them all.
    """
    if ctx.invoked_subcommand is None:
        _show(ctx.meta.get(_QUERY_KEY), source_id, fmt)


@terms.command("search")
@click.argument("query", nargs=-1, required=True)
@_SOURCE
@_with_formats
def search(query: tuple[str, ...], source_id: str | None, fmt: str | None) -> None:
    """Find concepts by QUERY (the same as `rulekb terms QUERY`)."""
    _show(" ".join(query), source_id, fmt)


@terms.command("inconsistencies")
@_SOURCE
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def inconsistencies_command(source_id: str | None, as_json: bool) -> None:
    """Concepts rendered several ways in one source, and Russian strings used for different
    concepts (within a source and across sources)."""
    _check_source(source_id)
    report = inconsistencies(default_index(), source_id)
    if as_json:
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
        return
    click.echo(click.style("Concepts written more than one way", bold=True))
    current = None
    for v in report.variants:
        if v.source_id != current:
            current = v.source_id
            click.echo(f"  {current}")
        used = "; ".join(f"«{t}» {n}× ({s})" for t, s, n in v.renderings)
        click.echo(f"    {v.concept_id}: {used}")
    for title, shared_list in (
        ("One string, several concepts, in the same source", report.within_source),
        ("One string, different concepts in different sources", report.across_sources),
    ):
        click.echo(click.style(title, bold=True))
        for shared in shared_list:
            uses = "; ".join(f"{s}: {c} {n}× ({st})" for s, c, st, n in shared.uses)
            click.echo(f"  «{shared.text}» — {uses}")


@terms.command("check")
@click.argument("draft", type=click.File("r", encoding="utf-8"))
@click.option("--source", "-s", "source_id", default=None, help="Check against this book's renderings (e.g. 10e-core).")
@click.option("--edition", "-e", default=None, help="Check against the books of this edition (10, 6, 7, kt).")
@click.option("--json", "as_json", is_flag=True, help="Print the flags as JSON.")
def check(draft: IO[str], source_id: str | None, edition: str | None, as_json: bool) -> None:
    """Lint a draft translation: flag deprecated and mistranslated renderings (any inflection)
    with line, column, concept and the rendering to use, in the draft's word form; with
    --source or --edition, that book's rendering. One flag per occurrence. Exit status 1 when
    anything is flagged."""
    if source_id is not None and edition is not None:
        raise click.UsageError("Give --source or --edition, not both.")
    flags = check_draft(draft.read(), default_termbase(), default_finder(), source=source_id, edition=edition)
    if as_json:
        click.echo(json.dumps([vars(f) for f in flags], ensure_ascii=False, indent=1))
    else:
        name = getattr(draft, "name", "-")
        for flag in flags:
            click.echo(f"{name}:{flag}")
        click.echo(f"{len(flags)} flagged", err=True)
    if flags:
        sys.exit(1)


@terms.command("stats")
def stats() -> None:
    """A Markdown table per source: concepts, renderings, occurrences, inconsistencies
    (the table in docs/terms.md is this output)."""
    click.echo(stats_table(default_index()), nl=False)


@terms.command("unmapped")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def unmapped(as_json: bool) -> None:
    """English terms printed in the sources, and headings, that no concept or [[ignore]] entry
    accounts for. Exit status 1 when there are any."""
    missing = unmapped_english_terms(default_termbase())
    titles = unmapped_headings(default_termbase())
    if as_json:
        rows = [vars(t) for t in missing] + [
            {"source_id": h.source_id, "line": h.line, "text": h.text, "kind": "heading"} for h in titles
        ]
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        for term in missing:
            click.echo(f"{term.source_id}:{term.line}: {term.text!r} ({term.kind})")
        for heading in titles:
            click.echo(f"{heading.source_id}:{heading.line}: {heading.text!r} (heading)")
    if missing or titles:
        sys.exit(1)


def _format_row(row: KwicRow, width: int) -> str:
    page = f" с. {row.page}" if row.page is not None else ""
    where = f"{row.source_id}:{row.line}{page}"
    sense = f"  ⟨{row.concept_id}: {row.evidence}⟩" if row.evidence else ""
    return f"{where:<20} {row.left:>{width}} [{row.match}] {row.right}{sense}"


@click.command("kwic")
@click.argument("term", nargs=-1, required=True)
@_SOURCE
@click.option("--width", "-w", default=50, show_default=True, type=click.IntRange(5, 400), help="Characters of context each side.")
@click.option("--phrase", "-p", is_flag=True, help="Search TERM as a literal phrase (any inflection), even if it names a concept.")
@click.option("--json", "as_json", is_flag=True, help="Print rows as JSON.")
def kwic_command(term: tuple[str, ...], source_id: str | None, width: int, phrase: bool, as_json: bool) -> None:
    """Every occurrence of a concept's renderings in context, with source, page and line; for a
    string that renders several concepts, the sense each line counts for and why.

    TERM is a concept (id, English, Russian, slang) or, failing that — and always with
    --phrase — a literal phrase."""
    _check_source(source_id)
    text = " ".join(term)
    rows = kwic(text, source_id, width, phrase=phrase)
    if not rows:
        close = _closest(text)
        hint = f" Closest terms: {', '.join(close)}." if close else ""
        raise QueryError(f"No occurrence of {text!r} in the sources.{hint}")
    if as_json:
        click.echo(json.dumps([vars(r) for r in rows], ensure_ascii=False, indent=1))
        return
    for row in rows:
        click.echo(_format_row(row, width))


COMMANDS: list[click.Command] = [terms, kwic_command]
