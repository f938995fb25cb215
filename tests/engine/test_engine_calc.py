"""calculate() (the JSON contract), the comparison tables and the geometry helpers."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

import pytest

from rulekb.engine.calc import CONTRACT_KEYS, calculate
from rulekb.engine.compare import charge_table, leadership_table, melee_hit_table, overwatch_table, to_json
from rulekb.engine.errors import ProfileError, RuleNotInEdition, UnknownEditionError
from rulekb.engine.geometry import (
    Model,
    charge_needed,
    coherency,
    in_engagement_range,
    in_range,
    move_used,
    within_objective,
)

BOLTERS: dict[str, Any] = {
    "edition": "10",
    "attacker": {"models": 5},
    "weapon": {"attacks": 2, "bs": 3, "s": 4, "ap": 0, "d": 1, "abilities": ["rapid-fire 1"]},
    "defender": {"models": 10, "t": 4, "sv": 3, "w": 2},
    "situation": {"half_range": True},
}


def test_contract_shape() -> None:
    out = calculate(BOLTERS)
    json.dumps(out)  # serialisable
    assert out["edition"] == "10"
    assert set(CONTRACT_KEYS) <= set(out["expected"])
    assert out["expected"]["attacks"] == 15.0
    assert Fraction(out["expected_exact"]["hits"]) == 10
    for name in ("hits", "damage", "models_destroyed"):
        pairs = out["distributions"][name]
        assert sum(Fraction(p) for _, p in pairs) == 1
        assert [k for k, _ in pairs] == sorted(k for k, _ in pairs)
    assert {"hit-roll", "wound-roll", "armour-save", "damage"} <= set(out["concepts"])
    assert all(step["cites"] for step in out["steps"])


def test_json_string_input_and_sixth_edition() -> None:
    out = calculate(json.dumps({
        "edition": "6th",
        "weapon": {"type": "melee", "attacks": 2, "ws": 4, "s": 4, "ap": None},
        "attacker": {"models": 5},
        "defender": {"models": 10, "t": 4, "sv": 4, "ws": 4},
        "situation": {"charged": True},
    }))
    assert out["edition"] == "6"
    assert Fraction(out["expected_exact"]["attacks"]) == 15
    assert Fraction(out["expected_exact"]["unsaved"]) == 15 * Fraction(1, 2) * Fraction(1, 2) * Fraction(1, 2)
    assert Fraction(out["expected_exact"]["critical_hits"]) == 0


@pytest.mark.parametrize("data, field", [
    ("{", "profile"),
    ({"weapon": {}}, "edition"),
    ({"edition": "9th"}, "edition"),
    ({"edition": "10", "weapon": {"attacks": 0}}, "weapon.attacks"),
    ({"edition": "10", "weapon": {"attacks": "2Q6"}}, "weapon.attacks"),
    ({"edition": "10", "weapon": {"abilities": ["lethal hits", "frenzy"]}}, "weapon.abilities"),
    ({"edition": "10", "weapon": {"ap": 2}}, "weapon.ap"),
    ({"edition": "10", "defender": {"save": 9}}, "defender.save"),
    ({"edition": "10", "defender": {"tough": 4}}, "defender.tough"),
    ({"edition": "10", "rerolls": {"hit": "sometimes"}}, "rerolls"),
    ({"edition": "10", "situation": {"cover": "yes"}}, "situation.cover"),
    ({"edition": "6", "weapon": {"ws": 4, "abilities": ["lethal-hits"]}}, "weapon.abilities"),
    ({"edition": "6", "weapon": {"type": "melee", "ws": 4}}, "defender.weapon_skill"),
    ([], "profile"),
    ({"edition": "10", "rerolls": {"save": "single"}}, "rerolls.save"),
    ({"edition": "6", "weapon": {"bs": 4}, "rerolls": {"hit": "single"}}, "rerolls.hit"),
])
def test_bad_input_names_the_field(data: Any, field: str) -> None:
    with pytest.raises(ProfileError) as info:
        calculate(data)
    assert info.value.field == field
    assert str(info.value).startswith(field)


def test_leadership_table() -> None:
    rows = leadership_table()
    assert [r["ld"] for r in rows] == list(range(2, 11))
    seven = rows[5]
    assert seven["6"] == Fraction(21, 36) and seven["10"] == Fraction(21, 36)
    assert rows[0]["6"] == Fraction(1, 36)  # Ld 2: only double 1
    assert to_json(rows)[5]["6"] == "7/12"


def test_overwatch_and_charge_tables() -> None:
    ow = overwatch_table()
    assert all(r["6_overwatch"] == r["10_overwatch"] == Fraction(1, 6) for r in ow)
    assert ow[1]["6_normal"] == ow[1]["10_normal"] == Fraction(2, 3)  # BS 4 in 6th = 3+ in 10th
    charges = charge_table()
    nine = charges[8]
    assert nine["distance"] == 9 and nine["6"] == Fraction(10, 36) and nine["10"] == Fraction(15, 36)
    assert nine["6_difficult"] < nine["6"] < nine["7_jump"]
    assert all(r["6"] >= s["6"] for r, s in itertools.pairwise(charges))


def test_melee_hit_table() -> None:
    rows = melee_hit_table()
    four = rows[3]
    assert four["ws"] == 4 and four["vs_3"] == Fraction(2, 3) and four["vs_4"] == Fraction(1, 2)
    assert four["vs_9"] == Fraction(1, 3)


def test_geometry() -> None:
    a, b = Model(0, 0, base_mm=25.4), Model(2, 0, base_mm=25.4)  # 1" bases, centres 2" apart
    assert in_engagement_range(a, b)
    assert not in_engagement_range(a, Model(2.1, 0, base_mm=25.4))
    assert not in_engagement_range(a, Model(2, 0, z=5.5, base_mm=25.4))
    assert in_range(a, Model(25, 0, base_mm=25.4), 24)
    assert within_objective(Model(0, 0, base_mm=25.4), 0, 4.2)


def test_coherency() -> None:
    line6 = [Model(3 * i, 0, base_mm=25.4) for i in range(6)]  # 2" gaps
    assert coherency(line6).ok
    line7 = [Model(3 * i, 0, base_mm=25.4) for i in range(7)]
    report = coherency(line7)
    assert not report.ok and report.needed == 2 and report.lacking == (0, 6)
    split = [Model(0, 0, base_mm=25.4), Model(2, 0, base_mm=25.4), Model(20, 0, base_mm=25.4), Model(22, 0, base_mm=25.4)]
    assert not coherency(split).ok and len(coherency(split).groups) == 2
    assert coherency(line7, edition="6").ok  # one neighbour is enough in the 6th edition


def test_pivots_and_charge_distance() -> None:
    assert move_used([3, 2]) == 5
    assert move_used([6, 4], pivot_value=2, pivots=1) == 12
    assert move_used([5, 5], pivot_value=2, pivots=3) == 12
    assert charge_needed(4.5, climb=3) == 7
    assert charge_needed(6, edition="6") == 6


@pytest.mark.parametrize("alias", ["10th", "10e", "tenth", "десятая"])
def test_geometry_reads_the_edition_by_alias(alias: str) -> None:
    # An alias of the 10th edition gets the 10th edition's numbers, not the 6th's.
    line7 = [Model(3 * i, 0, base_mm=25.4) for i in range(7)]  # 2" gaps: one neighbour at each end
    tower = [Model(0, 0, base_mm=25.4), Model(0, 0, z=6, base_mm=25.4)]  # 6" apart vertically
    assert coherency(line7, edition=alias) == coherency(line7, edition="10") != coherency(line7, edition="6")
    assert coherency(tower, edition=alias) == coherency(tower, edition="10") != coherency(tower, edition="6")
    assert charge_needed(6, edition=alias) == charge_needed(6, edition="10") == 5
    a, b = Model(0, 0, base_mm=25.4), Model(2, 0, base_mm=25.4)
    assert in_engagement_range(a, b, edition=alias) == in_engagement_range(a, b) is True


def test_geometry_edition_errors() -> None:
    with pytest.raises(UnknownEditionError, match="'11'"):
        coherency([Model(0, 0)], edition="11")
    with pytest.raises(RuleNotInEdition, match="base contact"):
        in_engagement_range(Model(0, 0), Model(1, 0), edition="6")
