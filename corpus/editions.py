"""The edition table, read from the ``[[edition]]`` entries of ``sources.toml`` and nowhere else.

Every edition fact (names, labels, the order editions are shown in, their chronological order,
which editions share rules, badge colours, the FAQ id prefix) lives in the manifest; code asks this
module. Adding an edition needs only an ``[[edition]]`` entry (and sources that declare it).
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rulekb.corpus.errors import CorpusError

__all__ = [
    "CORPUS_DIR",
    "MANIFEST",
    "Edition",
    "by_id",
    "chronological",
    "chronological_rank",
    "default_edition",
    "display_order",
    "display_rank",
    "edition_css",
    "editions",
    "family_of",
    "labels",
    "load_editions",
    "near_editions",
    "read_manifest_toml",
]

#: The folder holding ``sources.toml`` and ``sources/``: this package's own, or another corpus laid out
#: the same way named by ``RULEKB_CORPUS`` (benchmarks/scale.py builds larger corpora that way).
CORPUS_DIR = Path(os.environ.get("RULEKB_CORPUS") or Path(__file__).parent).resolve()
MANIFEST = CORPUS_DIR / "sources.toml"

_COLOUR = r"^#[0-9a-fA-F]{6}$"


class Edition(BaseModel):
    """One ``[[edition]]`` entry of ``sources.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """The code sources declare in ``edition`` («10», «kt»)."""
    name: str
    """Russian label («10-я редакция»)."""
    name_en: str
    """English label («10th edition»)."""
    short: str
    """Russian label inside a citation («10-я ред.», «Kill Team»)."""
    order: int
    """Position when editions are shown side by side (lower first; the newest usually leads)."""
    era: int
    """Chronological position (lower is older); ties are broken by the id."""
    family: str
    """Editions of one family share rules («near» editions: the 6th, 7th and Kill Team)."""
    faq_prefix: str = Field(pattern=r"^[a-z0-9]+-$")
    """Prefix of FAQ entry ids of this edition («10e-»)."""
    colour: str = Field(pattern=_COLOUR)
    """Badge colour on a light background."""
    colour_dark: str = Field(pattern=_COLOUR)
    """Badge colour on a dark background."""
    number: str = Field("", pattern=r"^[0-9]*$")
    """The edition's number, if it has one: a question names it as «10th», «10-ка», «в 10-й редакции»."""
    mentions: tuple[str, ...] = ()
    """More regexes that name the edition in a question (on folded text; ``{edition}`` stands for the word
    «редакция» in its forms)."""
    aliases: tuple[str, ...] = ()
    """Other spellings the edition filter (``?edition=``) accepts («10th», «killteam»)."""
    mention_is_term: bool = False
    """The edition's name is also a term of its texts («Kill Team»): a question keeps it as a search word."""

    @field_validator("mentions")
    @classmethod
    def _compiles(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in value:
            try:
                re.compile(pattern.replace("{edition}", "x"))
            except re.error as exc:
                raise ValueError(f"mention {pattern!r} is not a valid regex ({exc})") from exc
        return value


def read_manifest_toml(path: Path = MANIFEST) -> dict[str, Any]:
    """The parsed manifest; a missing or broken file is a :class:`CorpusError` naming it and the fix."""
    if not path.is_file():
        raise CorpusError(f"Manifest {str(path)!r} not found: restore corpus/sources.toml from git.")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(f"Manifest {str(path)!r} is not valid TOML: {exc}. Fix the syntax.") from exc


def load_editions(path: Path = MANIFEST) -> tuple[Edition, ...]:
    """The ``[[edition]]`` entries of ``path``, in manifest order, validated."""
    data = read_manifest_toml(path)
    entries = data.get("edition", [])
    if not entries:
        raise CorpusError(f"Manifest {str(path)!r} lists no [[edition]] entries: add one per edition.")
    found: list[Edition] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        label = f"{path.name} [[edition]] #{number} ({entry.get('id', '?')!r})"
        try:
            edition = Edition.model_validate({**entry, "id": str(entry.get("id", ""))})
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise CorpusError(f"{label}: field {where!r}: {first['msg']}. Fix the entry.") from exc
        if edition.id in seen:
            raise CorpusError(f"{label}: duplicate edition id {edition.id!r}; ids must be unique.")
        seen.add(edition.id)
        found.append(edition)
    return tuple(found)


@cache
def editions() -> tuple[Edition, ...]:
    """The editions of this corpus's manifest, in manifest order."""
    return load_editions(MANIFEST)


def by_id() -> dict[str, Edition]:
    return {e.id: e for e in editions()}


def labels() -> dict[str, str]:
    """Edition code → Russian label, in manifest order."""
    return {e.id: e.name for e in editions()}


def display_order() -> tuple[str, ...]:
    """Edition codes in the order they are shown side by side."""
    return tuple(e.id for e in sorted(editions(), key=lambda e: (e.order, e.id)))


def default_edition() -> str:
    """The edition a player is assumed to play when they have not said: the first shown."""
    return display_order()[0]


def chronological() -> tuple[str, ...]:
    """Edition codes from the oldest to the newest."""
    return tuple(e.id for e in sorted(editions(), key=lambda e: (e.era, e.id)))


def display_rank(edition: str) -> tuple[int, str]:
    """Sort key: an edition's place in :func:`display_order` (unknown codes last)."""
    order = display_order()
    return (order.index(edition) if edition in order else len(order), edition)


def chronological_rank(edition: str) -> tuple[int, str]:
    """Sort key: an edition's place in :func:`chronological` (unknown codes last)."""
    order = chronological()
    return (order.index(edition) if edition in order else len(order), edition)


def family_of(edition: str) -> tuple[str, ...]:
    """``edition`` and the editions that share its rules, from the oldest to the newest."""
    family = by_id()[edition].family
    return tuple(e for e in chronological() if by_id()[e].family == family)


def near_editions() -> dict[str, frozenset[str]]:
    """Edition code → the other editions of its family."""
    table = editions()
    return {e.id: frozenset(o.id for o in table if o.family == e.family and o.id != e.id) for e in table}


def edition_css() -> str:
    """CSS custom properties ``--ed-<id>`` and classes ``.ed-<id>`` for every edition's badge colour."""
    table = editions()
    light = "".join(f"  --ed-{e.id}: {e.colour};\n" for e in table)
    dark = "".join(f"    --ed-{e.id}: {e.colour_dark};\n" for e in table)
    classes = "".join(f".ed-{e.id} {{ color: var(--ed-{e.id}); }}\n" for e in table)
    return f":root {{\n{light}}}\n@media (prefers-color-scheme: dark) {{\n  :root {{\n{dark}  }}\n}}\n{classes}"
