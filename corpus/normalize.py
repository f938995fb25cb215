"""The working copy of the text: what ``text_clean`` holds. The raw text is never changed.

Each step is a small named function, applied in order by :func:`clean_line`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from rulekb.corpus.morph import is_known
from rulekb.corpus.words import WORD, split_word

__all__ = [
    "CLEANERS",
    "clean_line",
    "join_paragraph",
    "split_glued_keywords",
    "split_glued_words",
    "starts_continuation",
]

_UP = "А-ЯЁ"
_LO = "а-яё"

# «]способность» → «] способность», «1.Вы» → «1. Вы».
# «действий.1ВЫБЕРИТЕ … УСТРОЙСТВО2ВЫБЕРИТЕ»: step numbers glued to words in capitals.
_DIGIT_THEN_CAPS = re.compile(rf"(?<![\d{_UP}A-Z])(\d{{1,2}})([{_UP}]{{2,}})")
_CAPS_THEN_DIGIT = re.compile(rf"([{_UP}]{{3,}})(\d{{1,2}})(?=[{_UP}]{{2,}}|\s|$)")
_WORD = re.compile(WORD)
_BRACKET_THEN_WORD = re.compile(r"([\]»])([^\W\d_])")
_PERIOD_THEN_WORD = re.compile(rf"([{_LO}\d\]»)])([.!?])([{_UP}«])")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?)»])")
_SPACES = re.compile(r"[ \t\u00a0\u2007\u202f\u200b]+")


def _unicode(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _spaces(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _known(word: str) -> bool:
    return len(word) > 1 and is_known(word)


def split_glued_keywords(text: str) -> str:
    """Split keywords in capitals from the words the machine translation glued them to: each word
    at its :func:`rulekb.corpus.words.glued_split_points` (the cut kb's matcher makes too), then
    step numbers, brackets and sentence ends glued to the next word."""
    text = _WORD.sub(lambda m: " ".join(split_word(m.group(0))), text)
    text = _CAPS_THEN_DIGIT.sub(r"\1 \2", text)
    text = _DIGIT_THEN_CAPS.sub(r"\1 \2", text)
    text = _BRACKET_THEN_WORD.sub(r"\1 \2", text)
    return _PERIOD_THEN_WORD.sub(r"\1\2 \3", text)


_ONE_LETTER_WORDS = frozenset("вксиоуа")
_CYR_WORD = re.compile(rf"[{_UP}{_LO}]{{5,}}")


def _segment(word: str) -> list[str] | None:
    """The fewest known words that ``word`` is made of (dynamic programming over prefixes)."""
    best: list[list[str] | None] = [None] * (len(word) + 1)
    best[0] = []
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 25), end):
            head = best[start]
            piece = word[start:end]
            known = piece in _ONE_LETTER_WORDS if len(piece) == 1 else _known(piece)
            if head is not None and known and (best[end] is None or len(head) + 1 < len(best[end] or ())):
                best[end] = [*head, piece]
    return best[len(word)]


@lru_cache(maxsize=20_000)
def _split_word(word: str) -> str:
    lower = word.lower()
    if _known(lower):
        return word
    pieces = _segment(lower)
    if not pieces or len(pieces) < 2:
        return word
    # «вигре» → «в игре»: a one-letter preposition or conjunction glued to one known word
    one_letter_first = len(pieces) == 2 and len(pieces[0]) == 1
    # «чтокаждыйигрокбросаеткубик»: a long run of known words, none a fragment
    long_run = (
        len(lower) >= 14
        and len(pieces[0]) >= 3
        and all(len(p) >= 3 or (len(p) == 1 and i > 0) for i, p in enumerate(pieces))
    )
    if not (one_letter_first or long_run):
        return word
    out, pos = [], 0
    for piece in pieces:  # keep the printed letters (and their case)
        out.append(word[pos : pos + len(piece)])
        pos += len(piece)
    return " ".join(out)


def split_glued_words(text: str) -> str:
    """Split lower-case words the translation glued together («вигре» → «в игре»), where every
    piece is a dictionary word and the whole is not."""
    return _CYR_WORD.sub(lambda m: _split_word(m.group(0)), text)


def _punctuation(text: str) -> str:
    return _SPACE_BEFORE_PUNCT.sub(r"\1", text)


#: The cleaning steps, in order; ``glued_keywords`` runs only where the source asks for it.
CLEANERS: dict[str, Callable[[str], str]] = {
    "unicode": _unicode,
    "spaces": _spaces,
    "glued_keywords": split_glued_keywords,
    "glued_words": split_glued_words,
    "punctuation": _punctuation,
}


def clean_line(line: str, glued_keywords: bool = False, glued_words: bool = False) -> str:
    """One raw line → its clean form; the two splitting steps run where the source asks."""
    skip = {name for name, on in (("glued_keywords", glued_keywords), ("glued_words", glued_words)) if not on}
    for name, step in CLEANERS.items():
        if name not in skip:
            line = step(line)
    return line


_CONTINUATION = re.compile(rf"^[\s\u00a0]*([{_LO}a-z,.;:)»\]]|\.\s)")


def starts_continuation(line: str) -> bool:
    """A line that starts in lower case or with punctuation continues the previous sentence."""
    return bool(_CONTINUATION.match(line))


def join_paragraph(parts: list[str]) -> str:
    """Join clean lines of one paragraph: continuations with a space, others with a newline."""
    out = ""
    for part in parts:
        if not part:
            continue
        if not out:
            out = part
        elif starts_continuation(part):
            out = _punctuation(f"{out} {part}")
        else:
            out = f"{out}\n{part}"
    return out
