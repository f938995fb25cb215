"""Rule functions name the concept they implement and the lines of the text they follow.

``@rule("hit-roll", cite("10e-core", 604, 612))`` sets ``fn.concept`` and ``fn.citations`` and records
the function in :data:`REGISTRY`, so a worked example, a calculator step or a concept page can point
from the engine to the passage it implements. Citations are plain data (source id, line span); the
engine never opens the texts — ``rulekb.kb.examples.worked`` checks the quotes.

Concept ids are English slugs shared with the termbase: ``hit-roll``, ``wound-roll``, ``armour-save``,
``invulnerable-save``, ``feel-no-pain``, ``mortal-wounds``, ``lethal-hits`` …
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["REGISTRY", "Citation", "citations_of", "cite", "concept_of", "rule"]

F = TypeVar("F", bound=Callable[..., Any])

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True, order=True)
class Citation:
    """Lines ``start``–``end`` (1-based, inclusive) of a source text, by source id."""

    source: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 1 or self.end < self.start:
            raise ValueError(f"Citation {self.source!r} lines {self.start}–{self.end}: need 1 <= start <= end.")

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "lines": [self.start, self.end]}

    def __str__(self) -> str:
        span = str(self.start) if self.start == self.end else f"{self.start}–{self.end}"
        return f"{self.source}:{span}"


def cite(source: str, start: int, end: int | None = None) -> Citation:
    """A citation of one line or a span."""
    return Citation(source, start, start if end is None else end)


#: concept id -> qualified names of the engine functions implementing it.
REGISTRY: dict[str, list[str]] = {}


def rule(concept: str, *citations: Citation) -> Callable[[F], F]:
    """Mark a function as the implementation of ``concept`` following ``citations``."""
    if not _SLUG.match(concept):
        raise ValueError(f"Concept id {concept!r} is not an English slug like 'hit-roll'.")

    def mark(fn: F) -> F:
        setattr(fn, "concept", concept)  # noqa: B010 - attributes on functions have no typed form
        setattr(fn, "citations", tuple(citations))  # noqa: B010
        name = f"{fn.__module__}.{fn.__qualname__}"
        names = REGISTRY.setdefault(concept, [])
        if name not in names:
            names.append(name)
        return fn

    return mark


def concept_of(fn: Callable[..., Any]) -> str:
    """The concept a rule function implements (``""`` if it is not marked)."""
    return str(getattr(fn, "concept", ""))


def citations_of(fn: Callable[..., Any]) -> tuple[Citation, ...]:
    """The lines a rule function follows."""
    found = getattr(fn, "citations", ())
    return tuple(c for c in found if isinstance(c, Citation))
