"""Worked examples as data: load, validate, run through the engine, check the quotes against the text.

Each ``kb/examples/*.toml`` holds ``[[example]]`` tables::

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
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulekb.corpus.citations import NodeLike, missing_quotes, overlapping_nodes
from rulekb.corpus.errors import CorpusError, ExampleError
from rulekb.corpus.reader import find_source, read_lines
from rulekb.engine.errors import EngineError
from rulekb.engine.runners import RUNNERS, run
from rulekb.engine.table import parse_table, render_svg
from rulekb.kb.paths import EXAMPLES_DIR

__all__ = [
    "EXAMPLES_DIR",
    "Citation",
    "Example",
    "ExampleResult",
    "check_quotes",
    "load_examples",
    "matches",
    "resolve_rule_ids",
    "run_example",
    "run_examples",
    "to_json_value",
]

EXAMPLES_DIR = EXAMPLES_DIR
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_FIELDS = {"id", "title", "printed", "concepts", "rule_ids", "run", "explanation", "citations", "inputs", "expected",
           "positions", "figure"}


@dataclass(frozen=True)
class Citation:
    source: str
    lines: tuple[int, int]
    quotes: tuple[str, ...]


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    file: str
    run: str
    citations: tuple[Citation, ...]
    inputs: Mapping[str, Any]
    expected: Mapping[str, Any]
    explanation: str
    concepts: tuple[str, ...] = ()
    rule_ids: tuple[str, ...] = ()
    printed: bool = False
    positions: Mapping[str, Any] | None = None
    """The table state (``rulekb.engine.table.state.parse_table``): the runner reads it as ``inputs.table``."""
    figure: Citation | None = None
    """A lost diagram this example restores: its caption's line(s), quoted."""


@dataclass
class ExampleResult:
    example: Example
    result: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _fail(path: Path, example_id: str, field_name: str, message: str) -> ExampleError:
    return ExampleError(f"{path.name}: example {example_id!r}: field {field_name!r}: {message}")


def _citation(path: Path, eid: str, index: int, raw: Any) -> Citation:
    where = f"citations[{index}]"
    if not isinstance(raw, Mapping):
        raise _fail(path, eid, where, "must be a table {source = ..., lines = [a, b], quotes = [...]}.")
    unknown = set(raw) - {"source", "lines", "quotes"}
    if unknown:
        raise _fail(path, eid, f"{where}.{sorted(unknown)[0]}", "unknown field; use source, lines and quotes.")
    source = raw.get("source")
    try:
        find_source(str(source))
    except CorpusError as exc:  # names the known sources
        raise _fail(path, eid, f"{where}.source", exc.message) from exc
    lines = raw.get("lines")
    if (
        not isinstance(lines, list)
        or len(lines) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in lines)
        or not 1 <= lines[0] <= lines[1]
    ):
        raise _fail(path, eid, f"{where}.lines", f"must be [first, last] with 1 <= first <= last, got {lines!r}.")
    total = len(read_lines(str(source)))
    if lines[1] > total:
        raise _fail(path, eid, f"{where}.lines", f"{source} has {total} lines; {lines!r} runs past the end.")
    quotes = raw.get("quotes", [])
    if not isinstance(quotes, list) or not quotes or not all(isinstance(q, str) and q.strip() for q in quotes):
        raise _fail(path, eid, f"{where}.quotes", "must be a non-empty list of exact quotes from those lines.")
    return Citation(str(source), (lines[0], lines[1]), tuple(quotes))


def _example(path: Path, raw: Any, index: int) -> Example:
    if not isinstance(raw, Mapping):
        raise ExampleError(f"{path.name}: [[example]] #{index} is not a table.")
    eid = raw.get("id")
    if not isinstance(eid, str) or not _SLUG.match(eid):
        raise ExampleError(f"{path.name}: [[example]] #{index}: field 'id' must be a slug like '10e-blast', got {eid!r}.")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise _fail(path, eid, sorted(unknown)[0], f"unknown field; known fields: {', '.join(sorted(_FIELDS))}.")
    for name in ("title", "run", "explanation"):
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise _fail(path, eid, name, "is required and must be a non-empty string.")
    if raw["run"] not in RUNNERS:
        raise _fail(path, eid, "run", f"unknown runner {raw['run']!r}; known: {', '.join(sorted(RUNNERS))}.")
    for name in ("concepts", "rule_ids"):
        value = raw.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail(path, eid, name, "must be a list of strings.")
    bad = [c for c in raw.get("concepts", []) if not _SLUG.match(c)]
    if bad or not raw.get("concepts"):
        raise _fail(path, eid, "concepts", f"needs at least one English slug concept id (bad: {bad!r}).")
    for name in ("inputs", "expected"):
        if not isinstance(raw.get(name), Mapping):
            raise _fail(path, eid, name, "is required and must be a table.")
    if not raw["expected"]:
        raise _fail(path, eid, "expected", "must name at least one result to check.")
    citations = raw.get("citations")
    if not isinstance(citations, list) or not citations:
        raise _fail(path, eid, "citations", "needs at least one citation of the rule's lines.")
    printed = raw.get("printed", False)
    if not isinstance(printed, bool):
        raise _fail(path, eid, "printed", "must be true or false.")
    positions = raw.get("positions")
    if positions is not None:
        if not isinstance(positions, Mapping):
            raise _fail(path, eid, "positions", "must be a table of units, terrain, objectives and moves.")
        if "table" in raw["inputs"]:
            raise _fail(path, eid, "inputs.table", "the table comes from 'positions'; remove inputs.table.")
        try:
            parse_table(positions)
        except EngineError as exc:
            raise _fail(path, eid, "positions", str(exc)) from exc
    figure = _citation(path, eid, 0, raw["figure"]) if "figure" in raw else None
    return Example(
        id=eid,
        title=raw["title"].strip(),
        file=path.name,
        run=raw["run"],
        citations=tuple(_citation(path, eid, i, c) for i, c in enumerate(citations)),
        inputs=dict(raw["inputs"]),
        expected=dict(raw["expected"]),
        explanation=" ".join(raw["explanation"].split()),
        concepts=tuple(raw["concepts"]),
        rule_ids=tuple(raw.get("rule_ids", [])),
        printed=printed,
        positions=dict(positions) if positions is not None else None,
        figure=figure,
    )


def load_examples(directory: Path = EXAMPLES_DIR) -> list[Example]:
    """Every example of every ``*.toml`` file, validated; ids must be unique across files."""
    examples: list[Example] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ExampleError(f"{path.name}: not valid TOML: {exc}. Fix the syntax.") from exc
        entries = data.get("example")
        if not isinstance(entries, list):
            raise ExampleError(f"{path.name}: no [[example]] tables; each file holds a list of them.")
        for index, raw in enumerate(entries, start=1):
            example = _example(path, raw, index)
            if example.id in seen:
                raise _fail(path, example.id, "id", f"already used in {seen[example.id]}; ids must be unique.")
            seen[example.id] = path.name
            examples.append(example)
    return examples


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
            cited = example.citations + ((example.figure,) if example.figure is not None else ())
            rule_ids += [r for r in resolve_rule_ids(cited, node_list) if r not in rule_ids]
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
