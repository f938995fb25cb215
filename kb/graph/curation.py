"""Curated link data and worked examples, read from ``kb/data/defines.toml`` and ``kb/examples/``.

``defines.toml`` holds three tables, all addressed by source and raw line numbers (never node
ids, which may change when the parser is tuned; lines resolve to nodes at build time):

* ``[[define]]`` — ``concept``, ``source``, ``lines = [a, b]``, ``quote`` (an exact substring of
  those lines, whitespace-insensitive): the passage that defines a concept in that source.
* ``[[reference]]`` — ``source``, ``line``, ``text`` (part of the printed reference), and
  either ``target = [a, b]`` (where the reference really points when the automatic resolution
  cannot tell: a section printed under another title) or ``reason`` (it points at no other
  node, e.g. at earlier sentences of its own passage; it is then reported with that reason).
* ``[[mechanic]]`` — ``id``, ``concepts = [...]``, ``note``: concepts that are one rule under
  different names in different editions (Leadership test / Battle-shock test), so their
  definitions are linked as the same concept.
* ``[[undefined]]`` — ``concept``, ``source``, ``reason``: the source names the concept but does
  not define it (it points to a page the corpus does not hold, or states only an exception), so
  no passage of it is the concept's definition, not even the automatic guess.

A ``[[define]]`` may also carry ``start`` and ``end``: text inside its first and last lines
where the passage begins and ends, when a line holds the end of one rule and the start of the
next (the 10th-edition stratagems run into each other).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rulekb.corpus.citations import normalise_space
from rulekb.corpus.errors import LinkError
from rulekb.corpus.models import NON_RULE_KINDS, RuleNode
from rulekb.kb.datafile import read_toml, validation_problem
from rulekb.kb.examples.model import Example
from rulekb.kb.examples.worked import example_rule_ids
from rulekb.kb.paths import DATA_DIR, EXAMPLES_DIR, PROJECT_ROOT

__all__ = [
    "DEFAULT_DEFINES",
    "CuratedDefine",
    "CuratedReference",
    "Curation",
    "LinkIssue",
    "Mechanic",
    "Undefined",
    "covering_leaves",
    "link_examples",
    "load_curation",
    "normalise_space",
    "project_path",
    "span_text",
]

DEFAULT_DEFINES = DATA_DIR / "defines.toml"


@dataclass(frozen=True)
class LinkIssue:
    """One problem the linker found: ``file:line: severity: message``."""

    severity: str
    """``error`` (wrong data we keep: fails ``--strict``) or ``warning`` (a fact about a text)."""
    file: str
    line: int
    message: str
    code: str = ""
    """A short name for the kind of problem: ``unresolved-reference``, ``no-definition``…"""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.message}"



@dataclass(frozen=True)
class CuratedDefine:
    concept: str
    source: str
    lines: tuple[int, int]
    quote: str
    line: int
    """Where the entry is in ``defines.toml`` (for messages)."""
    start: str = ""
    """Where the passage begins inside its first line, when that line also holds the end of
    another rule («…сделать.КОНТРОЛЬ ЗА ПОЖАРОМ1CP…»): the passage starts at this text."""
    end: str = ""
    """Where the passage ends inside its last line (it ends after this text), when the line
    runs on into the next rule."""


@dataclass(frozen=True)
class Undefined:
    """A source that names a concept but does not define it (it points to a page the corpus
    does not hold, or only states an exception): no passage of that source defines it, and the
    automatic guess is suppressed."""

    concept: str
    source: str
    reason: str
    line: int


@dataclass(frozen=True)
class CuratedReference:
    """A correction: the reference printed at ``source``:``line`` points at ``target`` lines, or
    (with ``reason`` instead) points at nothing another node holds."""

    source: str
    line: int
    text: str
    target: tuple[int, int] | None
    reason: str
    entry_line: int


@dataclass(frozen=True)
class Mechanic:
    """Concepts that are one rule under different names in different editions."""

    id: str
    concepts: tuple[str, ...]
    note: str
    line: int


@dataclass
class Curation:
    """What ``kb/data/defines.toml`` holds."""

    path: Path
    defines: list[CuratedDefine] = field(default_factory=list)
    references: list[CuratedReference] = field(default_factory=list)
    mechanics: list[Mechanic] = field(default_factory=list)
    undefined: list[Undefined] = field(default_factory=list)


def project_path(path: Path) -> str:
    """``path`` relative to the project root, for messages."""
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


# --- curated data --------------------------------------------------------------------------------


def _entry_lines(text: str, table: str) -> list[int]:
    """The line of each ``[[table]]`` header, in order (for messages that point into the file)."""
    return [i for i, line in enumerate(text.split("\n"), start=1) if line.strip() == f"[[{table}]]"]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _line_span(value: tuple[int, int]) -> tuple[int, int]:
    if not 0 < value[0] <= value[1]:
        raise ValueError(f"must be [first, last] line numbers, got {list(value)!r}")
    return value


class DefineEntry(_Entry):
    """``[[define]]``: the passage of ``source`` (``lines``, holding ``quote``) that defines ``concept``."""

    concept: str
    source: str
    lines: tuple[int, int]
    quote: str
    start: str = ""
    """Where the passage begins inside its first line (see :class:`CuratedDefine`)."""
    end: str = ""
    """Where the passage ends inside its last line."""

    @field_validator("lines")
    @classmethod
    def _span(cls, value: tuple[int, int]) -> tuple[int, int]:
        return _line_span(value)


class UndefinedEntry(_Entry):
    """``[[undefined]]``: ``source`` names ``concept`` but does not define it, and why."""

    concept: str
    source: str
    reason: str


class ReferenceEntry(_Entry):
    """``[[reference]]``: the reference printed at ``source``:``line`` points at ``target`` lines,
    or (with ``reason`` instead) at nothing another node holds."""

    source: str
    line: int
    text: str
    target: tuple[int, int] | None = None
    reason: str = ""

    @field_validator("target")
    @classmethod
    def _span(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        return value if value is None else _line_span(value)

    @model_validator(mode="after")
    def _target_or_reason(self) -> ReferenceEntry:
        if "reason" not in self.model_fields_set and self.target is None:
            raise ValueError("needs 'target' as [first, last] line numbers, or a 'reason' it points at nothing")
        return self


class MechanicEntry(_Entry):
    """``[[mechanic]]``: concepts that are one rule under different names in different editions."""

    id: str
    concepts: tuple[str, ...]
    note: str = ""


class DefinesFile(_Entry):
    """The whole ``kb/data/defines.toml`` (its JSON Schema: ``kb/data/defines.schema.json``)."""

    schema_version: int = Field(default=1, alias="schema")
    define: tuple[DefineEntry, ...] = ()
    undefined: tuple[UndefinedEntry, ...] = ()
    reference: tuple[ReferenceEntry, ...] = ()
    mechanic: tuple[MechanicEntry, ...] = ()


_E = TypeVar("_E", bound=_Entry)


def _entries(path: Path, text: str, data: dict[str, Any], table: str, model: type[_E]) -> list[tuple[int, dict[str, Any], _E]]:
    """``(line, raw, entry)`` for each ``[[table]]``, validated by ``model``; a bad one raises
    :class:`LinkError` with the file, the line of its header and the field."""
    out: list[tuple[int, dict[str, Any], _E]] = []
    for line, raw in zip(_entry_lines(text, table), data.get(table, []), strict=False):
        try:
            out.append((line, raw, model.model_validate(raw)))
        except ValidationError as exc:
            raise LinkError(f"{path.name}:{line}: [[{table}]] {validation_problem(exc)}.") from exc
    return out


def load_curation(path: Path | None = None) -> Curation:
    """Read ``defines.toml`` (default :data:`DEFAULT_DEFINES`), each table validated by its model
    (:class:`DefinesFile`); a bad entry raises :class:`LinkError` naming its line and field."""
    path = path if path is not None else DEFAULT_DEFINES
    if not path.is_file():
        return Curation(path)
    data = read_toml(path, LinkError, missing="")
    text = path.read_text(encoding="utf-8")
    unknown = sorted(set(data) - {"schema", "define", "reference", "mechanic", "undefined"})
    if unknown:
        raise LinkError(f"{path.name}: unknown table {unknown[0]!r}; use [[define]], [[reference]], [[mechanic]], [[undefined]].")
    curation = Curation(path)
    for line, _, define in _entries(path, text, data, "define", DefineEntry):
        curation.defines.append(
            CuratedDefine(define.concept, define.source, define.lines, define.quote, line, define.start, define.end)
        )
    for line, _, undefined in _entries(path, text, data, "undefined", UndefinedEntry):
        curation.undefined.append(Undefined(undefined.concept, undefined.source, undefined.reason, line))
    for line, raw, ref in _entries(path, text, data, "reference", ReferenceEntry):
        target = ref.target if "reason" not in raw else None
        curation.references.append(CuratedReference(ref.source, ref.line, ref.text, target, ref.reason, line))
    for line, _, mechanic in _entries(path, text, data, "mechanic", MechanicEntry):
        curation.mechanics.append(Mechanic(mechanic.id, mechanic.concepts, mechanic.note, line))
    return curation


def span_text(leaves: Iterable[RuleNode], lines: tuple[int, int]) -> str:
    """Raw lines ``lines`` as the leaves hold them, whitespace collapsed (for quote checks)."""
    a, b = lines
    parts: list[str] = []
    for leaf in leaves:
        for number, line in enumerate(leaf.text.split("\n"), start=leaf.lines[0]):
            if a <= number <= b:
                parts.append(line)
    return normalise_space(" ".join(parts))


def covering_leaves(nodes: Iterable[RuleNode], source_id: str, lines: tuple[int, int]) -> list[RuleNode]:
    """The rule leaves of ``source_id`` whose span overlaps ``lines``."""
    a, b = lines
    return [
        n
        for n in nodes
        if n.source_id == source_id and n.is_leaf and n.kind not in NON_RULE_KINDS and n.lines[0] <= b and a <= n.lines[1]
    ]



# --- worked examples -----------------------------------------------------------------------------


def link_examples(
    nodes: Sequence[RuleNode], examples: Iterable[Example]
) -> tuple[list[dict[str, Any]], list[LinkIssue]]:
    """The worked examples (:func:`rulekb.kb.examples.model.load_examples`) as graph entries
    ``{"id", "title", "concepts", "rule_ids"}``.

    An example demonstrates the rules :func:`rulekb.kb.examples.worked.example_rule_ids` finds; a
    named id that is not a node is a dangling link (an error)."""
    known = {n.id for n in nodes}
    linked: list[dict[str, Any]] = []
    issues: list[LinkIssue] = []
    for example in examples:
        where = project_path(EXAMPLES_DIR / example.file)
        targets = [r for r in example_rule_ids(example, nodes) if r in known]
        issues.extend(
            LinkIssue("error", where, 1, f"example {example.id!r} names unknown rule id {r!r}", "dangling")
            for r in example.rule_ids
            if r not in known
        )
        linked.append(
            {"id": example.id, "title": example.title, "concepts": list(example.concepts), "rule_ids": sorted(set(targets))}
        )
    return sorted(linked, key=lambda e: e["id"]), issues
