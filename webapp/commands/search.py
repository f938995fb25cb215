"""Search commands: search, ask, eval — thin wrappers over :mod:`rulekb.kb.search.searcher`, :mod:`rulekb.kb.ask.answer`, :mod:`rulekb.kb.evaluation.retrieval`.

The modules a command needs are imported inside it, so that ``rulekb --help`` and every other
command start without loading the index, the termbase or the engine."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import click
from click.decorators import FC

from rulekb.corpus.errors import QueryError
from rulekb.corpus.models import EDITIONS
from rulekb.kb.contracts import Ask, SearchResult, dump
from rulekb.webapp.commands.options import BUILD_DIR

EDITION = click.option(
    "--edition",
    type=click.Choice(list(EDITIONS)),
    default=None,
    help="Only this edition (otherwise an edition named in the question is preferred).",
)


def _limit_option(default: int) -> Callable[[FC], FC]:
    return click.option(
        "--limit", "-n", type=click.IntRange(1, 100), default=default, show_default=True, help="How many hits."
    )


LIMIT_5 = _limit_option(5)
LIMIT_10 = _limit_option(10)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def _terminal(snippet: str) -> str:
    """A snippet's ``<b>…</b>`` marks as bold on a terminal, entities unescaped."""
    import html

    parts = re.split(r"</?b>", snippet)
    return "".join(click.style(html.unescape(p), bold=bool(i % 2)) for i, p in enumerate(parts))


def _citation(hit: dict[str, Any]) -> str:
    from rulekb.corpus.reader import find_source
    from rulekb.webapp.commands.graph import cite

    return cite({**hit, "source_title": find_source(hit["source_id"]).title})


@click.command()
@click.argument("query")
@EDITION
@LIMIT_10
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON (the ask hit contract).")
@BUILD_DIR
def search(query: str, edition: str | None, limit: int, as_json: bool, build_dir: Path | None) -> None:
    """Search the rules: ranked passages with breadcrumb, citation and highlighted snippet."""
    from rulekb.kb.search.searcher import search as run_search

    result = run_search(query, edition=edition, limit=limit, build_dir=build_dir)
    hits = [hit.to_json() for hit in result.hits]
    if as_json:
        click.echo(
            _dumps(
                dump(SearchResult, {
                    "query": query,
                    "question": query,
                    "edition": result.parsed.edition,
                    "concepts": result.parsed.concepts,
                    "did_you_mean": result.did_you_mean,
                    "hits": hits,
                })
            )
        )
        return
    if result.did_you_mean:
        click.echo(f"Возможно, вы имели в виду: {result.did_you_mean}")
    if not hits:
        click.echo("Ничего не найдено.")
        return
    for number, hit in enumerate(hits, start=1):
        trail = " › ".join(hit["breadcrumb"])
        click.echo(f"{number}. {click.style(hit['heading'] or hit['title'], bold=True)}  [{hit['score']:.2f}]")
        if trail:
            click.echo(f"   {trail}")
        click.echo(f"   {_citation(hit)} — {hit['node_id']}")
        click.echo(f"   {_terminal(hit['snippet'])}")


def _rows(stream: TextIO, name: str) -> Iterator[dict[str, Any]]:
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QueryError(f"{name}:{number}: not a JSON object ({exc.msg}); expected {{\"id\", \"question\"}}.") from exc
        if not isinstance(row, dict):
            raise QueryError(f"{name}:{number}: expected a JSON object with \"id\" and \"question\".")
        yield row


@click.command()
@click.argument("question", required=False)
@EDITION
@LIMIT_5
@click.option("--json", "as_json", is_flag=True, help="Print the answer object (JSON contract).")
@click.option(
    "--batch",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="JSONL of {\"id\", \"question\"} ('-' for stdin); prints one JSON object per line.",
)
@click.option("--no-faq", is_flag=True, help="Answer from the rules only, without the curated FAQ.")
@click.option(
    "--play",
    type=click.Choice(list(EDITIONS)),
    default=None,
    envvar="RULEKB_EDITION",
    help="The edition you play (or set RULEKB_EDITION): a question naming no edition gets its card first.",
)
@BUILD_DIR
def ask(
    question: str | None,
    edition: str | None,
    limit: int,
    as_json: bool,
    batch: TextIO | None,
    no_faq: bool,
    play: str | None,
    build_dir: Path | None,
) -> None:
    """Answer a rules question: the ruling sentence, cited, with related passages."""
    from rulekb.kb.ask.answer import ask as run_ask
    from rulekb.kb.ask.answer import ask_batch
    from rulekb.webapp.commands.answer_text import format_answer

    if batch is not None:
        if question is not None:
            raise click.UsageError("Give either QUESTION or --batch FILE, not both.")
        name = getattr(batch, "name", "batch")
        for result in ask_batch(
            _rows(batch, name), edition=edition, limit=limit, build_dir=build_dir, use_faq=not no_faq, played=play
        ):
            sys.stdout.write(_dumps(dump(Ask, result)) + "\n")
        sys.stdout.flush()
        return
    if question is None:
        raise click.UsageError("Ask a QUESTION (in quotes) or give --batch FILE.jsonl.")
    result = run_ask(question, edition=edition, limit=limit, build_dir=build_dir, use_faq=not no_faq, played=play)
    if as_json:
        click.echo(_dumps(dump(Ask, result)))
        return
    click.echo(format_answer(result))


@click.command(name="eval")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--baseline",
    is_flag=True,
    help="Also rank raw lines with plain BM25 and print it beside ours; with --answers, score the card as "
    "composed before the answer card (the FAQ answer, else the first hit's answer sentence).",
)
@LIMIT_10
@click.option("--json", "as_json", is_flag=True, help="Print the metrics (and every question's rank) as JSON.")
@click.option("--no-faq", is_flag=True, help="Measure retrieval alone, without the curated FAQ.")
@click.option("--only", default=None, help="Only questions whose id starts with this prefix (e.g. 'e-').")
@click.option(
    "--answers",
    is_flag=True,
    help="Score the answer card instead: the share whose text carries every answer keyword, by kind, "
    "language, style and source; wrong-edition cards; FAQ precision.",
)
@BUILD_DIR
def evaluate(
    file: Path, baseline: bool, limit: int, as_json: bool, no_faq: bool, only: str | None, answers: bool,
    build_dir: Path | None,
) -> None:
    """Measure retrieval on FILE.jsonl: R@1, R@3, R@5, MRR@10 overall and by kind, language, source."""
    from rulekb.kb.evaluation.retrieval import baseline_ranker, evaluate_file
    from rulekb.webapp.commands.eval_text import format_answer_report, format_report

    if answers:
        from rulekb.kb.evaluation.answers import evaluate_answers, load_answer_rows

        rows = load_answer_rows(file)
        if only is not None:
            rows = [r for r in rows if r.id.startswith(only)]
        if not rows:
            raise QueryError(f"No question in {file.name} has answer_keywords{' and an id starting ' + repr(only) if only else ''}.")
        answer_report = evaluate_answers(rows, build_dir=build_dir, use_faq=not no_faq, baseline=baseline)
        if as_json:
            click.echo(json.dumps(answer_report.to_json(), ensure_ascii=False, indent=1, sort_keys=True))
        else:
            click.echo(format_answer_report(answer_report))
        return

    report = evaluate_file(
        file, limit=limit, build_dir=build_dir, use_faq=not no_faq, baseline=baseline_ranker if baseline else None,
        only=only,
    )
    if as_json:
        click.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=1, sort_keys=True))
        return
    click.echo(format_report(report))


COMMANDS = [search, ask, evaluate]
