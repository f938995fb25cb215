"""Exact geometry of the tabletop: bases, distances between their closest points, «within» and «wholly within».

Every length is a :class:`~fractions.Fraction` of an inch; bases are sold in millimetres and converted
exactly (1 mm = 10/254 inch). Distances between bases involve square roots, so the engine never
computes them to compare: «within d» is decided exactly on squares (``|c_a c_b| <= d + r_a + r_b``
squared), and only the figures it *prints* are floats. Oval bases are measured numerically (the
closest points of two ellipses have no closed form); a comparison on them uses a 1e-9" tolerance.

Points on a base's rim that the engine uses for lines of sight are exact rational points of the
circle (from the Pythagorean triples 3-4-5 and 5-12-13), so visibility tests are exact as well.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulekb.engine.errors import ProfileError
from rulekb.engine.table.planar import (
    Point,
    Polygon,
    d2,
    point_in_polygon,
    segment_crosses_polygon,
    segment_near_polygon,
    segment_point_d2,
)

__all__ = [
    "INCH_PER_MM",
    "Base",
    "Model",
    "Point",
    "Polygon",
    "ceil_sqrt",
    "distance",
    "distance_within",
    "horizontal_distance",
    "horizontal_within",
    "inches",
    "millimetres",
    "path_length",
    "point_in_polygon",
    "rim_points",
    "segment_crosses_polygon",
    "segment_hits_base",
    "segment_near_polygon",
    "segment_point_d2",
    "sqrt_at_most",
    "vertical_gap",
    "wholly_inside",
    "wholly_within",
    "within",
]

INCH_PER_MM = Fraction(10, 254)
_TOLERANCE = 1e-9


def inches(value: Any, where: str = "value") -> Fraction:
    """An exact length in inches from ``3``, ``4.5``, ``"4 1/2"``, ``"9/2"`` or a Fraction."""
    if isinstance(value, bool):
        raise ProfileError(where, f"must be a length in inches, got {value!r}.")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ProfileError(where, f"must be a finite length, got {value!r}.")
        return Fraction(str(value))
    if isinstance(value, str):
        text = value.strip().replace("″", "").replace('"', "")
        parts = text.split()
        try:
            if len(parts) == 2:  # "4 1/2"
                whole, frac = Fraction(parts[0]), Fraction(parts[1])
                return whole + frac if whole >= 0 else whole - frac
            if len(parts) == 1:
                return Fraction(parts[0])
        except (ValueError, ZeroDivisionError):
            pass
    raise ProfileError(where, f"must be a length in inches like 3, 4.5, \"4 1/2\" or \"9/2\", got {value!r}.")


def millimetres(value: Any, where: str = "value") -> Fraction:
    """Millimetres as exact inches."""
    return inches(value, where) * INCH_PER_MM


def sqrt_at_most(a2: Fraction, b: Fraction, c2: Fraction = Fraction(0)) -> bool:
    """Exactly whether ``sqrt(a2) <= b + sqrt(c2)`` for ``a2, c2 >= 0``."""
    if c2 == 0:
        return b >= 0 and a2 <= b * b
    if b >= 0:
        # sqrt(a2) <= b + sqrt(c2)  <=>  a2 - b² - c2 <= 2 b sqrt(c2)
        lhs = a2 - b * b - c2
        return lhs <= 0 or lhs * lhs <= 4 * b * b * c2
    # b < 0: sqrt(a2) + |b| <= sqrt(c2)  <=>  a2 + b² + 2|b| sqrt(a2) <= c2
    rest = c2 - a2 - b * b
    return rest >= 0 and 4 * b * b * a2 <= rest * rest


def ceil_sqrt(q: Fraction) -> int:
    """The least whole number ``n`` with ``n >= sqrt(q)`` (exact)."""
    if q <= 0:
        return 0
    n = math.isqrt(q.numerator // q.denominator)
    while n * n < q:
        n += 1
    while n > 0 and (n - 1) * (n - 1) >= q:
        n -= 1
    return n


def _exact_sqrt(q: Fraction) -> Fraction | None:
    num, den = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(num, den) if num * num == q.numerator and den * den == q.denominator else None


@dataclass(frozen=True)
class Base:
    """A base as sold: round (``length_mm == width_mm``) or oval (long axis along x)."""

    length_mm: Fraction = Fraction(32)
    width_mm: Fraction = Fraction(32)

    @classmethod
    def parse(cls, value: Any, where: str = "base") -> Base:
        """``32`` (round, mm), ``"60x35"`` or ``[60, 35]`` (oval, mm)."""
        if isinstance(value, str) and "x" in value.lower():
            a, b = value.lower().split("x", 1)
            return cls(inches(a, where), inches(b, where))
        if isinstance(value, list) and len(value) == 2:
            return cls(inches(value[0], where), inches(value[1], where))
        size = inches(value, where)
        if size <= 0:
            raise ProfileError(where, f"a base is at least 1 mm across, got {value!r}.")
        return cls(size, size)

    @property
    def round(self) -> bool:
        return self.length_mm == self.width_mm

    @property
    def rx(self) -> Fraction:
        """Half the long axis, in inches."""
        return self.length_mm * INCH_PER_MM / 2

    @property
    def ry(self) -> Fraction:
        return self.width_mm * INCH_PER_MM / 2

    @property
    def radius(self) -> Fraction:
        if not self.round:
            raise ValueError("an oval base has no single radius")
        return self.rx

    def __str__(self) -> str:
        return f"{self.length_mm} mm" if self.round else f"{self.length_mm}x{self.width_mm} mm"


@dataclass(frozen=True)
class Model:
    """A model on the table: its base centred at ``(x, y)``, the base's underside at height ``z``.

    ``height`` is how tall the model stands above its base (0: measured at the base only);
    vertical distances run between the spans ``[z, z + height]`` of two models."""

    id: str
    x: Fraction
    y: Fraction
    z: Fraction = Fraction(0)
    base: Base = field(default_factory=Base)
    height: Fraction = Fraction(0)

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    def moved(self, x: Fraction, y: Fraction, z: Fraction | None = None) -> Model:
        return Model(self.id, x, y, self.z if z is None else z, self.base, self.height)


def _refine(fn: Callable[[float], float], t0: float, step: float, maximise: bool = False) -> tuple[float, float]:
    """Pattern search for the optimum of ``fn(t)`` (a function of one angle) from ``t0``."""
    sign = -1.0 if maximise else 1.0
    best_t, best = t0, sign * fn(t0)
    while step > 1e-13:
        improved = False
        for t in (best_t + step, best_t - step):
            v = sign * fn(t)
            if v < best:
                best, best_t, improved = v, t, True
        if not improved:
            step /= 2
    return best_t, sign * best


def _oval_gap(a: Model, b: Model) -> float:
    """Closest distance between two bases seen from above, at least one of them oval (numerical)."""
    if b.base.round:
        return max(0.0, _point_to_base((float(b.x), float(b.y)), a) - float(b.base.rx))
    if a.base.round:
        return max(0.0, _point_to_base((float(a.x), float(a.y)), b) - float(a.base.rx))

    def boundary(m: Model, t: float) -> tuple[float, float]:
        return (float(m.x) + float(m.base.rx) * math.cos(t), float(m.y) + float(m.base.ry) * math.sin(t))

    # the gap is the smallest distance from a point of a's rim to b's base
    steps = 72
    seeds = sorted((_point_to_base(boundary(a, 2 * math.pi * i / steps), b), 2 * math.pi * i / steps)
                   for i in range(steps))
    if seeds[0][0] == 0.0:
        return 0.0
    _t, best = _refine(lambda t: _point_to_base(boundary(a, t), b), seeds[0][1], 2 * math.pi / steps)
    return max(0.0, best)


def horizontal_distance(a: Model, b: Model) -> float:
    """Inches between the closest points of two bases seen from above (0 if they touch or overlap)."""
    if a.base.round and b.base.round:
        return max(0.0, math.sqrt(d2(a.centre, b.centre)) - float(a.base.rx + b.base.rx))
    return _oval_gap(a, b)


def horizontal_within(a: Model, b: Model, d: Fraction) -> bool:
    """Whether the bases are within ``d`` inches of each other horizontally (exact for round bases)."""
    if a.base.round and b.base.round:
        return sqrt_at_most(d2(a.centre, b.centre), d + a.base.rx + b.base.rx)
    return _oval_gap(a, b) <= float(d) + _TOLERANCE


def vertical_gap(a: Model, b: Model) -> Fraction:
    """Inches between the two models' vertical spans (0 if they overlap in height)."""
    return max(Fraction(0), b.z - (a.z + a.height), a.z - (b.z + b.height))


def within(a: Model, b: Model, horizontal: Fraction, vertical: Fraction | None = None) -> bool:
    """Within ``horizontal`` inches across the table and, if given, ``vertical`` inches up or down."""
    return horizontal_within(a, b, horizontal) and (vertical is None or vertical_gap(a, b) <= vertical)


def distance(a: Model, b: Model) -> float:
    """The distance between the closest points of two models (horizontal and vertical combined)."""
    return math.hypot(horizontal_distance(a, b), float(vertical_gap(a, b)))


def distance_within(a: Model, b: Model, d: Fraction) -> bool:
    """Whether the closest points of the two models are at most ``d`` inches apart (exact for round bases)."""
    v = vertical_gap(a, b)
    if v > d:
        return False
    if not (a.base.round and b.base.round):
        return distance(a, b) <= float(d) + _TOLERANCE
    return sqrt_at_most(d2(a.centre, b.centre), a.base.rx + b.base.rx, d * d - v * v)


def wholly_within(a: Model, b: Model, d: Fraction, vertical: Fraction | None = None) -> bool:
    """Every part of ``a``'s base is within ``d`` inches of ``b`` (round bases: ``|c_a c_b| + r_a - r_b <= d``)."""
    if vertical is not None and vertical_gap(a, b) > vertical:
        return False
    if a.base.round and b.base.round:
        return sqrt_at_most(d2(a.centre, b.centre), d + b.base.rx - a.base.rx)
    def rim(t: float) -> tuple[float, float]:
        return (float(a.x) + float(a.base.rx) * math.cos(t), float(a.y) + float(a.base.ry) * math.sin(t))

    steps = 72
    seed = max(range(steps), key=lambda i: _point_to_base(rim(2 * math.pi * i / steps), b))
    _t, far = _refine(lambda t: _point_to_base(rim(t), b), 2 * math.pi * seed / steps, 2 * math.pi / steps, maximise=True)
    return far <= float(d) + _TOLERANCE


def _point_to_base(p: tuple[float, float], m: Model) -> float:
    """Distance from a point to a base (0 inside), numerically for ovals."""
    rx, ry = float(m.base.rx), float(m.base.ry)
    dx, dy = p[0] - float(m.x), p[1] - float(m.y)
    if (dx / rx) ** 2 + (dy / ry) ** 2 <= 1:
        return 0.0
    if rx == ry:
        return math.hypot(dx, dy) - rx

    def d(t: float) -> float:
        return math.hypot(dx - rx * math.cos(t), dy - ry * math.sin(t))

    # seeds: the point's own parametric angle and a coarse ring of 36, refined from the best
    seeds = [math.atan2(dy * rx, dx * ry)] + [2 * math.pi * i / 36 for i in range(36)]
    t0 = min(seeds, key=d)
    _t, best = _refine(d, t0, math.pi / 18)
    return best


def _float_rim(m: Model, n: int) -> Iterable[tuple[float, float]]:
    for i in range(n):
        t = 2 * math.pi * i / n
        yield (float(m.x) + float(m.base.rx) * math.cos(t), float(m.y) + float(m.base.ry) * math.sin(t))


_RIM = [(Fraction(1), Fraction(0)), (Fraction(3, 5), Fraction(4, 5)), (Fraction(4, 5), Fraction(3, 5)),
        (Fraction(5, 13), Fraction(12, 13)), (Fraction(12, 13), Fraction(5, 13))]


def rim_points(m: Model) -> list[Point]:
    """The centre and exact rational points around the rim of a model's base (for lines of sight)."""
    pts: list[Point] = [m.centre]
    for cx, cy in _RIM:
        for sx in (1, -1):
            for sy in (1, -1):
                p = (m.x + sx * cx * m.base.rx, m.y + sy * cy * m.base.ry)
                if p not in pts:
                    pts.append(p)
    return pts


def path_length(points: Sequence[tuple[Fraction, Fraction, Fraction]]) -> Fraction | float:
    """The length of a move through ``points`` (straight lines, vertical climbing included): exact when
    every segment's length is rational, else a float."""
    total: Fraction = Fraction(0)
    approx = 0.0
    exact = True
    for p, q in itertools.pairwise(points):
        sq = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2
        root = _exact_sqrt(sq)
        if root is None:
            exact = False
            approx += math.sqrt(sq)
        else:
            total += root
    return total if exact else float(total) + approx




def wholly_inside(m: Model, polygon: Polygon) -> bool:
    """Whether a model's whole base lies inside a footprint (exact for round bases)."""
    if not point_in_polygon(m.centre, polygon):
        return False
    if m.base.round:
        r2 = m.base.rx ** 2
        n = len(polygon)
        return all(segment_point_d2(polygon[i], polygon[(i + 1) % n], m.centre) >= r2 for i in range(n))
    return all(point_in_polygon((Fraction(x), Fraction(y)), polygon) for x, y in _float_rim(m, 72))


def segment_hits_base(a: Point, b: Point, mover_radius: Fraction, other: Model) -> bool:
    """Whether a base of ``mover_radius`` moving from ``a`` to ``b`` passes through ``other``'s base
    (their bases would overlap; touching is allowed)."""
    return segment_point_d2(a, b, other.centre) < (mover_radius + other.base.rx) ** 2
