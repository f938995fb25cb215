"""The runner-up passage's ruling: when another of a card's top passages has a sentence scoring nearly
as much as the chosen one, both rule — the first passage often states the mechanic's set-up or its
general case, the next one the case the question asks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulekb.kb.text.context import carried
from rulekb.kb.text.sentences import NON_RULING, Sentence

__all__ = ["RUNNER_UP", "RUNNER_UP_TEXT", "with_runner_up"]

#: The best sentence of another top passage joins the chosen one when it scores, after its passage's
#: rank decay, at least this share of the chosen sentence's score (0.5 and 0.7 were measured too:
#: docs/search.md, "Eleventh iteration: the ruling of the second or third passage").
RUNNER_UP = 0.6
#: … when the question terms it carries that the card does not show weigh at least this share of the
#: question's weightiest term (a weighty word the card lacks, not a light one: «Основа – Боевая
#: тактика» under a stratagem's name) …
RUNNER_UP_NEW = 0.3
#: … and the card's text stays within this many characters with it.
RUNNER_UP_TEXT = 1200


def with_runner_up(usable: Sequence[tuple[str, str, Sequence[Sentence]]], rank: int, text: str, score: float,
                   best_scores: Sequence[tuple[float, int]], weights: dict[str, float],
                   groups: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """The node id and the sentence that join ``text`` (chosen from ``usable[rank]``, its best
    sentence scoring ``score``): the best sentence of another top passage — ``best_scores[k]``: passage
    ``k``'s best score, rank decay applied, and that sentence's position — scoring at least
    :data:`RUNNER_UP` of ``score`` and carrying question terms the text does not show yet
    (:data:`RUNNER_UP_NEW`): «Мотоциклы и гравициклы не могут бегать … При турбоускорении мотоциклы
    могут передвигаться максимум на 12"» from the first passage, «Мотоциклы и гравициклы передвигаются
    на 3D6" при отступлении» from the second, for how far they fall back. A flavour sentence, heading
    or example set-up never joins; ``None`` when none does."""
    if score <= 0:
        return None
    shown = {t for _n, _k, sentences in usable for x in sentences if x.text in text for t in x.lemmas}
    least = RUNNER_UP_NEW * max(weights.values(), default=0.0)
    runner: tuple[float, str, str] | None = None
    for other, (other_score, j) in enumerate(best_scores):
        if other == rank or other_score < RUNNER_UP * score:
            continue
        sentence = usable[other][2][j]
        if sentence.mark in NON_RULING or sentence.text in text:
            continue
        gain = carried(sentence.lemmas, weights, groups, shown)
        if gain <= 0 or gain < least:
            continue
        if runner is None or other_score > runner[0]:
            runner = (other_score, usable[other][0], sentence.text)
    if runner is not None and len(text) + len(runner[2]) + 1 <= RUNNER_UP_TEXT:
        return runner[1], runner[2]
    return None
