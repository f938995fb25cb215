"""The web app's access to the built knowledge base: :mod:`rulekb.kb.knowledge`, under the names the
views use.

A :class:`Build` is the :class:`rulekb.kb.knowledge.KnowledgeBase` of the app's ``BUILD_DIR``, opened once
per worker process and build (:func:`get_build`); the views read nothing else at request time.
"""

from __future__ import annotations

from pathlib import Path

from rulekb.corpus.models import EDITIONS
from rulekb.kb.knowledge import KnowledgeBase, open_knowledge_base, suggest
from rulekb.kb.termbase.built import Concept, Rendering

__all__ = [
    "Build",
    "Concept",
    "Rendering",
    "edition_label",
    "get_build",
    "suggest",
]

Build = KnowledgeBase


def edition_label(edition: str | None) -> str:
    """«10-я редакция», «Kill Team», … for an edition code."""
    if edition is None:
        return "все редакции"
    return EDITIONS.get(edition, edition)


def get_build(path: Path) -> Build:
    """The knowledge base at ``path`` (the ``build`` link, resolved on every call), loaded once per
    process and reloaded when a new build is switched in."""
    return open_knowledge_base(path)
