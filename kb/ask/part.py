"""One edition's part of a card, as the card's assembly and the parts' builders share it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekb.kb.text.sentences import Sentence, mark_sentences

__all__ = ["MAX_QUOTE", "Part", "marked_sentences"]

#: Longest quote of a FAQ entry's cited text on its card.
MAX_QUOTE = 500


@dataclass
class Part:
    """One edition's ruling on a card."""

    edition: str
    text: str
    node_id: str | None
    lines: list[int] | None
    source: str
    citations: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "text": self.text, "node_id": self.node_id, "lines": self.lines,
                "source": self.source}


def marked_sentences(marked: dict[str, Any], features: Any) -> Any:
    """A passage's sentences as the build marked them (marked now when the build predates marking)."""
    found = marked.get(features.id)
    if found is not None:
        return found
    return tuple(Sentence.read(s, m) for s, m in mark_sentences(features.sentences, features.kind))
