"""A sentence of another passage shown with its passage: a short passage whole rather than one cut
sentence of it (read by :func:`rulekb.kb.text.choice.choose` when a second passage's sentence joins a card)."""

from __future__ import annotations

from collections.abc import Sequence

from rulekb.kb.text.sentences import NON_RULING, Sentence

__all__ = ["WHOLE_OTHER", "whole_passage"]

#: Another passage whose ruling sentences run to at most this many characters joins a card whole.
WHOLE_OTHER = 700


def whole_passage(sentences: Sequence[Sentence], sentence: str, room: int) -> str:
    """The ruling text of the passage ``sentences`` that ``sentence`` belongs to, when it is short
    (at most :data:`WHOLE_OTHER` characters) and fits in ``room``: «•Если тест провален, … удаляется как
    потеря …» comes with the rule it is a case of and the other case («•Если тест успешен …»), not
    cut out of them. Else ``sentence`` alone."""
    ruling = [x.text for x in sentences if x.mark not in NON_RULING]
    whole = " ".join(ruling)
    if sentence in ruling and len(whole) <= min(WHOLE_OTHER, room):
        return whole
    return sentence
