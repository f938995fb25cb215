"""Reading the FAQ: the source data (:func:`load_faq`), the build stage that checks and writes it
(:func:`stage_faq`) and the built ``faq.json`` (:func:`load_built_faq`)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from rulekb.corpus.reader import load_manifest
from rulekb.kb.context import BuildContext
from rulekb.kb.datafile import read_toml, validation_problem
from rulekb.kb.faq.citations import check_citations
from rulekb.kb.faq.model import FAQ_DIR, FaqEntry, FaqError

__all__ = ["load_built_faq", "load_faq", "stage_faq"]


def load_built_faq(build_dir: Path) -> list[FaqEntry]:
    """The FAQ as the last build checked and wrote it (``build/faq.json``); empty for a build
    made before the FAQ stage existed."""
    path = build_dir / "faq.json"
    if not path.is_file():
        return []
    return [FaqEntry.model_validate(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]


def stage_faq(ctx: BuildContext) -> None:
    """Build stage: validate ``kb/faq/*.toml``, check every quote against its lines, write ``faq.json``.

    A quote that is not in its cited lines fails the build (the last good build stays): an FAQ
    answer must never cite text that is not there."""
    entries = load_faq(FAQ_DIR)
    problems = check_citations(entries)
    if problems:
        raise FaqError(f"{FAQ_DIR.name}/: {len(problems)} citation(s) do not hold, first: {problems[0]}")
    (ctx.out / "faq.json").write_text(
        json.dumps([e.model_dump(mode="json") for e in entries], ensure_ascii=False, sort_keys=True, indent=1) + "\n",
        encoding="utf-8",
    )
    ctx.counts["faq"] = len(entries)


def load_faq(path: Path = FAQ_DIR) -> list[FaqEntry]:
    """Read and validate the FAQ: every ``*.toml`` of a directory in name order (``kb/faq/``, one
    file per source, named for it), or one file. Any problem raises a one-line :class:`FaqError`
    naming the file, the entry and the field."""
    sources = {source.id: source.edition for source in load_manifest()}
    if path.is_dir():
        files = sorted(path.glob("*.toml"))
        if not files:
            raise FaqError(f"No FAQ files (*.toml) in {str(path)!r}: restore kb/faq/ from git.")
    else:
        files = [path]
    entries: list[FaqEntry] = []
    seen: dict[str, str] = {}
    for file in files:
        source = file.stem if path.is_dir() else None
        if source is not None and source not in sources:
            raise FaqError(
                f"{file.name}: an FAQ file is named for the source it rules from; rename it to one of "
                f"{', '.join(f'{s}.toml' for s in sources)}."
            )
        for label, entry in _load_file(file, sources, source):
            if entry.id in seen:
                also = f" (also in {seen[entry.id]})" if seen[entry.id] != file.name else ""
                raise FaqError(f"{label}: field 'id': duplicate id {entry.id!r}{also}; ids must be unique.")
            seen[entry.id] = file.name
            entries.append(entry)
    return entries


def _load_file(path: Path, sources: dict[str, str], source: str | None) -> list[tuple[str, FaqEntry]]:
    """The entries of one FAQ file with their labels for messages; ``source``: the source every
    entry of the file must cite (the file's name), or ``None``."""
    data = read_toml(path, FaqError, missing=f"FAQ file {str(path)!r} not found: restore kb/faq/ from git.")
    raw_entries = data.get("faq")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise FaqError(f"{path.name}: no [[faq]] entries; add at least one.")
    entries: list[tuple[str, FaqEntry]] = []
    for number, raw in enumerate(raw_entries, start=1):
        if not isinstance(raw, dict):
            raise FaqError(f"{path.name}: faq #{number} is {raw!r}, not a table; write it as [[faq]].")
        label = f"{path.name} [[faq]] #{number} ({raw.get('id', '?')!r})"
        try:
            entry = FaqEntry.model_validate(raw)
        except ValidationError as exc:
            raise FaqError(f"{label}: {validation_problem(exc)}.") from exc
        _check_sources(label, entry, sources, source)
        entries.append((label, entry))
    return entries


def _check_sources(label: str, entry: FaqEntry, sources: dict[str, str], source: str | None) -> None:
    for index, citation in enumerate(entry.citations):
        if citation.source not in sources:
            raise FaqError(
                f"{label}: field 'citation.{index}.source': unknown source {citation.source!r}; "
                f"known sources: {', '.join(sorted(sources))}."
            )
    if all(sources[c.source] != entry.edition for c in entry.citations):
        raise FaqError(
            f"{label}: field 'citation': no citation is from an edition-{entry.edition} source; "
            "cite the rule of the edition the question is about."
        )
    if source is not None and all(c.source != source for c in entry.citations):
        raise FaqError(
            f"{label}: field 'citation': no citation is from {source}, the source this file holds; "
            f"move the entry to kb/faq/<source>.toml of a source it cites ({entry.citations[0].source}.toml)."
        )
