"""What the rules share: the per-source context and the block they return."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from rulekb.corpus.models import ParseIssue, Source

__all__ = ["FUNCTION_WORDS", "Block", "BlockKind", "Context"]


class BlockKind(StrEnum):
    PAGE = "page"
    TOC = "toc"
    PREFACE = "preface"
    CREDITS = "credits"
    TABLE = "table"
    BULLETS = "bullets"
    LIST = "list"
    EXAMPLE = "example"
    BOX = "box"
    BOX_FIELD = "box_field"
    LABELS = "labels"
    STEP = "step"
    CAPS = "caps"
    TITLE = "title"
    CONTINUATION = "continuation"
    PARAGRAPH = "paragraph"


HEADING_BLOCKS = frozenset({BlockKind.STEP, BlockKind.CAPS, BlockKind.TITLE})

#: Words a heading never ends with: a line ending in one is a sentence cut by a link.
FUNCTION_WORDS = frozenset(
    """с со в во и или на к ко по от для из о об до за при без под над что как а но же не ни то
    это его ее их эти этот этой этого которые который которая также если чем где когда только
    после перед через между чтобы ваш ваши вашей вашего вашим один одна одного одной которой""".split()
)


@dataclass(frozen=True)
class Block:
    """A run of raw lines (0-based, inclusive) recognised as one construct."""

    kind: BlockKind
    start: int
    end: int
    rule: str = ""
    level: int | None = None
    page: int | None = None


@dataclass
class Context:
    """One source's lines and settings, plus what the rules learn as they go."""

    source: Source
    raw: list[str]
    issues: list[ParseIssue] = field(default_factory=list)
    toc_titles: set[str] = field(default_factory=set)
    toc_done: bool = False
    last_kind: BlockKind | None = None

    @cached_property
    def stripped(self) -> list[str]:
        return [line.replace("\u00a0", " ").replace("\t", " ").strip() for line in self.raw]

    @cached_property
    def page_re(self) -> re.Pattern[str] | None:
        return re.compile(self.source.page_markers) if self.source.page_markers else None

    def blank(self, i: int) -> bool:
        return i < 0 or i >= len(self.raw) or not self.stripped[i]

    def next_nonblank(self, i: int) -> int | None:
        for j in range(i + 1, len(self.raw)):
            if self.stripped[j]:
                return j
        return None

    def prev_nonblank(self, i: int) -> int | None:
        for j in range(i - 1, -1, -1):
            if self.stripped[j]:
                return j
        return None

    def warn(self, i: int, reason: str) -> None:
        self.issues.append(
            ParseIssue(source_id=self.source.id, file=self.source.file, line=i + 1, reason=reason)
        )
