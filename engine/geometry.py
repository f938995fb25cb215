"""The earlier geometry interface, kept for its callers: round bases given as floats, answered by the exact
table engine (:mod:`rulekb.engine.table`).

Positions are in inches (``x``, ``y`` on the table, ``z`` the height of the model's base); bases are given by
diameter in millimetres, as they are sold. Distances are measured between the closest points of the bases
(10e-core 186–188; 6e-rules 154–156), and «within» means «not more than». Every comparison is exact: the
floats are read as the decimals they print (``4.2`` is 21/5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.editions import find_edition
from rulekb.engine.table import geometry as g
from rulekb.engine.table import measure
from rulekb.engine.table.measure import CoherencyReport

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

    def exact(self) -> g.Model:
        size = g.inches(self.base_mm)
        return g.Model(self.name or "model", g.inches(self.x), g.inches(self.y), g.inches(self.z), g.Base(size, size))


def _q(value: float) -> Fraction:
    return g.inches(value)


def horizontal_gap(a: Model, b: Model) -> float:
    """Inches between the closest edges of two round bases, seen from above (0 if they touch or overlap)."""
    return g.horizontal_distance(a.exact(), b.exact())


def vertical_gap(a: Model, b: Model) -> float:
    return float(g.vertical_gap(a.exact(), b.exact()))


def within(a: Model, b: Model, horizontal: float, vertical: float | None = None) -> bool:
    """Within ``horizontal`` inches across the table (and ``vertical`` inches up or down, if given)."""
    return g.within(a.exact(), b.exact(), _q(horizontal), None if vertical is None else _q(vertical))


def in_range(attacker: Model, target: Model, weapon_range: float) -> bool:
    """A model is within range when the distance between the bases is not more than the range."""
    return measure.in_range(attacker.exact(), target.exact(), _q(weapon_range))


def in_engagement_range(a: Model, b: Model, edition: str = "10") -> bool:
    """10th edition: within 1" horizontally and 5" vertically (the edition's engagement flags)."""
    return measure.in_engagement_range(a.exact(), b.exact(), edition)


def coherency(models: Sequence[Model], edition: str = "10") -> CoherencyReport:
    """Unit coherency (see :func:`rulekb.engine.table.measure.coherency`)."""
    return measure.coherency([m.exact() for m in models], edition)


@rule("objective-range", cite("10e-core", 2046, 2051))
def within_objective(model: Model, x: float, y: float, z: float = 0.0, marker_mm: float = 40.0) -> bool:
    """A model is in range of an objective marker within 3" horizontally and 5" vertically of it
    (measured to the closest part of the 40 mm marker)."""
    return within(model, Model(x, y, z, marker_mm), 3.0, 5.0)


@rule("pivot", cite("10e-core", 394, 399), cite("10e-core", 411, 423))
def move_used(segments: Sequence[float], pivot_value: float = 0.0, pivots: int = 0) -> float:
    """Inches a move uses: its straight lines, plus the pivot value once if the model pivots at all."""
    used = sum((_q(s) for s in segments), Fraction(0)) + (_q(pivot_value) if pivots else Fraction(0))
    return float(used)


@rule("charge", cite("10e-core", 985, 1010), cite("6e-assault", 64, 70))
def charge_needed(horizontal: float, climb: float = 0.0, edition: str = "10") -> int:
    """The charge roll needed to reach the target: in the 10th edition the charger must end within
    Engagement Range (1" horizontally), climbing counts as part of the move; in the 6th/7th it must
    reach base contact."""
    reach = find_edition(edition).engagement_horizontal or 0.0
    distance = max(Fraction(0), _q(horizontal) - _q(reach)) + _q(climb)
    return -(-distance.numerator // distance.denominator)
