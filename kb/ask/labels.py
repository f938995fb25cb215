"""Edition labels on a card, in the question's language, from the manifest (``corpus/sources.toml``)."""

from __future__ import annotations

import re

from rulekb.corpus.editions import by_id

__all__ = ["edition_label", "question_lang"]

_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def question_lang(question: str) -> str:
    """``"en"`` when the question is written mostly in Latin letters, else ``"ru"``."""
    latin = len(_LATIN.findall(question))
    cyrillic = len(_CYRILLIC.findall(question))
    return "en" if latin > cyrillic else "ru"


def edition_label(edition: str, lang: str = "ru") -> str:
    """«10-я редакция» / "10th edition"; an unknown code as it is."""
    found = by_id().get(edition)
    if found is None:
        return edition
    return found.name_en if lang == "en" else found.name
