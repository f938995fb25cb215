"""Load the manifest and the raw texts, verifying each against its recorded sha256.

Line numbers are citations: ``lines[0]`` is line 1, split on ``\\n`` exactly as ``sed -n`` counts
(the texts do not end with a newline; the last line still counts).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from rulekb.corpus.editions import CORPUS_DIR, MANIFEST, load_editions, read_manifest_toml
from rulekb.corpus.errors import CorpusError
from rulekb.corpus.models import EDITIONS, Source

__all__ = [
    "CORPUS_DIR",
    "RawText",
    "find_source",
    "load_manifest",
    "read_lines",
    "read_source",
]

REQUIRED_FIELDS = ("id", "file", "title", "edition", "game", "translation", "sha256")


@dataclass(frozen=True)
class RawText:
    """A verified source text."""

    source: Source
    path: Path
    text: str
    sha256: str

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def load_manifest(path: Path = MANIFEST) -> list[Source]:
    """Read ``sources.toml``; every entry must name its fields and a known edition."""
    data = read_manifest_toml(path)
    entries = data.get("source", [])
    if not entries:
        raise CorpusError(f"Manifest {str(path)!r} lists no [[source]] entries: add one per text.")
    # a manifest with its own [[edition]] table is checked against it, one without against this corpus's
    known = [e.id for e in load_editions(path)] if data.get("edition") else list(EDITIONS)
    sources: list[Source] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        label = f"{path.name} [[source]] #{number} ({entry.get('id', '?')!r})"
        missing = [name for name in REQUIRED_FIELDS if name not in entry]
        if missing:
            raise CorpusError(f"{label}: missing field {missing[0]!r}; add it (required: {', '.join(REQUIRED_FIELDS)}).")
        if str(entry["edition"]) not in known:
            raise CorpusError(
                f"{label}: unknown edition {entry['edition']!r}; use one of {', '.join(map(repr, known))} "
                "or add an [[edition]] entry for it."
            )
        try:
            source = Source.model_validate({**entry, "edition": str(entry["edition"])})
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise CorpusError(f"{label}: field {where!r}: {first['msg']}.") from exc
        if source.id in seen:
            raise CorpusError(f"{label}: duplicate id {source.id!r}; ids must be unique.")
        seen.add(source.id)
        sources.append(source)
    return sources


def read_source(source: Source, directory: Path | None = None) -> RawText:
    """Read one source text, refusing a missing, empty, non-UTF-8 or changed file."""
    path = (directory or CORPUS_DIR / "sources") / source.file
    if not path.is_file():
        raise CorpusError(
            f"Source {source.id!r}: file {str(path)!r} not found; copy the text there or fix 'file' in sources.toml."
        )
    data = path.read_bytes()
    if not data.strip():
        raise CorpusError(f"Source {source.id!r}: file {str(path)!r} is empty; restore the text from git.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"Source {source.id!r}: file {str(path)!r} is not UTF-8 (byte offset {exc.start}: "
            f"{data[exc.start:exc.start + 1]!r}); convert it with 'iconv -t UTF-8'."
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != source.sha256:
        raise CorpusError(
            f"Source {source.id!r}: file {str(path)!r} has sha256 {digest[:12]}…, the manifest says "
            f"{source.sha256[:12]}…; citations depend on the exact bytes: restore the file, or if the text "
            f"changed on purpose, update sha256 in sources.toml."
        )
    return RawText(source=source, path=path, text=text, sha256=digest)


@cache
def _default_sources() -> tuple[Source, ...]:
    return tuple(load_manifest())


def find_source(source_id: str) -> Source:
    """The manifest entry with this id (from the default manifest)."""
    for source in _default_sources():
        if source.id == source_id:
            return source
    known = ", ".join(s.id for s in _default_sources())
    raise CorpusError(f"Unknown source {source_id!r}; known sources: {known}.")


@cache
def read_lines(source_id: str) -> tuple[str, ...]:
    """The raw lines of a default source; ``read_lines(id)[n - 1]`` is line ``n``."""
    return tuple(read_source(find_source(source_id)).lines)
