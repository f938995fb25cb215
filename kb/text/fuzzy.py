"""The one fuzzy lookup of names: «did you mean» for node ids, concept names and titles.

difflib's ratio over the whole string (rapidfuzz is not a dependency; see the README's notes):
:func:`close_matches` gives the close names, :func:`closest_values` what they stand for.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

__all__ = ["close_matches", "closest_values"]

T = TypeVar("T")


def close_matches(word: str, names: Iterable[str], n: int, cutoff: float) -> list[str]:
    """At most ``n`` of ``names`` at least ``cutoff`` alike to ``word``, the closest first."""
    return difflib.get_close_matches(word, list(names), n=n, cutoff=cutoff)


def closest_values(query: str, names: Mapping[str, Sequence[T]], *, n: int, cutoff: float, pool: int) -> list[T]:
    """What the ``pool`` names closest to ``query`` stand for, each value once, at most ``n``."""
    out: list[T] = []
    for name in close_matches(query, names, pool, cutoff):
        for value in names[name]:
            if value not in out:
                out.append(value)
    return out[:n]
