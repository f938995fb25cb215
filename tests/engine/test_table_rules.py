"""The table rules: brute-force checks of every probability they give, verdict reasons, positions and diagrams."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from rulekb.engine.errors import ProfileError
from rulekb.engine.rolls import Reroll
from rulekb.engine.runners import run
from rulekb.engine.table import parse_table, render_svg, tenth
from rulekb.engine.table.older import SIXTH


def _p_2d6_at_least(needed: int, reroll: bool) -> Fraction:
    hits = total = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        if a + b >= needed or not reroll:
            hits += (a + b >= needed) * 36
            total += 36
            continue
        for c, d in itertools.product(range(1, 7), repeat=2):
            hits += c + d >= needed
            total += 1
    return Fraction(hits, total)


@pytest.mark.parametrize("needed", range(2, 14))
@pytest.mark.parametrize("reroll", [False, True])
def test_charge_success_by_enumeration(needed: int, reroll: bool) -> None:
    policy = Reroll.FAILED if reroll else Reroll.NONE
    assert tenth.charge_success(needed, policy) == _p_2d6_at_least(needed, reroll)


def _charge_table(gap_twelfths: int, height: int, fly: bool) -> dict[str, Any]:
    x = Fraction(2) + Fraction(gap_twelfths, 12) + 2 * Fraction(100, 127)
    return {
        "terrain": [{"name": "t", "kind": "building", "height": height, "polygon": [[4, 6], [20, 6], [20, 14], [4, 14]]}],
        "units": [
            {"name": "A", "player": "A", "base": 40, "keywords": ["FLY"] if fly else [], "models": [[2, 10]]},
            {"name": "B", "player": "B", "base": 40, "models": [{"x": str(x), "y": 10, "z": height}]},
        ],
    }


@pytest.mark.parametrize("gap_twelfths", [36, 54, 60, 90, 108])
@pytest.mark.parametrize("fly", [False, True])
def test_charge_from_a_position_by_enumeration(gap_twelfths: int, fly: bool) -> None:
    # A charge from a position onto a 3" feature: the roll needed comes from the geometry, its chance by
    # enumerating every pair of dice, and re-rolled, every pair of pairs.
    out = run("table.charge", {"unit": "A", "targets": ["B"], "reroll": "failed", "table": _charge_table(gap_twelfths, 3, fly)})
    gap = Fraction(gap_twelfths, 12) - 1
    if fly:
        n = 0
        while n * n < gap * gap + 9:
            n += 1
    else:
        n = -(-(gap + 3).numerator // (gap + 3).denominator)
    assert out["needed"] == n
    assert out["p"] == _p_2d6_at_least(n, True)


def test_desperate_escape_distribution_by_enumeration() -> None:
    for tests in range(5):
        dist = tenth.desperate_escape(tests)
        for k in range(tests + 1):
            count = sum(1 for faces in itertools.product(range(1, 7), repeat=tests) if sum(f <= 2 for f in faces) == k)
            assert dist.prob(k) == Fraction(count, 6 ** tests)


def test_destroyed_transport_mortal_wounds_by_enumeration() -> None:
    positions = {"units": [
        {"name": "T", "player": "A", "base": 100, "keywords": ["TRANSPORT"], "models": [[10, 10]]},
        {"name": "P", "player": "A", "base": 32, "models": [[13, 10], [10, 13], [7, 10]]},
    ]}
    out = run("table.destroyed_transport", {"unit": "P", "transport": "T", "rolls": [1, 2, 1], "table": positions})
    count = sum(1 for faces in itertools.product(range(1, 7), repeat=3) if sum(f == 1 for f in faces) == 2)
    assert out["emergency"] is False and out["mortal_wounds"] == 2 and out["p_this_many"] == Fraction(count, 216)


def test_older_charge_difficult_terrain_by_enumeration() -> None:
    for needed in range(2, 13):
        count = sum(1 for f in itertools.product(range(1, 7), repeat=3) if sum(sorted(f)[:2]) >= needed)
        assert SIXTH.charge(needed, Reroll.NONE, difficult_terrain=True) == Fraction(count, 216)


def test_battle_shock_pass_by_enumeration() -> None:
    positions = {"units": [{"name": "U", "player": "A", "leadership": 7, "starting_strength": 10,
                            "models": [[1, 1], [2, 1], [3, 1]]}]}
    out = run("table.command_phase", {"player": "A", "cp": {"A": 0, "B": 0}, "table": positions})
    count = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b >= 7)
    assert out["p_pass"] == {"U": Fraction(count, 36)} and out["cp"] == {"A": 1, "B": 1}


def test_reasons_name_the_rule_and_its_lines() -> None:
    table = parse_table({"units": [
        {"name": "A", "player": "A", "models": [[10, 10]]},
        {"name": "B", "player": "B", "models": [["1460/127", 10]]},
    ]})
    verdict = tenth.move(table, "A", {}, "normal")
    failed = verdict.failed
    assert failed and failed[0].rule == "move" and failed[0].cites[0].source == "10e-core"
    assert "Engagement Range" in failed[0].text


def test_bad_positions_name_the_field() -> None:
    with pytest.raises(ProfileError, match=r"positions.units\[0\].models\[0\]"):
        parse_table({"units": [{"name": "A", "models": [[1]]}]})
    with pytest.raises(ProfileError, match="unknown kind"):
        parse_table({"terrain": [{"kind": "lava", "polygon": [[0, 0], [1, 0], [1, 1]]}]})
    with pytest.raises(ProfileError, match="no model"):
        parse_table({"units": [{"name": "A", "models": [[1, 1]]}], "moves": {"B/1": [[0, 0], [1, 1]]}})


def test_svg_draws_bases_to_scale_and_escapes_names() -> None:
    table = parse_table({"units": [{"name": "<A&B>", "player": "A", "base": 32, "models": [[2, 2]]}],
                         "objectives": [[10, 10]], "rings": [{"around": "<A&B>/1", "radius": 12}],
                         "terrain": [{"name": "ruin", "kind": "ruins", "height": 3, "polygon": [[4, 4], [8, 4], [8, 8]]}],
                         "moves": {"<A&B>/1": [[2, 2], [5, 6]]}})
    svg = render_svg(table, "t", "id-1")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert 'r="0.63"' in svg  # 32 mm = 80/127" radius
    assert 'r="12.63"' in svg  # the 12" ring measured from the base's edge
    assert "&lt;A&amp;B&gt;" in svg and "<A&B>" not in svg
    assert "<script" not in svg and "marker-end" in svg
