"""Headings: numbered steps, lines in capitals, and short title lines.

A heading's level comes from the source's settings (``chapters``/``sections`` patterns force
levels 1 and 2; ``caps_level``, ``title_level`` and ``step_level`` give the defaults), because
the books differ: the 10th-edition text prints chapters in capitals, the 6th-edition basics
print them in mixed case, pages 58–67 print everything in capitals.
"""

from __future__ import annotations

import re

from rulekb.corpus.normalize import starts_continuation
from rulekb.corpus.rules.base import FUNCTION_WORDS, HEADING_BLOCKS, Block, BlockKind, Context
from rulekb.corpus.words import is_caps

MAX_TITLE = 70
MAX_WORDS = 9
MAX_TITLE_WORDS = 7

_STEP = re.compile(r"^\d{1,2}\.\s*[А-ЯЁA-Z«]")
_BAD_END = re.compile(r"[,;:(«\-–—/]$")
_MID_PERIOD = re.compile(r"[^\W\d_]{2,}\.\s*[А-ЯЁA-Z]|\.\S")
_SENTENCE_END = re.compile(r"[.!?:;»\"”)…]$")
# «МОНСТРили», «ХАРАКТЕРмодель», «САМОЛЕТМодели»: a keyword glued into a sentence, not a title.
_GLUED = re.compile(r"[А-ЯЁ]{2,}[а-яё]|[А-ЯЁ]{3,}[А-ЯЁ][а-яё]")


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")") and text.count("«") == text.count("»")


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+|\d+", text)


def _isolated_before(ctx: Context, i: int) -> bool:
    return ctx.blank(i - 1) or ctx.last_kind in HEADING_BLOCKS or ctx.last_kind is None


def _prev_sentence_open(ctx: Context, i: int) -> bool:
    """The text before ends mid-sentence (no final punctuation): this line continues it."""
    if ctx.last_kind not in (BlockKind.PARAGRAPH, BlockKind.CONTINUATION):
        return False
    prev = ctx.prev_nonblank(i)
    if prev is None:
        return False
    text = ctx.stripped[prev]
    last_word = text.rsplit(" ", 1)[-1].casefold()
    return not _SENTENCE_END.search(text) and last_word in FUNCTION_WORDS


def _after_colon(ctx: Context, i: int) -> bool:
    """«ЦЕЛЬ :» is followed by its value («Один отряд…»), not by a title."""
    prev = ctx.prev_nonblank(i)
    return prev is not None and ctx.last_kind is BlockKind.PARAGRAPH and ctx.stripped[prev].endswith(":")


def _plausible(ctx: Context, i: int, text: str) -> bool:
    if len(text) > MAX_TITLE or len(_words(text)) > MAX_WORDS or not _balanced(text):
        return False
    if _BAD_END.search(text) or text.rsplit(" ", 1)[-1].casefold() in FUNCTION_WORDS:
        return False
    if _GLUED.search(text) or " ," in text or ": " in text:
        return False
    if ctx.next_nonblank(i) is None:
        return False
    return not _prev_sentence_open(ctx, i)


def _second_line(ctx: Context, i: int) -> int:
    """A title wrapped onto a short lower-case line («Советы и подсказки» / «для … моделей»)."""
    j = ctx.next_nonblank(i)
    if j is None or j - i > 2:
        return i
    text = ctx.stripped[j]
    after = ctx.next_nonblank(j)
    if (
        starts_continuation(ctx.raw[j])
        and len(text) <= 40
        and not _SENTENCE_END.search(text)
        and "," not in text
        and text[:1].isalpha()
        and text.rsplit(" ", 1)[-1].casefold() not in FUNCTION_WORDS
        and ctx.blank(j + 1)
        and (after is None or not starts_continuation(ctx.raw[after]))
    ):
        return j
    return i


def step_heading(ctx: Context, i: int) -> Block | None:
    text = ctx.stripped[i]
    if not _STEP.match(text) or not _plausible(ctx, i, text.rstrip(".")):
        return None
    if not (_isolated_before(ctx, i) and ctx.blank(i + 1)):
        return None
    return Block(BlockKind.STEP, i, i)


def caps_heading(ctx: Context, i: int) -> Block | None:
    text = ctx.stripped[i].rstrip(".")
    if not is_caps(text, 3, ignore_parentheses=True) or not _plausible(ctx, i, text):
        return None
    return Block(BlockKind.CAPS, i, _second_line(ctx, i))


def title_heading(ctx: Context, i: int) -> Block | None:
    text = ctx.stripped[i]
    first = text[:1]
    if not (first.isupper() or first == "«") or _MID_PERIOD.search(text.rstrip(".!?")):
        return None
    if not _plausible(ctx, i, text) or not _isolated_before(ctx, i):
        return None
    if len(_words(text)) > MAX_TITLE_WORDS or _after_colon(ctx, i):
        return None
    nxt = ctx.next_nonblank(i)
    assert nxt is not None
    # «Срыв атаки.» is a heading in the 6th-edition texts; «Передышкам.» is an epigraph.
    if text.endswith(".") and (len(_words(text)) > 5 or len(ctx.stripped[nxt]) < 80):
        return None
    end = _second_line(ctx, i)
    if end == i and starts_continuation(ctx.raw[nxt]) and nxt - i <= 2:
        return None
    return Block(BlockKind.TITLE, i, end)
