"""The worked-example files' data model (``kb/examples/*.toml``): one :class:`Example` per
``[[example]]`` table, each citing the lines it demonstrates with :class:`Citation`.

Validation lives on the models (pydantic), so the loader (:func:`load_examples`), the graph's
example links and the published JSON Schema (``kb/examples/examples.schema.json``) check an example
the same way. A problem is reported as ``<file>: example '<id>': field '<where>': <what>``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic.json_schema import SkipJsonSchema

from rulekb.corpus.citations import normalise_space
from rulekb.corpus.errors import CorpusError, ExampleError
from rulekb.corpus.reader import find_source, read_lines
from rulekb.engine.errors import EngineError
from rulekb.engine.runners import RUNNERS
from rulekb.engine.table import parse_table
from rulekb.kb.datafile import read_toml
from rulekb.kb.paths import EXAMPLES_DIR

__all__ = ["EXAMPLES_DIR", "Citation", "Example", "ExamplesFile", "load_examples"]

_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_IS_SLUG = re.compile(_SLUG)


def _text(value: str) -> str:
    if not value.strip():
        raise ValueError("is required and must be a non-empty string.")
    return value


class Citation(BaseModel):
    """Lines of a source text and exact quotes from them (whitespace collapsed when compared).
    The model checks the shape; :func:`load_examples` checks the source and the lines exist."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    """Id of the cited text in ``corpus/sources.toml``, e.g. ``10e-core``."""
    lines: tuple[StrictInt, StrictInt]
    """1-based inclusive line span in the raw file."""
    quotes: tuple[str, ...] = Field(min_length=1)
    """Exact substrings of the cited raw lines."""

    @field_validator("lines")
    @classmethod
    def _span(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not 1 <= value[0] <= value[1]:
            raise ValueError(f"must be [first, last] with 1 <= first <= last, got {list(value)!r}.")
        return value

    @field_validator("quotes")
    @classmethod
    def _quotes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not all(q.strip() for q in value):
            raise ValueError("must be a non-empty list of exact quotes from those lines.")
        return value


class Example(BaseModel):
    """One worked example: an engine runner's inputs, the exact results the text implies, and the
    lines that say so."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=_SLUG)
    """A slug, unique across all files, e.g. ``10e-rapid-fire-half-range``."""
    title: str
    printed: StrictBool = False
    """The book prints this example (else it is a dice rule's example)."""
    concepts: tuple[str, ...]
    """English concept ids, at least one."""
    rule_ids: tuple[str, ...] = ()
    """Node ids it demonstrates beyond those its citations cover."""
    run: str
    """An engine runner (:data:`rulekb.engine.runners.RUNNERS`)."""
    explanation: str
    citations: tuple[Citation, ...] = Field(min_length=1)
    inputs: dict[str, Any]
    expected: dict[str, Any] = Field(min_length=1)
    """Exact results to check: fractions as strings, ``"7/12"``."""
    positions: dict[str, Any] | None = None
    """The table state (:func:`rulekb.engine.table.state.parse_table`): the runner reads it as ``inputs.table``."""
    figure: Citation | None = None
    """A lost diagram this example restores: its caption's line(s), quoted."""
    file: SkipJsonSchema[str] = ""
    """The file it was read from (set by the loader; not written in the file)."""

    @field_validator("title")
    @classmethod
    def _title(cls, value: str) -> str:
        return _text(value).strip()

    @field_validator("explanation")
    @classmethod
    def _explanation(cls, value: str) -> str:
        return " ".join(_text(value).split())

    @field_validator("run")
    @classmethod
    def _runner(cls, value: str) -> str:
        if value not in RUNNERS:
            raise ValueError(f"unknown runner {value!r}; known: {', '.join(sorted(RUNNERS))}.")
        return value

    @field_validator("concepts")
    @classmethod
    def _concepts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        bad = [c for c in value if not _IS_SLUG.match(c)]
        if bad or not value:
            raise ValueError(f"needs at least one English slug concept id (bad: {bad!r}).")
        return value

    @field_validator("positions")
    @classmethod
    def _positions(cls, value: dict[str, Any] | None, info: ValidationInfo) -> dict[str, Any] | None:
        if value is not None:
            if "table" in info.data.get("inputs", {}):
                raise ValueError("the table comes from 'positions'; remove inputs.table.")
            try:
                parse_table(value)
            except EngineError as exc:
                raise ValueError(str(exc)) from exc
        return value


class ExamplesFile(BaseModel):
    """One ``kb/examples/*.toml`` file: a list of ``[[example]]`` tables."""

    model_config = ConfigDict(extra="forbid")

    example: list[Example] = Field(min_length=1)


def _where(loc: tuple[int | str, ...]) -> str:
    """``citations[0].lines`` for pydantic's ``('citations', 0, 'lines')``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _example(path: Path, raw: Any, index: int) -> Example:
    if not isinstance(raw, Mapping):
        raise ExampleError(f"{path.name}: [[example]] #{index} is not a table.")
    eid = raw.get("id")
    if not isinstance(eid, str) or not _IS_SLUG.match(eid):
        raise ExampleError(f"{path.name}: [[example]] #{index}: field 'id' must be a slug like '10e-blast', got {eid!r}.")
    try:
        example = Example.model_validate({**raw, "file": path.name})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = _where(tuple(first["loc"])) or "entry"
        message = normalise_space(str(first["msg"])).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = f"unknown field; known fields: {', '.join(sorted(set(Example.model_fields) - {'file'}))}."
        elif first["type"] == "missing":
            message = "is required."
        raise ExampleError(f"{path.name}: example {eid!r}: field {where!r}: {message}") from exc
    cited = [(f"citations[{i}]", c) for i, c in enumerate(example.citations)]
    for where, citation in cited + ([("figure", example.figure)] if example.figure is not None else []):
        problem = _off_the_text(citation)
        if problem:
            field_name, message = problem
            raise ExampleError(f"{path.name}: example {eid!r}: field {where + '.' + field_name!r}: {message}")
    return example


def _off_the_text(citation: Citation) -> tuple[str, str] | None:
    """``(field, problem)`` when the citation's source is unknown or its lines run past the end."""
    try:
        find_source(citation.source)
    except CorpusError as exc:  # names the known sources
        return "source", exc.message
    total = len(read_lines(citation.source))
    if citation.lines[1] > total:
        return "lines", f"{citation.source} has {total} lines; {list(citation.lines)!r} runs past the end."
    return None


def load_examples(directory: Path = EXAMPLES_DIR) -> list[Example]:
    """Every example of every ``*.toml`` file, validated; ids must be unique across files."""
    examples: list[Example] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.toml")):
        data = read_toml(path, ExampleError, missing=f"{path.name}: not found.")
        entries = data.get("example")
        if not isinstance(entries, list):
            raise ExampleError(f"{path.name}: no [[example]] tables; each file holds a list of them.")
        for index, raw in enumerate(entries, start=1):
            example = _example(path, raw, index)
            if example.id in seen:
                raise ExampleError(
                    f"{path.name}: example {example.id!r}: field 'id': already used in {seen[example.id]}; ids must be unique."
                )
            seen[example.id] = path.name
            examples.append(example)
    return examples
