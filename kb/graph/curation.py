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

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekb.corpus.citations import normalise_space
from rulekb.corpus.errors import LinkError
from rulekb.corpus.models import NON_RULE_KINDS, RuleNode
from rulekb.kb.paths import DATA_DIR, EXAMPLES_DIR, PROJECT_ROOT

__all__ = [
    "DEFAULT_DEFINES",
    "DEFAULT_EXAMPLES",
    "CuratedDefine",
    "CuratedReference",
    "Curation",
    "LinkIssue",
    "Mechanic",
    "Undefined",
    "covering_leaves",
    "load_curation",
    "load_examples",
    "normalise_space",
    "project_path",
    "span_text",
]

DEFAULT_DEFINES = DATA_DIR / "defines.toml"
DEFAULT_EXAMPLES = EXAMPLES_DIR


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


def load_curation(path: Path | None = None) -> Curation:
    """Read ``defines.toml`` (default :data:`DEFAULT_DEFINES`); shape errors raise
    :class:`LinkError` naming the entry."""
    path = path if path is not None else DEFAULT_DEFINES
    if not path.is_file():
        return Curation(path)
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LinkError(f"{path.name}: not valid TOML: {exc}. Fix the syntax.") from exc
    unknown = sorted(set(data) - {"schema", "define", "reference", "mechanic", "undefined"})
    if unknown:
        raise LinkError(f"{path.name}: unknown table {unknown[0]!r}; use [[define]], [[reference]], [[mechanic]], [[undefined]].")
    curation = Curation(path)

    def need(entry: dict[str, Any], key: str, kind: type, table: str, line: int) -> Any:
        value = entry.get(key)
        if not isinstance(value, kind):
            raise LinkError(f"{path.name}:{line}: [[{table}]] needs {key!r} as {kind.__name__} (got {value!r}).")
        return value

    def span(entry: dict[str, Any], key: str, table: str, line: int) -> tuple[int, int]:
        value = need(entry, key, list, table, line)
        if len(value) != 2 or not all(isinstance(v, int) for v in value) or not 0 < value[0] <= value[1]:
            raise LinkError(f"{path.name}:{line}: [[{table}]] {key!r} must be [first, last] line numbers, got {value!r}.")
        return (value[0], value[1])

    for line, entry in zip(_entry_lines(text, "define"), data.get("define", []), strict=False):
        curation.defines.append(
            CuratedDefine(
                concept=need(entry, "concept", str, "define", line),
                source=need(entry, "source", str, "define", line),
                lines=span(entry, "lines", "define", line),
                quote=need(entry, "quote", str, "define", line),
                line=line,
                start=str(entry.get("start", "")),
                end=str(entry.get("end", "")),
            )
        )
    for line, entry in zip(_entry_lines(text, "undefined"), data.get("undefined", []), strict=False):
        curation.undefined.append(
            Undefined(
                concept=need(entry, "concept", str, "undefined", line),
                source=need(entry, "source", str, "undefined", line),
                reason=need(entry, "reason", str, "undefined", line),
                line=line,
            )
        )
    for line, entry in zip(_entry_lines(text, "reference"), data.get("reference", []), strict=False):
        curation.references.append(
            CuratedReference(
                source=need(entry, "source", str, "reference", line),
                line=need(entry, "line", int, "reference", line),
                text=need(entry, "text", str, "reference", line),
                target=span(entry, "target", "reference", line) if "reason" not in entry else None,
                reason=str(entry.get("reason", "")),
                entry_line=line,
            )
        )
    for line, entry in zip(_entry_lines(text, "mechanic"), data.get("mechanic", []), strict=False):
        concepts = need(entry, "concepts", list, "mechanic", line)
        curation.mechanics.append(
            Mechanic(need(entry, "id", str, "mechanic", line), tuple(concepts), str(entry.get("note", "")), line)
        )
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


def _example_entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    if isinstance(data.get("example"), list):
        return [e for e in data["example"] if isinstance(e, dict)]
    return [data] if "id" in data else []


def load_examples(
    nodes: Sequence[RuleNode], directory: Path | None = None
) -> tuple[list[dict[str, Any]], list[LinkIssue]]:
    """The worked examples of ``kb/examples/*.toml`` as ``{"id", "title", "concepts", "rule_ids"}``.

    An example demonstrates the rule ids it names and the rule leaves covering its citations
    (``source`` + ``lines``); a named id that is not a node is a dangling link (an error)."""
    directory = directory if directory is not None else DEFAULT_EXAMPLES
    known = {n.id for n in nodes}
    examples: list[dict[str, Any]] = []
    issues: list[LinkIssue] = []
    for path in sorted(directory.glob("*.toml")) if directory.is_dir() else []:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            issues.append(LinkIssue("error", project_path(path), 1, f"not valid TOML: {exc}", "bad-example"))
            continue
        for entry in _example_entries(data):
            example_id = str(entry["id"])
            targets: list[str] = []
            named = entry.get("rule_ids", entry.get("rules", []))
            for rule_id in named if isinstance(named, list) else []:
                if rule_id in known:
                    targets.append(str(rule_id))
                else:
                    issues.append(
                        LinkIssue("error", project_path(path), 1, f"example {example_id!r} names unknown rule id {rule_id!r}", "dangling")
                    )
            for citation in entry.get("citations", []) if isinstance(entry.get("citations"), list) else []:
                lines = citation.get("lines") if isinstance(citation, dict) else None
                source = citation.get("source") if isinstance(citation, dict) else None
                if isinstance(source, str) and isinstance(lines, list) and len(lines) == 2:
                    targets.extend(n.id for n in covering_leaves(nodes, source, (int(lines[0]), int(lines[1]))))
            examples.append(
                {
                    "id": example_id,
                    "title": str(entry.get("title", "")),
                    "concepts": [str(c) for c in entry.get("concepts", [])],
                    "rule_ids": sorted(set(targets)),
                }
            )
    return sorted(examples, key=lambda e: e["id"]), issues

