"""The process's one pymorphy3 analyser, shared by the parser's clean text and kb's analyzer.

Loading the Russian dictionaries costs memory and a fraction of a second, so it happens once,
on first use.
"""

from __future__ import annotations

from functools import lru_cache

import pymorphy3

__all__ = ["is_known", "morph"]


@lru_cache(maxsize=1)
def morph() -> pymorphy3.MorphAnalyzer:
    """The shared analyser."""
    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=50_000)
def is_known(word: str) -> bool:
    """Is ``word`` (any case; ё and е alike) a word of the dictionary?"""
    return bool(morph().word_is_known(word.lower().replace("ё", "е")))
