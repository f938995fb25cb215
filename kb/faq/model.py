"""The FAQ's data model: one :class:`FaqEntry` per question, each with its :class:`FaqCitation` passages.

Validation lives on the models (pydantic), so the TOML loader (:mod:`rulekb.kb.faq.loader`), the
built ``faq.json`` and the JSON Schema all check an entry the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rulekb.corpus.citations import normalise_space
from rulekb.corpus.editions import display_rank, editions
from rulekb.corpus.errors import TermbaseError
from rulekb.kb.paths import FAQ_DIR
from rulekb.kb.text.analysis import fold

__all__ = ["EDITION_PREFIX", "FAQ_DIR", "MAX_CITED_LINES", "FaqCitation", "FaqEntry", "FaqError", "FaqFile"]

#: A citation points a player to the lines that rule, not to a chapter.
MAX_CITED_LINES = 25
#: Every id starts with its edition's prefix, so ids stay readable and never clash across editions.
EDITION_PREFIX: dict[str, str] = {e.id: e.faq_prefix for e in sorted(editions(), key=lambda e: display_rank(e.id))}
_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class FaqError(TermbaseError):
    """An FAQ file (``kb/faq/*.toml``) is missing, not TOML, or has an invalid entry."""


def _non_blank(values: Iterable[str], what: str) -> None:
    for value in values:
        if not value.strip():
            raise ValueError(f"{what} must not be blank")


class FaqCitation(BaseModel):
    """Where the rule that answers a question is printed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = Field(pattern=_SLUG)
    """Id of the cited text in ``corpus/sources.toml``, e.g. ``10e-core``."""
    lines: tuple[int, int]
    """1-based inclusive line span in the raw file; tight (the lines that rule), at most 25 lines."""
    quotes: tuple[str, ...] = Field(min_length=1, max_length=3)
    """1–3 exact substrings of the cited raw lines (compared with whitespace runs collapsed)."""

    @field_validator("lines")
    @classmethod
    def _span(cls, value: tuple[int, int]) -> tuple[int, int]:
        start, end = value
        if start < 1 or end < start:
            raise ValueError(f"expected [start, end] with 1 <= start <= end, got [{start}, {end}]")
        if end - start + 1 > MAX_CITED_LINES:
            raise ValueError(
                f"span [{start}, {end}] covers {end - start + 1} lines; cite at most {MAX_CITED_LINES} "
                "(split it into several citations)"
            )
        return value

    @field_validator("quotes")
    @classmethod
    def _quotes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        _non_blank(value, "a quote")
        return value


class FaqEntry(BaseModel):
    """One question players ask, answered in our own words and cited."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    id: str = Field(pattern=_SLUG)
    """Stable readable slug starting with the edition prefix, e.g. ``10e-charge-distance``."""
    question: str = Field(min_length=5)
    """The question as a player would ask it, in Russian."""
    variants: tuple[str, ...] = Field(min_length=2, max_length=6)
    """2–6 other phrasings (situations, slang, English); the matcher uses them with the question."""
    edition: str
    """``"10"``, ``"6"``, ``"7"`` or ``"kt"`` (see :data:`rulekb.corpus.models.EDITIONS`)."""
    concepts: tuple[str, ...] = Field(min_length=1)
    """English concept ids (``charge``, ``overwatch``, ``re-roll``…), shared with the termbase."""
    answer: str = Field(min_length=10, max_length=700)
    """1–3 sentences in Russian, our own words, numbers explicit."""
    answer_en: str | None = Field(default=None, min_length=10, max_length=900)
    """The same ruling in English (1–3 sentences, the official English rule names, the same numbers),
    written from the text for English questions; the quotes stay Russian. ``None`` only in older data."""
    citations: tuple[FaqCitation, ...] = Field(alias="citation", min_length=1)
    """The passages that rule (``[[faq.citation]]`` in the TOML)."""

    @field_validator("edition")
    @classmethod
    def _edition(cls, value: str) -> str:
        if value not in EDITION_PREFIX:
            raise ValueError(f"unknown edition {value!r}; use one of {', '.join(map(repr, EDITION_PREFIX))}")
        return value

    @field_validator("question", "answer")
    @classmethod
    def _text(cls, value: str) -> str:
        _non_blank([value], "the text")
        return value

    @field_validator("answer_en")
    @classmethod
    def _english(cls, value: str | None) -> str | None:
        if value is not None:
            _non_blank([value], "the English answer")
        return value

    @field_validator("concepts")
    @classmethod
    def _concepts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for concept in value:
            if not concept or concept != concept.strip().lower() or " " in concept or "_" in concept:
                raise ValueError(f"concept {concept!r} is not an English slug like 'engagement-range'")
        if len(set(value)) != len(value):
            raise ValueError("concepts repeat")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> FaqEntry:
        prefix = EDITION_PREFIX[self.edition]
        if not self.id.startswith(prefix):
            raise ValueError(f"id {self.id!r} must start with {prefix!r} for edition {self.edition!r}")
        _non_blank(self.variants, "a variant")
        seen = {fold(normalise_space(self.question))}
        for variant in self.variants:
            key = fold(normalise_space(variant))
            if key in seen:
                raise ValueError(f"variant {variant!r} repeats the question or another variant")
            seen.add(key)
        return self


class FaqFile(BaseModel):
    """One FAQ file, ``kb/faq/<source>.toml``: its ``[[faq]]`` entries (the published JSON Schema,
    ``kb/faq/faq.schema.json``, is this model's; :func:`rulekb.kb.faq.loader.load_faq` validates
    each entry with :class:`FaqEntry` to name it in errors)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    faq: tuple[FaqEntry, ...] = Field(min_length=1)
