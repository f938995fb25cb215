"""Distances between round bases, engagement range, coherency, ranges, pivots and charge distances.

Positions are in inches (``x``, ``y`` on the table, ``z`` the height of the model's base); bases are
given by diameter in millimetres, as they are sold. Distances are measured between the closest points
of the bases (10e-core 186–188; 6e-rules 154–156), and «within» means «not more than».
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.concepts import cite, rule
from engine.editions import find_edition
from engine.errors import RuleNotInEdition

__all__ = [
    "CoherencyReport",
    "Model",
    "charge_needed",
    "coherency",
    "horizontal_gap",
    "in_engagement_range",
    "in_range",
    "move_used",
    "vertical_gap",
    "within",
    "within_objective",
]

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Model:
    x: float
    y: float
    z: float = 0.0
    base_mm: float = 32.0
    name: str = ""

    @property
    def radius(self) -> float:
        """Base radius in inches."""
        return self.base_mm / MM_PER_INCH / 2


def horizontal_gap(a: Model, b: Model) -> float:
    """Inches between the closest edges of two round bases, seen from above (0 if they touch or overlap)."""
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)


def vertical_gap(a: Model, b: Model) -> float:
    return abs(a.z - b.z)


def within(a: Model, b: Model, horizontal: float, vertical: float | None = None) -> bool:
    """Within ``horizontal`` inches across the table (and ``vertical`` inches up or down, if given)."""
    ok = horizontal_gap(a, b) <= horizontal + 1e-9
    return ok and (vertical is None or vertical_gap(a, b) <= vertical + 1e-9)


@rule("range", cite("10e-core", 186, 188), cite("6e-rules", 154, 156))
def in_range(attacker: Model, target: Model, weapon_range: float) -> bool:
    """A model is within range when the distance between the bases is not more than the range."""
    return math.hypot(horizontal_gap(attacker, target), vertical_gap(attacker, target)) <= weapon_range + 1e-9


@rule("engagement-range", cite("10e-core", 158, 165))
def in_engagement_range(a: Model, b: Model, edition: str = "10") -> bool:
    """10th edition: within 1" horizontally and 5" vertically (the edition's engagement flags)."""
    rules = find_edition(edition)
    if rules.engagement_horizontal is None:
        raise RuleNotInEdition(f"{rules.name} has no Engagement Range; its models fight in base contact.")
    return within(a, b, rules.engagement_horizontal, rules.engagement_vertical)


@dataclass(frozen=True)
class CoherencyReport:
    ok: bool
    needed: int
    """Neighbours each model needs."""
    lacking: tuple[int, ...]
    """Indices of models with too few neighbours."""
    groups: tuple[tuple[int, ...], ...]
    """Connected groups of models (a coherent unit is one group)."""


@rule("unit-coherency", cite("10e-core", 167, 174), cite("6e-rules", 118, 120))
def coherency(models: Sequence[Model], edition: str = "10") -> CoherencyReport:
    """Unit coherency. 10th: every model within 2" horizontally and 5" vertically of one other model (two
    others in units of seven or more), as a single group. 6th/7th: within 2" of at least one other."""
    rules = find_edition(edition)
    n = len(models)
    two_from = rules.coherency_two_neighbours_from
    needed = 0 if n <= 1 else (2 if two_from is not None and n >= two_from else 1)
    horizontal, vertical = rules.coherency_horizontal, rules.coherency_vertical
    near = [[j for j in range(n) if j != i and within(models[i], models[j], horizontal, vertical)] for i in range(n)]
    lacking = tuple(i for i in range(n) if len(near[i]) < needed)
    seen: set[int] = set()
    groups: list[tuple[int, ...]] = []
    for start in range(n):
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
    return CoherencyReport(ok=not lacking and len(groups) <= 1, needed=needed, lacking=lacking, groups=tuple(groups))


@rule("objective-range", cite("10e-core", 2046, 2051))
def within_objective(model: Model, x: float, y: float, z: float = 0.0, marker_mm: float = 40.0) -> bool:
    """A model is in range of an objective marker within 3" horizontally and 5" vertically of it
    (measured to the closest part of the 40 mm marker)."""
    return within(model, Model(x, y, z, marker_mm), 3.0, 5.0)


@rule("pivot", cite("10e-core", 394, 399), cite("10e-core", 411, 423))
def move_used(segments: Sequence[float], pivot_value: float = 0.0, pivots: int = 0) -> float:
    """Inches a move uses: its straight lines, plus the pivot value once if the model pivots at all."""
    return sum(segments) + (pivot_value if pivots else 0.0)


@rule("charge", cite("10e-core", 985, 1010), cite("6e-assault", 64, 70))
def charge_needed(horizontal: float, climb: float = 0.0, edition: str = "10") -> int:
    """The charge roll needed to reach the target: in the 10th edition the charger must end within
    Engagement Range (1" horizontally), climbing counts as part of the move; in the 6th/7th it must
    reach base contact."""
    reach = find_edition(edition).engagement_horizontal or 0.0
    return max(0, math.ceil(max(0.0, horizontal - reach) + climb - 1e-9))
