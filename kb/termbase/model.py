"""The termbase model: concepts, their Russian renderings per source, and the loader.

``kb/data/terms.toml`` is data we write and keep. Each ``[[concept]]`` names one game concept
with an English slug id, its English term, a category, a one-line Russian definition, the
aliases people type, and ``[[concept.rendering]]`` entries: how each source text writes it,
with a status. Loading validates everything a typo could break and reports the first problem
as one line naming the entry and the field (:class:`rulekb.corpus.errors.TermbaseError`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rulekb.corpus.errors import TermbaseError
from rulekb.corpus.reader import load_manifest
from rulekb.corpus.words import is_caps
from rulekb.kb.datafile import read_toml
from rulekb.kb.paths import DATA_DIR
from rulekb.kb.text.analysis import lemma_key

__all__ = [
    "DEFAULT_TERMS",
    "Category",
    "Concept",
    "IgnoredEnglish",
    "Rendering",
    "Status",
    "Termbase",
    "default_termbase",
    "load_termbase",
    "project_termbase",
]

DEFAULT_TERMS = DATA_DIR / "terms.toml"


class Status(StrEnum):
    """How acceptable a rendering is (the TBX administrative status)."""

    PREFERRED = "preferred"  #: the term a translator should use
    ADMITTED = "admitted"  #: acceptable, but not the first choice
    DEPRECATED = "deprecated"  #: avoid: ambiguous, misleading or clumsy (needs a note)
    MISTRANSLATION = "mistranslation"  #: wrong: another meaning altogether (needs a note)


BAD_STATUSES = frozenset({Status.DEPRECATED, Status.MISTRANSLATION})


class Category(StrEnum):
    """What kind of concept an entry is."""

    CHARACTERISTIC = "characteristic"
    PHASE = "phase"
    STEP = "step"
    MOVEMENT = "movement"
    ATTACK = "attack"
    SAVE = "save"
    WEAPON_ABILITY = "weapon-ability"
    ABILITY = "ability"
    STRATAGEM = "stratagem"
    UNIT_TYPE = "unit-type"
    KEYWORD = "keyword"
    TERRAIN = "terrain"
    DICE = "dice"
    ACTION = "action"
    STATUS = "status"
    GAME_TERM = "game-term"
    MISSION = "mission"


class Rendering(BaseModel):
    """One way one source writes a concept in Russian."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    """Source id from ``corpus/sources.toml`` (``10e-core``, ``6e-rules``…)."""
    text: str = Field(min_length=1)
    """The rendering as printed, in any one inflection. A rendering written wholly in capitals
    is a keyword form and matches only text printed in capitals."""
    status: Status
    """preferred / admitted / deprecated / mistranslation."""
    note: str = ""
    """Why the status; required for deprecated and mistranslated renderings."""
    cues: tuple[str, ...] = ()
    """Words that, in the same sentence, show an occurrence of a string shared by several
    concepts of this source means this one («объявить» for «атака» as a charge); see
    :mod:`rulekb.kb.termbase.sense`."""
    default: bool = False
    """Among the concepts sharing this string in this source, the sense taken when the context
    gives no evidence."""
    heading: bool = False
    """The rendering is printed only as a heading («Тяжелый» over the Heavy rule) and counts only
    there: the same word in a sentence is ordinary Russian."""

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip() or not lemma_key(value):
            raise ValueError("must contain at least one word")
        return value.strip()


class Concept(BaseModel):
    """One game concept and everything the termbase knows about how it is written."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
    """English slug, stable: ``overwatch``, ``engagement-range``, ``hit-roll``."""
    english: str = Field(min_length=1)
    """The English term as the rulebooks print it."""
    abbreviation: str = ""
    """The printed abbreviation, if any: ``WS``, ``AP``, ``OC``."""
    category: Category
    keyword: bool = False
    """The concept is also a rules keyword (a unit keyword printed in capitals in the 10th
    edition, a weapon ability in brackets, a 6th/7th-edition unit type or special rule)."""
    definition: str = Field(min_length=1)
    """One line in Russian, in our own words."""
    aliases: tuple[str, ...] = ()
    """What people type: slang, transliterations, English, abbreviations."""
    related: tuple[str, ...] = ()
    """Ids of related concepts."""
    preferred: str = ""
    """The Russian term we recommend; defaults to the first rendering marked preferred."""
    rendering: tuple[Rendering, ...] = ()
    """The renderings, per source."""

    @field_validator("definition")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value.strip():
            raise ValueError("must be one line")
        return value.strip()

    @field_validator("aliases")
    @classmethod
    def _aliases(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for alias in value:
            if not alias.strip() or not lemma_key(alias):
                raise ValueError(f"alias {alias!r} contains no word")
        return value

    @property
    def recommended(self) -> str:
        """The Russian term to use: ``preferred`` or the first preferred rendering."""
        if self.preferred:
            return self.preferred
        for rendering in self.rendering:
            if rendering.status is Status.PREFERRED:
                return rendering.text
        for rendering in self.rendering:
            if rendering.status is Status.ADMITTED:
                return rendering.text
        return ""

    def renderings_for(self, source_id: str) -> tuple[Rendering, ...]:
        return tuple(r for r in self.rendering if r.source == source_id)


class IgnoredEnglish(BaseModel):
    """English text printed in a source that is not a game term (a product or a person), or,
    with ``heading = true``, a heading of ``source`` that names no concept (a chapter such as
    «ОСНОВНЫЕ ПОНЯТИЯ», a tip box), with the reason."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1)
    reason: str = Field(min_length=1)
    heading: bool = False
    source: str = ""
    """For an ignored heading: the source that prints it."""


class TermsFile(BaseModel):
    """The whole ``kb/data/terms.toml`` (its JSON Schema: ``kb/data/terms.schema.json``);
    :func:`load_termbase` validates each entry with :class:`Concept` and :class:`IgnoredEnglish`
    to name it in errors, then checks what spans entries (ids, related concepts, sources)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_version: int = Field(default=1, alias="schema")
    concept: tuple[Concept, ...] = ()
    ignore: tuple[IgnoredEnglish, ...] = ()


class Termbase:
    """The loaded termbase: concepts in file order, with lookups."""

    def __init__(self, concepts: Sequence[Concept], ignore: Sequence[IgnoredEnglish] = (), path: Path | None = None):
        self.concepts: tuple[Concept, ...] = tuple(concepts)
        self.ignore: tuple[IgnoredEnglish, ...] = tuple(ignore)
        self.path = path
        self._by_id = {concept.id: concept for concept in self.concepts}

    def __len__(self) -> int:
        return len(self.concepts)

    def __iter__(self) -> Iterator[Concept]:
        return iter(self.concepts)

    def __contains__(self, concept_id: object) -> bool:
        return concept_id in self._by_id

    def __repr__(self) -> str:
        return f"Termbase(<{len(self.concepts)} concepts from {str(self.path)!r}>)"

    def get(self, concept_id: str) -> Concept | None:
        return self._by_id.get(concept_id)

    def __getitem__(self, concept_id: str) -> Concept:
        return self._by_id[concept_id]

    def related_both_ways(self) -> dict[str, frozenset[str]]:
        """Each concept's ``related`` concepts and those that list it as related (the file lists a pair
        once), by concept id in sorted order; a concept related to none is missing."""
        pairs: dict[str, set[str]] = {}
        for concept in self.concepts:
            for other in concept.related:
                pairs.setdefault(concept.id, set()).add(other)
                pairs.setdefault(other, set()).add(concept.id)
        return {c: frozenset(others) for c, others in sorted(pairs.items())}

    def source_ids(self) -> list[str]:
        """Source ids that have at least one rendering, in manifest order."""
        used = {r.source for c in self.concepts for r in c.rendering}
        return [s.id for s in load_manifest() if s.id in used]


def _field_path(loc: Sequence[Any]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int) and parts:
            parts[-1] = f"{parts[-1]}[{item}]"
        else:
            parts.append(str(item))
    return ".".join(parts)


def _fail(path: Path, number: int, entry_id: object, field: str, message: str) -> TermbaseError:
    return TermbaseError(f"{path.name}: [[concept]] #{number} ({entry_id!r}), field {field!r}: {message}")


def _validate_concept(path: Path, number: int, entry: Any, sources: set[str]) -> Concept:
    if not isinstance(entry, dict):
        raise TermbaseError(f"{path.name}: [[concept]] #{number} is not a table; write it as [[concept]].")
    entry_id = entry.get("id", "?")
    try:
        concept = Concept.model_validate(entry)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = _field_path(first["loc"])
        detail = first["msg"]
        if first["type"] == "enum":
            detail += f" (got {first.get('input')!r})"
        elif first["type"] == "extra_forbidden":
            detail = "unknown field; known fields: " + ", ".join(
                Rendering.model_fields if "rendering" in field else Concept.model_fields
            )
        elif first["type"] == "missing":
            detail = "required field is missing"
        raise _fail(path, number, entry_id, field, detail + ".") from exc
    seen_keys: dict[tuple[str, tuple[str, ...], bool], int] = {}
    for index, rendering in enumerate(concept.rendering):
        field = f"rendering[{index}]"
        if rendering.source not in sources:
            known = ", ".join(sorted(sources))
            raise _fail(path, number, concept.id, f"{field}.source", f"unknown source {rendering.source!r}; use one of {known}.")
        if rendering.status in BAD_STATUSES and not rendering.note.strip():
            raise _fail(path, number, concept.id, f"{field}.note", f"a {rendering.status.value} rendering needs a note saying why.")
        # A keyword form in capitals and the same word in ordinary case are different renderings.
        key = (rendering.source, lemma_key(rendering.text), is_caps(rendering.text))
        if key in seen_keys:
            raise _fail(
                path, number, concept.id, f"{field}.text",
                f"{rendering.text!r} is an inflection of rendering[{seen_keys[key]}] for the same source; keep one.",
            )
        seen_keys[key] = index
    return concept


def load_termbase(path: Path = DEFAULT_TERMS) -> Termbase:
    """Read and validate a termbase file; the first problem raises :class:`TermbaseError`."""
    data = read_toml(path, TermbaseError, missing=f"Termbase {str(path)!r} not found: restore kb/data/terms.toml from git.")
    unknown = sorted(set(data) - {"schema", "concept", "ignore"})
    if unknown:
        raise TermbaseError(f"{path.name}: unknown top-level key {unknown[0]!r}; use [[concept]] and [[ignore]] tables.")
    sources = {source.id for source in load_manifest()}
    concepts: list[Concept] = []
    numbers: dict[str, int] = {}
    for number, entry in enumerate(data.get("concept", []), start=1):
        concept = _validate_concept(path, number, entry, sources)
        if concept.id in numbers:
            raise _fail(path, number, concept.id, "id", f"duplicate id; entry #{numbers[concept.id]} already uses it.")
        numbers[concept.id] = number
        concepts.append(concept)
    for concept in concepts:
        for index, other in enumerate(concept.related):
            if other not in numbers:
                raise _fail(path, numbers[concept.id], concept.id, f"related[{index}]", f"unknown concept id {other!r}.")
    ignore: list[IgnoredEnglish] = []
    for number, entry in enumerate(data.get("ignore", []), start=1):
        try:
            ignored = IgnoredEnglish.model_validate(entry)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise TermbaseError(
                f"{path.name}: [[ignore]] #{number}, field {_field_path(first['loc'])!r}: {first['msg']}."
            ) from exc
        if ignored.heading and ignored.source not in sources:
            known = ", ".join(sorted(sources))
            raise TermbaseError(
                f"{path.name}: [[ignore]] #{number} ({ignored.text!r}), field 'source': an ignored heading needs the "
                f"source that prints it, one of {known} (got {ignored.source!r})."
            )
        ignore.append(ignored)
    return Termbase(concepts, ignore, path)


@lru_cache(maxsize=1)
def default_termbase() -> Termbase:
    """The project's termbase, loaded once per process."""
    return load_termbase(DEFAULT_TERMS)


def project_termbase(log: Any = None) -> Termbase:
    """The project's termbase; while ``kb/data/terms.toml`` does not exist yet, an empty one (the
    graph then has its structure and references but no concepts)."""
    if not DEFAULT_TERMS.is_file():
        if log is not None:
            log(f"no termbase at {DEFAULT_TERMS}: linking without concepts")
        return Termbase([], path=DEFAULT_TERMS)
    return default_termbase()
