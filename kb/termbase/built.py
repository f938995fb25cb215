"""The termbase as the build serves it: what the web's termbase pages need, written by the build.

The build stage :func:`stage_termbase` writes, from the project termbase and the sources:

- ``termbase.json`` — the validated termbase itself (concepts in file order, ignored English),
  read back by :func:`termbase_from_json` into the same :class:`rulekb.kb.termbase.model.Termbase`, so the
  draft checker and the search's concept matcher come from the build, not from ``kb/data``;
- ``kwic.json`` — per concept, every occurrence of its renderings in context (``rulekb.kb.termbase.kwic``,
  :data:`KWIC_WIDTH` characters either side), so no request reads the raw texts;
- ``inconsistencies.json`` — the inconsistency report (``rulekb.kb.termbase.inconsistencies``);
- ``terms.tbx``, ``terms.tsv``, ``terms.csv`` — the exports, byte for byte what
  ``rulekb terms --tbx/--tsv/--csv`` prints.

:class:`Concept` and :class:`Rendering` are the pages' view of one ``terms.json`` record.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from rulekb.kb.context import BuildContext, dump_json
from rulekb.kb.termbase.export import to_csv, to_tbx, to_tsv
from rulekb.kb.termbase.lookup import kwic
from rulekb.kb.termbase.model import Concept as TermConcept
from rulekb.kb.termbase.model import IgnoredEnglish, Termbase, default_termbase
from rulekb.kb.termbase.occurrences import default_index
from rulekb.kb.termbase.report import inconsistencies

__all__ = [
    "EXPORTS",
    "KWIC_WIDTH",
    "Concept",
    "Rendering",
    "stage_termbase",
    "termbase_from_json",
    "termbase_to_json",
]

#: Characters of context either side of a KWIC match on the termbase pages.
KWIC_WIDTH = 50
#: Export kind → the file the build writes it to.
EXPORTS: dict[str, str] = {"tbx": "terms.tbx", "tsv": "terms.tsv", "csv": "terms.csv"}


@dataclass(frozen=True)
class Rendering:
    """One Russian rendering of a concept in one source."""

    source_id: str
    text: str
    status: str
    count: int
    lines: tuple[int, ...]
    note: str = ""
    source_sha256: str = ""


@dataclass(frozen=True)
class Concept:
    """A termbase concept as the pages show it (the ``rulekb terms --json`` object)."""

    id: str
    english: str
    category: str
    definition: str
    aliases: tuple[str, ...]
    renderings: tuple[Rendering, ...]
    abbreviation: str = ""

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Concept:
        renderings = []
        for item in raw.get("renderings") or ():
            lines = item.get("lines") or ()
            renderings.append(
                Rendering(
                    source_id=str(item.get("source_id", "")),
                    text=str(item.get("text", "")),
                    status=str(item.get("status", "")),
                    count=int(item.get("count") or 0),
                    lines=tuple(int(x) for x in lines if isinstance(x, int)),
                    note=str(item.get("note") or ""),
                    source_sha256=str(item.get("source_sha256") or ""),
                )
            )
        return cls(
            id=str(raw.get("concept") or raw.get("id") or ""),
            english=str(raw.get("english", "")),
            category=str(raw.get("category", "")),
            definition=str(raw.get("definition", "")),
            aliases=tuple(str(a) for a in raw.get("aliases") or ()),
            renderings=tuple(renderings),
            abbreviation=str(raw.get("abbreviation") or ""),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "concept": self.id,
            "english": self.english,
            "category": self.category,
            "definition": self.definition,
            "abbreviation": self.abbreviation,
            "aliases": list(self.aliases),
            "renderings": [
                {
                    "source_id": r.source_id,
                    "source_sha256": r.source_sha256,
                    "text": r.text,
                    "status": r.status,
                    "count": r.count,
                    "lines": list(r.lines),
                    "note": r.note,
                }
                for r in self.renderings
            ],
        }


def termbase_to_json(termbase: Termbase) -> dict[str, Any]:
    """The validated termbase as JSON (concepts in file order; read back by :func:`termbase_from_json`)."""
    return {
        "concepts": [c.model_dump(mode="json") for c in termbase],
        "ignore": [i.model_dump(mode="json") for i in termbase.ignore],
    }


def termbase_from_json(data: dict[str, Any]) -> Termbase:
    """The :class:`Termbase` a build wrote (already validated by the build: no source-tree checks)."""
    concepts = [TermConcept.model_validate(raw) for raw in data.get("concepts") or ()]
    ignore = [IgnoredEnglish.model_validate(raw) for raw in data.get("ignore") or ()]
    return Termbase(concepts, ignore)


def _row_json(row: Any) -> dict[str, Any]:
    found: dict[str, Any] = dataclasses.asdict(row)
    found["candidates"] = list(found.get("candidates") or ())
    return found


def stage_termbase(ctx: BuildContext) -> None:
    """Build stage: the termbase, its KWIC lines, its inconsistency report and its exports."""
    termbase = default_termbase()
    index = default_index()
    dump_json(ctx.out / "termbase.json", termbase_to_json(termbase))
    rows = {c.id: [_row_json(row) for row in kwic(c.id, width=KWIC_WIDTH, index=index)] for c in termbase}
    dump_json(ctx.out / "kwic.json", rows)
    dump_json(ctx.out / "inconsistencies.json", inconsistencies(index).to_json())
    exporters = {"tbx": to_tbx, "tsv": to_tsv, "csv": to_csv}
    for kind, name in EXPORTS.items():
        with (ctx.out / name).open("w", encoding="utf-8", newline="") as handle:
            handle.write(exporters[kind](index))
