"""Reading the FAQ: the source data (:func:`load_faq`), the build stage that checks and writes it
(:func:`stage_faq`) and the built ``faq.json`` (:func:`load_built_faq`)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rulekb.corpus.citations import normalise_space
from rulekb.corpus.reader import load_manifest
from rulekb.kb.context import BuildContext
from rulekb.kb.faq.citations import check_citations
from rulekb.kb.faq.model import FAQ_PATH, FaqEntry, FaqError

__all__ = ["load_built_faq", "load_faq", "stage_faq"]


def _one_line(text: str) -> str:
    return normalise_space(text)


def load_built_faq(build_dir: Path) -> list[FaqEntry]:
    """The FAQ as the last build checked and wrote it (``build/faq.json``); empty for a build
    made before the FAQ stage existed."""
    path = build_dir / "faq.json"
    if not path.is_file():
        return []
    return [FaqEntry.model_validate(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]


def stage_faq(ctx: BuildContext) -> None:
    """Build stage: validate ``faq.toml``, check every quote against its lines, write ``faq.json``.

    A quote that is not in its cited lines fails the build (the last good build stays): an FAQ
    answer must never cite text that is not there."""
    entries = load_faq(FAQ_PATH)
    problems = check_citations(entries)
    if problems:
        raise FaqError(f"{FAQ_PATH.name}: {len(problems)} citation(s) do not hold, first: {problems[0]}")
    (ctx.out / "faq.json").write_text(
        json.dumps([e.model_dump(mode="json") for e in entries], ensure_ascii=False, sort_keys=True, indent=1) + "\n",
        encoding="utf-8",
    )
    ctx.counts["faq"] = len(entries)


def load_faq(path: Path = FAQ_PATH) -> list[FaqEntry]:
    """Read and validate ``faq.toml``; any problem raises one-line :class:`FaqError`."""
    if not path.is_file():
        raise FaqError(f"FAQ file {str(path)!r} not found: restore kb/data/faq.toml from git.")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise FaqError(f"{path.name}: not valid TOML: {_one_line(str(exc))}. Fix the syntax.") from exc
    raw_entries = data.get("faq")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise FaqError(f"{path.name}: no [[faq]] entries; add at least one.")
    editions = {source.id: source.edition for source in load_manifest()}
    entries: list[FaqEntry] = []
    seen: set[str] = set()
    for number, raw in enumerate(raw_entries, start=1):
        if not isinstance(raw, dict):
            raise FaqError(f"{path.name}: faq #{number} is {raw!r}, not a table; write it as [[faq]].")
        label = f"{path.name} [[faq]] #{number} ({raw.get('id', '?')!r})"
        entry = _validate(raw, label)
        if entry.id in seen:
            raise FaqError(f"{label}: field 'id': duplicate id {entry.id!r}; ids must be unique.")
        seen.add(entry.id)
        for index, citation in enumerate(entry.citations):
            if citation.source not in editions:
                raise FaqError(
                    f"{label}: field 'citation.{index}.source': unknown source {citation.source!r}; "
                    f"known sources: {', '.join(sorted(editions))}."
                )
        if all(editions[c.source] != entry.edition for c in entry.citations):
            raise FaqError(
                f"{label}: field 'citation': no citation is from an edition-{entry.edition} source; "
                "cite the rule of the edition the question is about."
            )
        entries.append(entry)
    return entries


def _validate(raw: dict[str, Any], label: str) -> FaqEntry:
    try:
        return FaqEntry.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "entry"
        message = _one_line(str(first["msg"])).removeprefix("Value error, ")
        value = first.get("input")
        shown = "" if isinstance(value, dict) else f" (got {_one_line(repr(value))[:80]})"
        raise FaqError(f"{label}: field {where!r}: {message}{shown}.") from exc
