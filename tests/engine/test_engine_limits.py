"""The engine's limits: refused before any distribution is built, with the field, the limit and why."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekb.engine import dice as dice_module
from rulekb.engine import limits
from rulekb.engine.calc import calculate, parse_profile
from rulekb.engine.dice import parse_dice
from rulekb.engine.errors import DiceError, EngineError, ProfileError


def _profile(**weapon: Any) -> dict[str, Any]:
    return {"edition": "10", "weapon": weapon, "defender": {"models": 10, "wounds": 2}}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("99D999", "99 dice"),
        ("10D999", "999 sides"),
        ("1000000D6", "1000000 dice"),
        ("D1000000000", "1000000000 sides"),
        ("D6x1000", "multiplies by 1000"),
        ("D6+5000", "adds 5000"),
        ("998", "above 100"),
        ("1" * 5000, "5000 characters"),
    ],
)
def test_dice_above_the_bounds_are_refused_with_the_number(text: str, named: str) -> None:
    with pytest.raises(DiceError, match=named):
        parse_dice(text)


def test_dice_within_the_bounds_still_parse() -> None:
    assert parse_dice(f"{limits.DICE_COUNT_MAX}D{limits.DICE_SIDES_MAX}").count == limits.DICE_COUNT_MAX
    assert parse_dice("D6x5").multiplier == 5
    assert parse_dice(limits.DICE_VALUE_MAX).plus == limits.DICE_VALUE_MAX


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"edition": "10", "attacker": {"models": 101}}, "attacker.models"),
        ({"edition": "10", "defender": {"models": 101}}, "defender.models"),
        ({"edition": "10", "defender": {"wounds": 31}}, "defender.wounds"),
        ({"edition": "10", "attacker": {"models": 100}, "weapon": {"attacks": "D6"}}, "weapon.attacks"),
        (_profile(attacks="20", abilities=["sustained-hits 2D6"]) | {"attacker": {"models": 5}}, "weapon.abilities"),
        ({**_profile(attacks="20", damage="D6"), "attacker": {"models": 10}, "defender": {"models": 100, "wounds": 30}},
         "defender.models"),
        ({**_profile(attacks="20"), "attacker": {"models": 7}, "rerolls": {"wound": "single"}}, "rerolls"),
        ({"edition": "10", "defender": {"models": "9" * 5000}}, "defender.models"),
    ],
)
def test_profiles_above_the_limits_are_refused_before_any_distribution(
    data: dict[str, Any], field: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_work(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a distribution was built before the limits were checked")

    monkeypatch.setattr(dice_module.DiceExpr, "dist", no_work)
    monkeypatch.setattr(dice_module.Dist, "times", no_work)
    monkeypatch.setattr(dice_module.Dist, "compound", no_work)
    with pytest.raises(ProfileError) as caught:
        calculate(data)
    assert caught.value.field == field
    assert any(ch.isdigit() for ch in str(caught.value))  # the limit is stated


def test_the_work_estimate_grows_with_every_size() -> None:
    base = _profile(attacks="10", damage="D3")
    _, small = parse_profile(base)
    bigger = [
        {**base, "attacker": {"models": 4}},
        {**base, "weapon": {**base["weapon"], "abilities": ["sustained-hits 2"]}},
        {**base, "defender": {"models": 30, "wounds": 3}},
        {**base, "rerolls": {"wound": "single"}},
        {**base, "defender": {"models": 10, "wounds": 2, "fnp": 5}},
    ]
    for data in bigger:
        _, profile = parse_profile(data)
        assert limits.estimate_work(profile).operations > limits.estimate_work(small).operations, data


def test_a_profile_near_the_bound_is_computed_exactly() -> None:
    data = {"edition": "10", "attacker": {"models": 10}, "weapon": {"attacks": "D6", "damage": "D3"},
            "defender": {"models": 30, "wounds": 3}}
    _, profile = parse_profile(data)
    assert limits.estimate_work(profile).operations <= limits.WORK_MAX
    result = calculate(data)
    total = sum(Fraction(p) for _, p in result["distributions"]["damage"])
    assert total == 1


DICE = st.one_of(
    st.integers(min_value=-10, max_value=10**12),
    st.from_regex(r"\A\d{0,8}[DdДд]\d{1,10}([x*]\d{1,6})?([+-]\d{1,8})?\Z"),
    st.text(max_size=60),
)


@settings(max_examples=200, deadline=None)
@given(attacks=DICE, damage=DICE, models=st.integers(-5, 10**6), attackers=st.integers(-5, 10**6))
def test_any_profile_is_refused_or_within_the_work_bound(attacks: Any, damage: Any, models: int, attackers: int) -> None:
    data = {"edition": "10", "attacker": {"models": attackers}, "weapon": {"attacks": attacks, "damage": damage},
            "defender": {"models": models, "wounds": 2}}
    try:
        _, profile = parse_profile(data)
    except EngineError:
        return
    work = limits.estimate_work(profile)
    assert work.operations <= limits.WORK_MAX and work.attacks <= limits.ATTACKS_MAX
