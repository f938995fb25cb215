"""The dice conventions of the 6th-edition rulebook (``6e-rules``), which the 7th edition and Kill Team inherit:
dropping the highest die, roll-offs, one D6 split between two players, and random selection.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.errors import ProfileError

__all__ = ["drop_highest", "random_selection", "random_selection_rerolls", "roll_off", "split_roll"]

R = "6e-rules"


def drop_highest(dice: int, sides: int = 6) -> Dist:
    """The sum of ``dice`` dice after discarding the highest one."""
    out: dict[int, int] = {}

    def walk(left: int, total: int, high: int) -> None:
        if left == 0:
            out[total - high] = out.get(total - high, 0) + 1
            return
        for face in range(1, sides + 1):
            walk(left - 1, total + face, max(high, face))

    walk(dice, 0, 0)
    return Dist(out)


@rule("roll-off", cite(R, 198, 200))
def roll_off(modifier_a: int = 0, modifier_b: int = 0) -> Fraction:
    """P(player A wins a roll-off): both roll a D6 (with their modifiers), ties are rolled again."""
    a, b = Dist.die(6) + modifier_a, Dist.die(6) + modifier_b
    win = sum((p * b.p_at_most(v - 1) for v, p in a.items()), Fraction(0))
    tie = sum((p * b.prob(v) for v, p in a.items()), Fraction(0))
    return win / (1 - tie)


@rule("random-selection", cite(R, 202, 208))
def random_selection_rerolls(items: int) -> list[int]:
    """The D6 faces rolled again when choosing among fewer than six results: those no result has."""
    if items < 1:
        raise ProfileError("items", "random selection needs at least one item.")
    return list(range(items + 1, 7))


@rule("dice", cite(R, 136, 136))
def split_roll(faces_a: set[int] | frozenset[int]) -> Fraction:
    """P(one D6 settles a question for player A) when A takes ``faces_a`` and B the other faces."""
    return sum((p for face, p in Dist.die(6).items() if face in faces_a), Fraction(0))


@rule("random-selection", cite(R, 202, 208))
def random_selection(items: int) -> Dist:
    """Which of ``items`` numbered results is chosen: up to six, roll a D6 and re-roll unassigned
    faces; more than six, split into groups of six or fewer as equal as possible, pick a group at
    random, then an item in it."""
    if items < 1:
        raise ProfileError("items", "random selection needs at least one item.")
    if items <= 6:
        return Dist.uniform(1, items)
    groups = math.ceil(items / 6)
    sizes = [items // groups + (1 if i < items % groups else 0) for i in range(groups)]
    parts: list[tuple[Fraction, Dist]] = []
    start = 1
    for size in sizes:
        parts.append((Fraction(1, groups), Dist.uniform(start, start + size - 1)))
        start += size
    return Dist.mixture(parts)
