"""Pydantic models of the corpus: sources, rule nodes and parse issues (all frozen)."""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from rulekb.corpus.editions import labels

__all__ = ["EDITIONS", "HeadingPattern", "NodeKind", "ParseIssue", "RuleNode", "Source", "SourceParserSettings", "UnprintedHeading"]

#: Editions a source may declare (code → Russian label), from the ``[[edition]]`` entries of
#: ``sources.toml`` (see :mod:`rulekb.corpus.editions`). ``kt`` is the Kill Team supplement of the 6th/7th-edition era.
EDITIONS: dict[str, str] = labels()


class NodeKind(StrEnum):
    """What a node is. Only leaves hold text; headings carry the tree."""

    SOURCE = "source"  #: the root of one source
    CHAPTER = "chapter"  #: a top-level heading (usually printed in capitals)
    SECTION = "section"  #: a lower heading
    STEP = "step"  #: a numbered heading («1. Ударная калитка»)
    RULE = "rule"  #: a paragraph (or a few) of rule text
    SUMMARY = "summary"  #: a «•» list that restates a rule
    LIST = "list"  #: «-»/«–» list items
    EXAMPLE = "example"  #: «Пример:», «Например,» paragraphs
    TABLE = "table"  #: characteristic profiles and other tables
    TOC = "toc"  #: a table of contents (kept, not a rule)
    CREDITS = "credits"  #: translator credits
    PREFACE = "preface"  #: a translator's note before the rules
    PAGE = "page"  #: a page marker («С. 58»)


HEADING_KINDS = frozenset({NodeKind.SOURCE, NodeKind.CHAPTER, NodeKind.SECTION, NodeKind.STEP})
#: Leaves that are not rules: search and the linker skip them.
NON_RULE_KINDS = frozenset({NodeKind.TOC, NodeKind.CREDITS, NodeKind.PREFACE, NodeKind.PAGE})


class HeadingPattern(BaseModel):
    """A heading regex that applies only within a line range (1-based, inclusive)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pattern: str
    from_line: int = 1
    to_line: int | None = None

    def matches(self, title: str, line: int) -> bool:
        in_range = self.from_line <= line and (self.to_line is None or line <= self.to_line)
        return in_range and re.search(self.pattern, title, re.IGNORECASE) is not None


class UnprintedHeading(BaseModel):
    """A heading the text lost: its section's rules run on under the heading before («ИНФИЛЬТРАТОРЫ»
    followed, without a heading, by the Leader rules). The parser opens a section named ``title`` at
    ``line`` (1-based, the first line of the block it heads) and marks it ``unprinted``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int = Field(ge=1)
    title: str = Field(min_length=1)
    level: int = Field(2, ge=1)


class SourceParserSettings(BaseModel):
    """Per-source switches for the parser (``[source.parser]`` in ``sources.toml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    toc: bool = False
    """The text opens with a table of contents (a block of short title lines before the rules)."""
    glued_keywords: bool = False
    """Keywords in capitals are glued to neighbouring words and must be split in ``text_clean``."""
    glued_words: bool = False
    """Lower-case words are glued together in places («вигре»); split them in ``text_clean``."""
    disabled_rules: tuple[str, ...] = ()
    """Names of parser rules switched off for this source."""
    bullets: str = Field("list", pattern="^(summary|list)$")
    """``summary``: «•» lists restate the rule above and are leaves of their own; ``list``: they
    belong to the rule's text."""
    chapters: tuple[str | HeadingPattern, ...] = ()
    """Headings that match (a regex, or a regex with a line range) are level 1 (chapters)."""
    sections: tuple[str | HeadingPattern, ...] = ()
    """Headings that match are level 2 (sections)."""
    caps_level: int = 2
    """Level of a heading printed in capitals."""
    title_level: int = 2
    """Level of a short mixed-case title line."""
    step_level: int = 3
    """Level of a numbered step («1. Команда»)."""
    credits: str = ""
    """Regex of the line where translator credits begin (they run to the end)."""
    box_start: str = ""
    """Regex of the line that opens a boxed rule (a stratagem's «КОГДА:»): it starts a leaf."""
    box_parent_level: int | None = None
    """A box hangs under the nearest open heading of this level or above (its chapter)."""
    box_field: str = ""
    """Regex of a later field of a box («ЭФФЕКТ:»); a long box is split there, keeping its name."""
    box_title: str = ""
    """Regex finding a box's printed name in the line before it; group 1 is the name."""
    preface: str = ""
    """Regex of a translator's preface paragraph."""
    unprinted_headings: tuple[UnprintedHeading, ...] = ()
    """Headings the text lost, opened where their rules begin (see ``UnprintedHeading``)."""


class Source(BaseModel):
    """One rulebook text, as described in ``corpus/sources.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """Short stable id used in node ids and citations, e.g. ``10e-core``."""
    file: str
    """File name in ``corpus/sources/``."""
    upstream_file: str = ""
    """The file's name where it came from (evaluation sets cite sources by it)."""
    title: str
    """Russian title."""
    title_en: str = ""
    """English title."""
    edition: str
    """One of :data:`EDITIONS`."""
    game: str
    language: str = "ru"
    translation: str
    """``machine``, ``community`` or ``official``."""
    credits: str = ""
    page_markers: str = ""
    """A regex matching a page-marker line; group 1 is the page number. Empty: no markers."""
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    parser: SourceParserSettings = SourceParserSettings()

    @property
    def edition_label(self) -> str:
        return EDITIONS.get(self.edition, self.edition)


class RuleNode(BaseModel):
    """One node of a source's tree, with its provenance in the raw file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    """Stable readable slug: ``<source-id>/<transliterated heading path>``."""
    source_id: str
    edition: str
    kind: NodeKind
    title: str = ""
    """The heading as printed (for headings), or a short label made from the text (for leaves)."""
    title_clean: str = ""
    """The title normalised: whitespace collapsed, English gloss and numbering kept."""
    parent_id: str | None = None
    order: int = 0
    """Position among the parent's children."""
    lines: tuple[int, int]
    """1-based inclusive line span in the raw file (a heading's span covers its own line only)."""
    page: int | None = None
    """Printed page, from the source's page markers."""
    text: str = ""
    """The raw lines of a leaf, joined by newlines (blank lines kept as they are)."""
    text_clean: str = ""
    """The leaf's text normalised: NFC, glued keywords split, wrapped sentences joined."""
    unprinted: bool = False
    """A heading the text does not print (``UnprintedHeading``): its title is in editorial brackets
    («[Лидеры]»), the outline marks it, and it owns no line of the text."""
    concepts: tuple[str, ...] = ()
    """Ids of the concepts the node mentions (filled by the linker)."""

    @property
    def is_leaf(self) -> bool:
        return self.kind not in HEADING_KINDS


class ParseIssue(BaseModel):
    """Something the parser noticed and worked around; ``--strict`` turns these into failures."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_id: str
    file: str
    line: int
    reason: str
    severity: str = "warning"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"
