"""Worked examples run through the engine, their quotes checked against the text.

The files are read and validated by :mod:`rulekb.kb.examples.model` (schema:
``kb/examples/examples.schema.json``). Each ``kb/examples/*.toml`` holds ``[[example]]`` tables::

    [[example]]
    id = "10e-rapid-fire-half-range"          # a slug, unique across all files
    title = "Rapid Fire 1 at half range"
    printed = true                             # the book prints this example (else: a dice rule's example)
    concepts = ["rapid-fire"]
    rule_ids = []                              # optional; node ids are resolved from the citations
    run = "tenth.rapid_fire"                   # an engine runner (rulekb.engine.runners.RUNNERS)
    explanation = "..."
    citations = [{source = "10e-core", lines = [732, 738], quotes = ["exact text of those lines"]}]
    [example.inputs]
    ...
    [example.expected]                         # exact: fractions as strings, "7/12"
    ...

A quote must be a substring of the cited raw lines once whitespace is collapsed and no-break spaces
are made plain. ``run_examples`` returns the ``rulekb examples --json`` contract.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulekb.corpus.citations import NodeLike, missing_quotes, overlapping_nodes
from rulekb.corpus.reader import find_source
from rulekb.engine.errors import EngineError
from rulekb.engine.runners import run
from rulekb.engine.table import parse_table, render_svg
from rulekb.kb.examples.model import EXAMPLES_DIR, Citation, Example, load_examples

__all__ = [
    "EXAMPLES_DIR",
    "Citation",
    "Example",
    "ExampleResult",
    "check_quotes",
    "example_rule_ids",
    "load_examples",
    "matches",
    "resolve_rule_ids",
    "run_example",
    "run_examples",
    "to_json_value",
]


@dataclass
class ExampleResult:
    example: Example
    result: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# --- checking ---------------------------------------------------------------------------------------


def check_quotes(citation: Citation) -> list[str]:
    """Problems with the citation's quotes: each must occur in the cited lines (whitespace collapsed)."""
    a, b = citation.lines
    return [
        f"quote {quote!r} is not in {citation.source} lines {a}-{b}"
        for quote in missing_quotes(citation.source, citation.lines, citation.quotes)
    ]


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+(?:/\d+)?\s*", value):
        return Fraction(value.strip())
    return None


def matches(expected: Any, actual: Any) -> bool:
    """Whether ``actual`` agrees with ``expected``: numbers exactly (``"7/12"`` equals ``Fraction(7, 12)``),
    floats to 1e-9, tables on the keys ``expected`` names, lists item by item."""
    if isinstance(expected, Mapping):
        return isinstance(actual, Mapping) and all(
            k in actual and matches(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return isinstance(actual, list | tuple) and len(expected) == len(actual) and all(
            matches(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, float):
        number = _number(actual) if not isinstance(actual, float) else Fraction(actual)
        return number is not None and math.isclose(float(number), expected, rel_tol=1e-9, abs_tol=1e-12)
    exp_n, act_n = _number(expected), _number(actual)
    if exp_n is not None and (act_n is not None or isinstance(actual, float)):
        return act_n == exp_n if act_n is not None else math.isclose(float(exp_n), actual)
    return bool(expected == actual)


def to_json_value(value: Any) -> Any:
    """Fractions as ``"a/b"`` strings (integers stay integers), recursively."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    if isinstance(value, Mapping):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_value(v) for v in value]
    return value


def run_example(example: Example) -> ExampleResult:
    """Run one example and check its expected values and quotes."""
    out = ExampleResult(example)
    for citation in example.citations:
        out.problems.extend(check_quotes(citation))
    if example.figure is not None:
        out.problems.extend(f"caption: {p}" for p in check_quotes(example.figure))
    inputs = dict(example.inputs)
    if example.positions is not None:
        inputs["table"] = example.positions
    try:
        out.result = run(example.run, inputs)
    except EngineError as exc:
        out.problems.append(f"runner {example.run!r} refused the inputs: {exc}")
        return out
    for key, value in example.expected.items():
        if key not in out.result:
            out.problems.append(f"result has no {key!r} (it has {', '.join(sorted(out.result))})")
        elif not matches(value, out.result[key]):
            out.problems.append(f"{key}: expected {value!r}, the engine gives {to_json_value(out.result[key])!r}")
    return out


def _table_fields(example: Example) -> dict[str, Any]:
    """``positions`` and the diagram drawn from them (``svg``), and the restored ``figure``'s caption."""
    out: dict[str, Any] = {}
    if example.positions is not None:
        out["positions"] = to_json_value(example.positions)
        caption = " ".join(example.figure.quotes) if example.figure is not None else ""
        out["svg"] = render_svg(parse_table(example.positions), example.title, example.id, caption=caption)
    if example.figure is not None:
        f = example.figure
        out["figure"] = {"source": f.source, "source_sha256": find_source(f.source).sha256, "lines": list(f.lines),
                         "caption": list(f.quotes)}
    return out


def resolve_rule_ids(citations: Iterable[Citation], nodes: Iterable[NodeLike]) -> list[str]:
    """Ids of the leaf nodes whose line spans overlap a citation of the same source, in node order."""
    node_list = list(nodes)
    found = {
        node_id
        for citation in citations
        for node_id in overlapping_nodes(citation.source, citation.lines, node_list)
    }
    return [node.id for node in node_list if node.id in found]


def example_rule_ids(example: Example, nodes: Sequence[NodeLike]) -> list[str]:
    """The rules ``example`` demonstrates: the ids it names, then the leaves its citations and its
    figure overlap (the graph's «demonstrates» edges and ``rulekb examples --json`` both read it)."""
    named = list(example.rule_ids)
    cited = example.citations + ((example.figure,) if example.figure is not None else ())
    return named + [r for r in resolve_rule_ids(cited, nodes) if r not in named]


def run_examples(
    examples: Sequence[Example] | None = None, nodes: Iterable[NodeLike] | None = None
) -> list[dict[str, Any]]:
    """The ``rulekb examples --json`` contract for every example. With ``nodes`` (the parsed corpus),
    ``rule_ids`` adds the leaves overlapping the citations to the ids the example names."""
    examples = load_examples() if examples is None else examples
    node_list = list(nodes) if nodes is not None else None
    out: list[dict[str, Any]] = []
    for example in examples:
        checked = run_example(example)
        rule_ids = list(example.rule_ids)
        if node_list is not None:
            known = {n.id for n in node_list}
            checked.problems.extend(f"rule id {r!r} is not a node" for r in rule_ids if r not in known)
            rule_ids = example_rule_ids(example, node_list)
        out.append({
            "id": example.id,
            "title": example.title,
            "printed": example.printed,
            "file": example.file,
            "run": example.run,
            "rule_ids": rule_ids,
            "concepts": list(example.concepts),
            "citations": [
                {
                    "source": c.source,
                    "source_sha256": find_source(c.source).sha256,
                    "lines": list(c.lines),
                    "quotes": list(c.quotes),
                }
                for c in example.citations
            ],
            "inputs": to_json_value(example.inputs),
            "expected": to_json_value(example.expected),
            "result": to_json_value(checked.result),
            "explanation": example.explanation,
            "ok": checked.ok,
            "problems": checked.problems,
            **_table_fields(example),
        })
    return out
