"""Measuring rules shared by the editions: range, engagement range, coherency, base contact.

The edition's numbers come from its flags (:mod:`rulekb.engine.editions`), read as exact fractions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.editions import find_edition
from rulekb.engine.editions.base import Edition
from rulekb.engine.errors import RuleNotInEdition
from rulekb.engine.table.geometry import Model, distance_within, horizontal_within, sqrt_at_most, within

__all__ = [
    "CoherencyReport",
    "base_contact",
    "coherency",
    "coherency_groups",
    "edition_numbers",
    "in_engagement_range",
    "in_range",
]


def _exact(value: float | None) -> Fraction | None:
    return None if value is None else Fraction(str(value))


@dataclass(frozen=True)
class EditionNumbers:
    engagement_horizontal: Fraction | None
    engagement_vertical: Fraction | None
    coherency_horizontal: Fraction
    coherency_vertical: Fraction | None
    two_neighbours_from: int | None


def edition_numbers(edition: str | Edition = "10") -> EditionNumbers:
    rules = find_edition(edition) if isinstance(edition, str) else edition
    return EditionNumbers(_exact(rules.engagement_horizontal), _exact(rules.engagement_vertical),
                          Fraction(str(rules.coherency_horizontal)), _exact(rules.coherency_vertical),
                          rules.coherency_two_neighbours_from)


@rule("range", cite("10e-core", 186, 188), cite("6e-rules", 154, 156))
def in_range(a: Model, b: Model, inches_: Fraction) -> bool:
    """Within range: the closest points of the two models at most that far apart."""
    return distance_within(a, b, Fraction(inches_))


@rule("engagement-range", cite("10e-core", 160, 165))
def in_engagement_range(a: Model, b: Model, edition: str = "10") -> bool:
    """10th edition: within 1" horizontally and 5" vertically; older editions have no Engagement Range."""
    numbers = edition_numbers(edition)
    if numbers.engagement_horizontal is None:
        name = find_edition(edition).name
        raise RuleNotInEdition(f"{name} has no Engagement Range; its models fight in base contact.")
    return within(a, b, numbers.engagement_horizontal, numbers.engagement_vertical)


@rule("base-contact", cite("10e-core", 997), cite("6e-assault", 64, 70))
def base_contact(a: Model, b: Model) -> bool:
    """Bases touching: no gap between them, at the same level (within the height of the taller model)."""
    if not (a.base.round and b.base.round):
        return horizontal_within(a, b, Fraction(0)) and abs(a.z - b.z) <= max(a.height, b.height)
    d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2
    return sqrt_at_most(d2, a.base.rx + b.base.rx) and abs(a.z - b.z) <= max(a.height, b.height)


@dataclass(frozen=True)
class CoherencyReport:
    ok: bool
    needed: int
    """Neighbours each model needs."""
    lacking: tuple[int, ...]
    """Indices of models with too few neighbours."""
    groups: tuple[tuple[int, ...], ...]
    """Connected groups of models (a coherent unit is one group)."""


def coherency_groups(near: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    seen: set[int] = set()
    groups: list[tuple[int, ...]] = []
    for start in range(len(near)):
        if start in seen:
            continue
        stack, group = [start], []
        seen.add(start)
        while stack:
            i = stack.pop()
            group.append(i)
            for j in near[i]:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        groups.append(tuple(sorted(group)))
    return tuple(groups)


@rule("unit-coherency", cite("10e-core", 169, 174), cite("6e-rules", 118, 120))
def coherency(models: Sequence[Model], edition: str = "10") -> CoherencyReport:
    """Unit coherency. 10th: every model within 2" horizontally and 5" vertically of one other model (two
    others in units of seven or more), as a single group. 6th/7th: within 2" of at least one other."""
    numbers = edition_numbers(edition)
    n = len(models)
    two_from = numbers.two_neighbours_from
    needed = 0 if n <= 1 else (2 if two_from is not None and n >= two_from else 1)
    near = [[j for j in range(n) if j != i and within(models[i], models[j], numbers.coherency_horizontal,
                                                      numbers.coherency_vertical)] for i in range(n)]
    lacking = tuple(i for i in range(n) if len(near[i]) < needed)
    groups = coherency_groups(near)
    return CoherencyReport(ok=not lacking and len(groups) <= 1, needed=needed, lacking=lacking, groups=groups)
