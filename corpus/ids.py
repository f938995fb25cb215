"""Stable, readable node ids: ``<source-id>/<transliterated heading path>``.

Ids are made from printed words, never from positions, so adding a paragraph elsewhere in a
book does not move a citation. A clash (the same heading twice under one parent) gets ``-2``, ``-3``.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["IdAllocator", "slugify", "transliterate"]

_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh",
    "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
}  # fmt: skip


def transliterate(text: str) -> str:
    """Russian → Latin (a simple, stable scheme close to the passport one)."""
    return "".join(_TRANSLIT.get(ch, ch) for ch in text.lower())


def slugify(text: str, max_words: int = 8, max_length: int = 60) -> str:
    """A lower-case ASCII slug of at most ``max_words`` words; ``"x"`` when nothing is left."""
    latin = unicodedata.normalize("NFKD", transliterate(text)).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", latin)[:max_words]
    slug = "-".join(words)
    if len(slug) > max_length:
        slug = slug[:max_length].rsplit("-", 1)[0]
    return slug or "x"


class IdAllocator:
    """Hands out unique ids, suffixing clashes in order of appearance."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def allocate(self, wanted: str) -> str:
        count = self._seen.get(wanted, 0) + 1
        self._seen[wanted] = count
        if count == 1:
            return wanted
        candidate = f"{wanted}-{count}"
        while candidate in self._seen:
            count += 1
            candidate = f"{wanted}-{count}"
        self._seen[candidate] = 1
        self._seen[wanted] = count
        return candidate
