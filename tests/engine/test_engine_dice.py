"""Distributions and dice expressions against direct enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekb.engine.dice import D3, DiceExpr, Dist, parse_dice
from rulekb.engine.errors import DiceError
from rulekb.engine.rolls import D6Test, Reroll, parse_reroll

small = st.dictionaries(st.integers(-3, 6), st.integers(1, 5), min_size=1, max_size=4).map(Dist)


def enumerate_sum(a: Dist, b: Dist) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


@given(small, small)
def test_convolution(a: Dist, b: Dist) -> None:
    assert dict((a + b).items()) == enumerate_sum(a, b)
    assert (a + b).mean() == a.mean() + b.mean()


@given(small.map(lambda d: d.map(abs)), st.integers(0, 3))
def test_compound_equals_mixture_of_sums(count: Dist, copies: int) -> None:
    base = Dist({0: 1, 1: 2})
    expected: dict[int, Fraction] = {}
    for n, p in count.items():
        total = Dist.constant(0)
        for _ in range(n):
            total = total + base
        for v, q in total.items():
            expected[v] = expected.get(v, Fraction(0)) + p * q
    assert dict(base.compound(count).items()) == expected
    assert base.times(copies) == base.compound(Dist.constant(copies))


@given(st.integers(0, 4), st.fractions(0, 1).filter(lambda f: f.denominator <= 12))
def test_thin_is_binomial(n: int, keep: Fraction) -> None:
    assert Dist.constant(n).thin(keep) == Dist.binomial(n, keep)


def test_d3_is_a_halved_d6() -> None:
    assert Dist.uniform(1, 3) == D3
    assert [f for f in range(1, 7) if (f + 1) // 2 == 2] == [3, 4]


@pytest.mark.parametrize("text, low, high, mean", [
    ("D6", 1, 6, Fraction(7, 2)), ("2D6", 2, 12, 7), ("D3+1", 2, 4, 3), ("3D3", 3, 9, 6), ("D6+2", 3, 8, Fraction(11, 2)),
    ("D6x5", 5, 30, Fraction(35, 2)), ("4", 4, 4, 4), ("д6", 1, 6, Fraction(7, 2)), ("D2", 1, 2, Fraction(3, 2)),
])
def test_parse_dice(text: str, low: int, high: int, mean: Fraction) -> None:
    dist = parse_dice(text).dist()
    assert (dist.min(), dist.max(), dist.mean()) == (low, high, mean)
    assert parse_dice(text).mean() == mean


@pytest.mark.parametrize("expr", ["D6", "2D6", "D3+1", "D6x5", "3", "D6-1"])
def test_dice_round_trip(expr: str) -> None:
    parsed = parse_dice(expr)
    assert parse_dice(str(parsed)) == parsed
    assert eval(repr(parsed), {"DiceExpr": DiceExpr}) == parsed


@pytest.mark.parametrize("bad", ["2D", "D0", "0D6", "x", "", "D6+"])
def test_bad_dice_are_refused(bad: str) -> None:
    with pytest.raises(DiceError, match="D6"):
        parse_dice(bad)


def test_dist_repr_is_a_constructor_call() -> None:
    d = Dist({0: 1, 2: 3})
    assert eval(repr(d), {"Dist": Dist}) == d


def test_probabilities_must_sum_to_one() -> None:
    with pytest.raises(DiceError):
        Dist.from_probabilities({1: Fraction(1, 2)})


@given(st.integers(1, 7), st.integers(-3, 3), st.sampled_from(list(Reroll)), st.sampled_from([None, 5, 6]))
def test_d6_test_by_enumeration(target: int, modifier: int, policy: Reroll, crit: int | None) -> None:
    test = D6Test(target=target, modifier=modifier, critical_on=crit, reroll=policy)
    counts = [Fraction(0)] * 3
    for first in range(1, 7):
        if policy is not Reroll.SINGLE and test.rerolled(first):
            for second in range(1, 7):
                counts[test.face(second)] += Fraction(1, 36)
        else:
            counts[test.face(first)] += Fraction(1, 6)
    assert test.probabilities() == tuple(counts)
    assert sum(test.probabilities()) == 1


def test_reroll_aliases() -> None:
    assert parse_reroll("1s") is Reroll.ONES
    assert parse_reroll("Failed") is Reroll.FAILED
    assert parse_reroll("non-crit") is Reroll.NONCRIT
    with pytest.raises(DiceError, match="none, ones, failed"):
        parse_reroll("sometimes")
