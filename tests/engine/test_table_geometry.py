"""Property tests for the table engine's geometry: exact comparisons against independent computations."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import (
    INCH_PER_MM,
    Base,
    Model,
    ceil_sqrt,
    distance_within,
    horizontal_distance,
    horizontal_within,
    inches,
    point_in_polygon,
    sqrt_at_most,
    wholly_inside,
    wholly_within,
    within,
)
from rulekb.engine.table.measure import coherency

coords = st.fractions(min_value=-30, max_value=30, max_denominator=16)
heights = st.fractions(min_value=0, max_value=8, max_denominator=4)
bases = st.sampled_from([25, 28, 32, 40, 50, 60, 90])
lengths = st.fractions(min_value=0, max_value=24, max_denominator=8)


@st.composite
def models(draw: st.DrawFn, name: str = "m") -> Model:
    size = Fraction(draw(bases))
    return Model(name, draw(coords), draw(coords), draw(heights), Base(size, size))


def test_millimetres_are_converted_exactly() -> None:
    assert Base(Fraction(32), Fraction(32)).radius == Fraction(32, 2) * INCH_PER_MM == Fraction(80, 127)
    assert inches("4 1/2") == Fraction(9, 2) and inches("9/2") == Fraction(9, 2) and inches(4.5) == Fraction(9, 2)
    with pytest.raises(ProfileError, match="length in inches"):
        inches("four")


@settings(deadline=None)
@given(st.fractions(min_value=0, max_value=400, max_denominator=50), st.fractions(min_value=-20, max_value=20,
       max_denominator=50), st.fractions(min_value=0, max_value=400, max_denominator=50))
def test_sqrt_comparison_matches_high_precision(a2: Fraction, b: Fraction, c2: Fraction) -> None:
    from decimal import Decimal, getcontext

    getcontext().prec = 60
    lhs = (Decimal(a2.numerator) / Decimal(a2.denominator)).sqrt()
    rhs = Decimal(b.numerator) / Decimal(b.denominator) + (Decimal(c2.numerator) / Decimal(c2.denominator)).sqrt()
    if abs(lhs - rhs) > Decimal("1e-40"):
        assert sqrt_at_most(a2, b, c2) == (lhs <= rhs)


@settings(deadline=None)
@given(st.fractions(min_value=0, max_value=500, max_denominator=30))
def test_ceil_sqrt(q: Fraction) -> None:
    n = ceil_sqrt(q)
    assert n * n >= q and (n == 0 or (n - 1) ** 2 < q)


@settings(deadline=None)
@given(models("a"), models("b"), lengths)
def test_within_is_symmetric(a: Model, b: Model, d: Fraction) -> None:
    assert horizontal_within(a, b, d) == horizontal_within(b, a, d)
    assert distance_within(a, b, d) == distance_within(b, a, d)
    assert within(a, b, d, Fraction(5)) == within(b, a, d, Fraction(5))


@settings(deadline=None)
@given(models("a"), models("b"), lengths)
def test_exact_within_agrees_with_the_float_distance(a: Model, b: Model, d: Fraction) -> None:
    gap = horizontal_distance(a, b)
    if abs(gap - float(d)) > 1e-9:
        assert horizontal_within(a, b, d) == (gap <= float(d))


@settings(deadline=None)
@given(models("a"), models("b"), models("c"))
def test_triangle_inequality_of_centre_distances(a: Model, b: Model, c: Model) -> None:
    # gap(a, c) <= gap(a, b) + diameter(b) + gap(b, c): a path from a to c through b's base
    ab, bc, ac = horizontal_distance(a, b), horizontal_distance(b, c), horizontal_distance(a, c)
    assert ac <= ab + 2 * float(b.base.radius) + bc + 1e-9


@settings(deadline=None)
@given(models("a"), models("b"), lengths)
def test_wholly_within_implies_within(a: Model, b: Model, d: Fraction) -> None:
    if wholly_within(a, b, d):
        assert horizontal_within(a, b, d)


@settings(deadline=None)
@given(models("a"), models("b"), lengths, st.integers(min_value=1, max_value=5))
def test_scaling_positions_and_distance_together(a: Model, b: Model, d: Fraction, k: int) -> None:
    # scaling every length (positions, bases, distance) by k keeps every answer
    def scaled(m: Model) -> Model:
        return Model(m.id, m.x * k, m.y * k, m.z * k, Base(m.base.length_mm * k, m.base.width_mm * k))

    assert horizontal_within(a, b, d) == horizontal_within(scaled(a), scaled(b), d * k)
    assert distance_within(a, b, d) == distance_within(scaled(a), scaled(b), d * k)
    assert wholly_within(a, b, d) == wholly_within(scaled(a), scaled(b), d * k)


@settings(deadline=None)
@given(models("a"), models("b"), lengths, coords, coords)
def test_translation_changes_nothing(a: Model, b: Model, d: Fraction, dx: Fraction, dy: Fraction) -> None:
    def moved(m: Model) -> Model:
        return m.moved(m.x + dx, m.y + dy)

    assert horizontal_within(a, b, d) == horizontal_within(moved(a), moved(b), d)


def _all_pairs_coherent(ms: list[Model]) -> bool:
    """An independent check: the neighbour counts and one connected group, from the float distances."""
    n = len(ms)
    if n <= 1:
        return True
    need = 2 if n >= 7 else 1
    near = {i: {j for j in range(n) if j != i and horizontal_distance(ms[i], ms[j]) <= 2 + 1e-12
                and abs(ms[i].z - ms[j].z) <= 5} for i in range(n)}
    if any(len(v) < need for v in near.values()):
        return False
    seen, stack = {0}, [0]
    while stack:
        for j in near[stack.pop()] - seen:
            seen.add(j)
            stack.append(j)
    return len(seen) == n


@settings(deadline=None, max_examples=150)
@given(st.lists(st.tuples(st.fractions(min_value=0, max_value=12, max_denominator=4),
                          st.fractions(min_value=0, max_value=6, max_denominator=4),
                          st.sampled_from([Fraction(0), Fraction(3), Fraction(6)])), min_size=1, max_size=9))
def test_coherency_against_an_all_pairs_graph(points: list[tuple[Fraction, Fraction, Fraction]]) -> None:
    ms = [Model(f"m{i}", x, y, z, Base(Fraction(25), Fraction(25))) for i, (x, y, z) in enumerate(points)]
    gaps = [horizontal_distance(a, b) for a, b in itertools.combinations(ms, 2)]
    if any(abs(g - 2) < 1e-9 for g in gaps):
        return  # a tie at exactly 2": the float check cannot decide it
    assert coherency(ms).ok == _all_pairs_coherent(ms)


def test_point_in_polygon_and_wholly_inside() -> None:
    square = ((Fraction(0), Fraction(0)), (Fraction(4), Fraction(0)), (Fraction(4), Fraction(4)), (Fraction(0), Fraction(4)))
    assert point_in_polygon((Fraction(2), Fraction(2)), square)
    assert point_in_polygon((Fraction(4), Fraction(2)), square)  # on the edge
    assert not point_in_polygon((Fraction(5), Fraction(2)), square)
    base = Base(Fraction(254, 10), Fraction(254, 10))  # 1" across
    assert wholly_inside(Model("a", Fraction(2), Fraction(2), base=base), square)
    assert wholly_inside(Model("a", Fraction(1, 2), Fraction(2), base=base), square)  # touches the edge
    assert not wholly_inside(Model("a", Fraction(1, 4), Fraction(2), base=base), square)


def test_oval_bases_are_measured_numerically() -> None:
    oval = Model("o", Fraction(0), Fraction(0), base=Base(Fraction(254), Fraction(127)))  # 10" x 5"
    rnd = Model("r", Fraction(0), Fraction(8), base=Base(Fraction(254, 10), Fraction(254, 10)))
    assert math.isclose(horizontal_distance(oval, rnd), 8 - 2.5 - 0.5, abs_tol=1e-7)
    side = Model("r", Fraction(8), Fraction(0), base=Base(Fraction(254, 10), Fraction(254, 10)))
    assert math.isclose(horizontal_distance(oval, side), 8 - 5 - 0.5, abs_tol=1e-7)


@settings(deadline=None, max_examples=40)
@given(coords, coords, st.sampled_from([(60, 35), (75, 42), (120, 70), (280, 150)]), models("r"))
def test_oval_gap_against_dense_sampling(x: Fraction, y: Fraction, size: tuple[int, int], rnd: Model) -> None:
    oval = Model("o", x, y, base=Base(Fraction(size[0]), Fraction(size[1])))
    rx, ry = float(oval.base.rx), float(oval.base.ry)
    cx, cy = float(rnd.x), float(rnd.y)
    inside = ((cx - float(x)) / rx) ** 2 + ((cy - float(y)) / ry) ** 2 <= 1
    sampled = min(math.hypot(float(x) + rx * math.cos(t) - cx, float(y) + ry * math.sin(t) - cy)
                  for t in (2 * math.pi * i / 20000 for i in range(20000)))
    expected = 0.0 if inside else max(0.0, sampled - float(rnd.base.radius))
    assert math.isclose(horizontal_distance(oval, rnd), expected, abs_tol=1e-5)
    assert math.isclose(horizontal_distance(rnd, oval), expected, abs_tol=1e-5)
