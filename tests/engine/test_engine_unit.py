"""Several weapons, mixed target units, critical thresholds, exploding hits, roll tests and calc batches.

The mixed-unit chain is checked against a brute-force walk over every die (each wound, save, damage
roll and Feel No Pain roll enumerated one at a time), and against the single-profile path where the
two must agree exactly.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekb.engine.calc import calculate, calculate_lines
from rulekb.engine.errors import ProfileError
from rulekb.webapp.commands.engine import calc

SIX = range(1, 7)


def dist(result: dict[str, Any], name: str) -> dict[int, Fraction]:
    return {k: Fraction(p) for k, p in result["distributions"][name]}


def brute_force_unit(attacks: int, wound_on: int, groups: list[dict[str, Any]], damage: list[int],
                     save_fail_of: Any) -> dict[int, Fraction]:
    """Torrent attacks one at a time: wound roll, then the save of the model it goes to, a damage
    die (uniform over ``damage``), one FNP die per point; returns P(models destroyed)."""
    owner = [g for g, group in enumerate(groups) for _ in range(group["models"])]
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    def put(into: dict[tuple[int, int], Fraction], key: tuple[int, int], p: Fraction) -> None:
        into[key] = into.get(key, Fraction(0)) + p

    for _ in range(attacks):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (i, d), p in states.items():
            if i == len(owner):
                put(nxt, (i, d), p)
                continue
            group = groups[owner[i]]
            for wound_face in SIX:
                pw = p / 6
                if wound_face < wound_on:
                    put(nxt, (i, d), pw)
                    continue
                for save_face in SIX:
                    ps = pw / 6
                    if not save_fail_of(group, save_face):
                        put(nxt, (i, d), ps)
                        continue
                    for e in damage:
                        pe = ps / len(damage)
                        fnp = group.get("fnp")
                        for fnp_faces in itertools.product(SIX, repeat=e if fnp else 0):
                            lost = e - sum(1 for f in fnp_faces if f >= fnp)
                            pf = pe / 6 ** len(fnp_faces)
                            left = group["wounds"] - d
                            put(nxt, (i + 1, 0) if lost >= left else (i, d + lost), pf)
        states = nxt
    out: dict[int, Fraction] = {}
    for (i, _), p in states.items():
        out[i] = out.get(i, Fraction(0)) + p
    return out


def armour_fails(group: dict[str, Any], face: int) -> bool:
    """AP 0 and no invulnerable save: an unmodified 1 fails, else ``face >= save`` passes."""
    save = group.get("save")
    return save is None or face == 1 or face < save


@settings(max_examples=15, deadline=None)
@given(
    attacks=st.integers(1, 3),
    wound_on=st.integers(2, 6),
    groups=st.lists(st.fixed_dictionaries({"models": st.integers(1, 2), "wounds": st.integers(1, 3),
                                           "save": st.sampled_from([None, 3, 5]),
                                           "fnp": st.sampled_from([None, 5])}), min_size=1, max_size=3),
    damage=st.sampled_from([[1], [2], [1, 2, 3]]),
)
def test_mixed_unit_matches_brute_force(attacks: int, wound_on: int, groups: list[dict[str, Any]],
                                        damage: list[int]) -> None:
    # Strength against Toughness picks the wound target: S4 vs T8 → 6+, T7 → 5+, T4 → 4+, T3 → 3+, T2 → 2+.
    toughness = {6: 8, 5: 7, 4: 4, 3: 3, 2: 2}[wound_on]
    damage_expr = {(1,): 1, (2,): 2, (1, 2, 3): "D3"}[tuple(damage)]
    profile = {"edition": "10", "weapon": {"attacks": attacks, "strength": 4, "damage": damage_expr,
                                           "abilities": ["torrent"]},
               "defender": {"toughness": toughness,
                            "groups": [{k: v for k, v in g.items() if v is not None or k == "save"} for g in groups]}}
    result = calculate(profile)
    expected = brute_force_unit(attacks, wound_on, groups, damage, armour_fails)
    assert dist(result, "models_destroyed") == {k: v for k, v in expected.items() if v}


@settings(max_examples=20, deadline=None)
@given(attacks=st.integers(1, 6), skill=st.integers(2, 6), save=st.integers(2, 6), wounds=st.integers(1, 4),
       models=st.integers(1, 4), damage=st.sampled_from([1, 2, "D3", "D6"]), fnp=st.sampled_from([None, 5, 6]),
       abilities=st.sampled_from([[], ["devastating-wounds"], ["lethal-hits", "sustained-hits 1"]]))
def test_one_group_equals_the_uniform_unit(attacks: int, skill: int, save: int, wounds: int, models: int,
                                           damage: int | str, fnp: int | None, abilities: list[str]) -> None:
    weapon = {"attacks": attacks, "skill": skill, "strength": 4, "ap": -1, "damage": damage, "abilities": abilities}
    uniform = calculate({"edition": "10", "weapon": weapon,
                         "defender": {"toughness": 4, "save": save, "wounds": wounds, "models": models, "fnp": fnp}})
    grouped = calculate({"edition": "10", "weapon": weapon,
                         "defender": {"toughness": 4, "groups": [{"save": save, "wounds": wounds, "models": models,
                                                                  "fnp": fnp}]}})
    assert dist(grouped, "damage") == dist(uniform, "damage")
    assert dist(grouped, "models_destroyed") == dist(uniform, "models_destroyed")
    assert grouped["expected_exact"]["unsaved"] == uniform["expected_exact"]["unsaved"]


def test_two_identical_weapons_equal_one_with_their_attacks() -> None:
    weapon = {"attacks": 3, "skill": 3, "strength": 4, "ap": -1, "damage": 2}
    target = {"toughness": 4, "save": 3, "wounds": 2, "models": 5}
    one = calculate({"edition": "10", "weapon": {**weapon, "attacks": 6}, "defender": target})
    two = calculate({"edition": "10", "weapons": [weapon, weapon], "defender": target})
    assert dist(two, "damage") == dist(one, "damage")
    assert dist(two, "hits") == dist(one, "hits")
    assert two["weapons"] == [{"name": "weapon", "models": 1}, {"name": "weapon", "models": 1}]


def test_weapons_fire_in_order_against_the_state_the_last_one_left() -> None:
    # A lascannon-like shot first leaves a damaged model that the bolters then finish, and the reverse.
    big = {"attacks": 1, "skill": 2, "strength": 12, "ap": -3, "damage": 1, "abilities": ["torrent"]}
    small = {"attacks": 1, "strength": 12, "damage": 5, "abilities": ["torrent"]}
    target = {"toughness": 4, "save": None, "wounds": 6, "models": 1}
    first = calculate({"edition": "10", "weapons": [big, small], "defender": target})
    # Both always wound (S12 vs T4: 2+ unless a 1): P(both) gives 6 damage → one model destroyed.
    assert Fraction(first["expected_exact"]["models_destroyed"]) == Fraction(5, 6) ** 2


def test_mixed_groups_are_allocated_in_the_order_given() -> None:
    shot = {"attacks": 1, "strength": 8, "damage": 1, "abilities": ["torrent"]}
    weak_first = calculate({"edition": "10", "weapon": shot,
                            "defender": {"toughness": 4, "groups": [{"models": 1, "save": 6}, {"models": 1, "save": 2}]}})
    strong_first = calculate({"edition": "10", "weapon": shot,
                              "defender": {"toughness": 4, "groups": [{"models": 1, "save": 2}, {"models": 1, "save": 6}]}})
    # S8 vs T4 wounds on 2+ (5/6); a 6+ save fails 5/6 of the time, a 2+ save 1/6.
    assert Fraction(weak_first["expected_exact"]["models_destroyed"]) == Fraction(5, 6) * Fraction(5, 6)
    assert Fraction(strong_first["expected_exact"]["models_destroyed"]) == Fraction(5, 6) * Fraction(1, 6)


def test_blast_counts_every_model_of_a_mixed_unit() -> None:
    weapon = {"attacks": 1, "strength": 4, "abilities": ["blast", "torrent"]}
    mixed = calculate({"edition": "10", "weapon": weapon,
                       "defender": {"toughness": 4, "groups": [{"models": 5}, {"models": 5}]}})
    assert mixed["expected"]["attacks"] == 3  # 1 + one per five of the ten models


@pytest.mark.parametrize(("profile", "field"), [
    ({"weapon": {}, "weapons": [{}]}, "weapons"),
    ({"weapons": []}, "weapons"),
    ({"weapons": [{"attacks": 1}] * 9}, "weapons"),
    ({"weapons": [{"models": 0}]}, "weapons[0].models"),
    ({"defender": {"save": 3, "groups": [{"models": 2}]}}, "defender.save"),
    ({"defender": {"groups": [{"toughness": 3}]}}, "defender.groups[0].toughness"),
    ({"defender": {"groups": "many"}}, "defender.groups"),
    ({"criticals": {"hit": 1}}, "criticals.hit"),
    ({"criticals": {"both": 5}}, "criticals.both"),
    ({"options": {"devastating_spill": True}, "weapons": [{"abilities": ["devastating-wounds"]}, {}]},
     "options.devastating_spill"),
])
def test_bad_multi_profiles_name_their_field(profile: dict[str, Any], field: str) -> None:
    with pytest.raises(ProfileError) as info:
        calculate({"edition": "10", **profile})
    assert info.value.field == field


def test_critical_hits_on_five_plus() -> None:
    weapon = {"attacks": 6, "skill": 3, "strength": 4, "abilities": ["lethal-hits"]}
    plain = calculate({"edition": "10", "weapon": weapon})
    fives = calculate({"edition": "10", "weapon": weapon, "criticals": {"hit": 5}})
    assert Fraction(plain["expected_exact"]["critical_hits"]) == 1
    assert Fraction(fives["expected_exact"]["critical_hits"]) == 2
    assert "Critical Hit on an unmodified 5+" in fives["steps"][1]["detail"]


def test_critical_wounds_on_five_plus_trigger_devastating_wounds() -> None:
    weapon = {"attacks": 6, "skill": 2, "strength": 4, "damage": 1, "abilities": ["devastating-wounds", "torrent"]}
    fives = calculate({"edition": "10", "weapon": weapon, "criticals": {"wound": 5},
                       "defender": {"toughness": 4, "save": 2, "models": 10}})
    assert Fraction(fives["expected_exact"]["devastating_wounds"]) == 6 * Fraction(2, 6)


def test_criticals_are_refused_in_older_editions() -> None:
    with pytest.raises(ProfileError) as info:
        calculate({"edition": "6", "weapon": {"skill": 4}, "criticals": {"hit": 5}})
    assert info.value.field == "criticals"


def test_exploding_hits_in_the_sixth_edition() -> None:
    shots = {"attacks": 12, "skill": 4, "strength": 4, "ap": None}
    plain = calculate({"edition": "6", "weapon": shots})
    exploding = calculate({"edition": "6", "weapon": {**shots, "abilities": ["exploding-hits 2"]}})
    # BS4 hits on 3+: 8 hits, and each of the two 6s scores two more.
    assert Fraction(plain["expected_exact"]["hits"]) == 8
    assert Fraction(exploding["expected_exact"]["hits"]) == 12
    # BS 7 hits on 2+ with a re-roll of 1s: a 6 first, or a 1 re-rolled into a 6.
    ace = calculate({"edition": "6", "weapon": {**shots, "skill": 7, "attacks": 36, "abilities": ["exploding-hits 1"]}})
    base = calculate({"edition": "6", "weapon": {**shots, "skill": 7, "attacks": 36}})
    assert Fraction(ace["expected_exact"]["hits"]) - Fraction(base["expected_exact"]["hits"]) == 36 * Fraction(7, 36)
    with pytest.raises(ProfileError, match="sustained-hits"):
        calculate({"edition": "10", "weapon": {"abilities": ["exploding-hits 1"]}})


def brute_2d6_at_most(ld: int) -> Fraction:
    return Fraction(sum(1 for a in SIX for b in SIX if a + b <= ld), 36)


@pytest.mark.parametrize("ld", [2, 7, 8, 10])
def test_leadership_test_through_calc(ld: int) -> None:
    out = calculate({"edition": "6", "test": {"kind": "leadership", "leadership": ld}})
    assert Fraction(out["p_pass"]) == brute_2d6_at_most(ld)
    assert out["concepts"] == ["leadership-test"]
    assert out["steps"][0]["cites"] == [{"source": "6e-rules", "lines": [293, 315]}]
    tenth = calculate({"edition": "10", "test": {"kind": "leadership", "leadership": ld}})
    assert Fraction(tenth["p_pass"]) == Fraction(sum(1 for a in SIX for b in SIX if a + b >= ld), 36)


@pytest.mark.parametrize("needed", [3, 6, 9, 13])
def test_discard_highest_through_calc(needed: int) -> None:
    out = calculate({"edition": "6", "test": {"kind": "discard-highest", "dice": 3, "needed": needed}})
    brute = Fraction(sum(1 for roll in itertools.product(SIX, repeat=3) if sum(roll) - max(roll) >= needed), 216)
    assert Fraction(out["p_pass"]) == brute
    charge = calculate({"edition": "6", "test": {"kind": "charge", "needed": needed, "difficult_terrain": True}})
    assert Fraction(charge["p_pass"]) == brute


def test_charge_sweeping_advance_fall_back_and_regroup_through_calc() -> None:
    charge = calculate({"edition": "10", "test": {"kind": "charge", "needed": 9, "reroll": "failed"}})
    p = Fraction(sum(1 for a in SIX for b in SIX if a + b >= 9), 36)
    assert Fraction(charge["p_pass"]) == p + (1 - p) * p
    sweep = calculate({"edition": "6", "test": {"kind": "sweeping-advance", "winner_initiative": 4,
                                                 "loser_initiative": 3}})
    brute = Fraction(sum(1 for w in SIX for v in SIX if w + 4 >= v + 3), 36)
    assert Fraction(sweep["p_pass"]) == brute
    jump = calculate({"edition": "7", "test": {"kind": "fall-back", "unit_type": "jump"}})
    assert jump["distribution"][0] == [3, "1/216"] and jump["distribution"][-1] == [18, "1/216"]
    regroup = calculate({"edition": "7", "test": {"kind": "regroup", "leadership": 9, "models_left": 1,
                                                   "starting_models": 10}})
    assert regroup["p_pass"] == "1/36"


@pytest.mark.parametrize(("profile", "field"), [
    ({"edition": "6", "test": {"kind": "morale"}}, "test.kind"),
    ({"edition": "6", "test": "leadership"}, "test"),
    ({"edition": "6", "test": {"kind": "leadership"}}, "test.leadership"),
    ({"edition": "6", "test": {"kind": "leadership", "leadership": 8, "ld": 8}}, "test.ld"),
    ({"edition": "10", "test": {"kind": "sweeping-advance", "winner_initiative": 4, "loser_initiative": 3}},
     "test.kind"),
    ({"edition": "10", "test": {"kind": "charge", "needed": 7}, "weapon": {}}, "weapon"),
    ({"edition": "6", "test": {"kind": "leadership", "leadership": True}}, "test.leadership"),
])
def test_bad_tests_name_their_field(profile: dict[str, Any], field: str) -> None:
    with pytest.raises(ProfileError) as info:
        calculate(profile)
    assert info.value.field == field


def test_calculate_lines_echoes_ids_and_keeps_going_after_a_bad_line() -> None:
    good = {"id": "bolters", "edition": "10", "weapon": {"attacks": 2}}
    lines = [json.dumps(good), "", "not json", json.dumps({"id": 7, "edition": "11"})]
    out = list(calculate_lines(lines))
    assert [o["line"] for o in out] == [1, 3, 4]
    assert out[0]["id"] == "bolters" and out[0]["result"] == calculate({"edition": "10", "weapon": {"attacks": 2}})
    assert out[1]["error"]["field"] == "profile" and out[1]["id"] is None
    assert out[2]["error"]["field"] == "edition" and out[2]["id"] == 7


def test_calc_batch_cli(tmp_path: Path) -> None:
    path = tmp_path / "profiles.jsonl"
    path.write_text("\n".join(json.dumps({"id": n, "edition": "10", "weapon": {"attacks": n}}) for n in (1, 2, 3)),
                    encoding="utf-8")
    result = CliRunner().invoke(calc, ["--batch", str(path)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["id"] for r in rows] == [1, 2, 3]
    assert [r["result"]["expected"]["attacks"] for r in rows] == [1, 2, 3]
    bad = CliRunner().invoke(calc, ["--batch", "-"], input='{"edition": "x"}\n')
    assert bad.exit_code == 1 and json.loads(bad.output)["error"]["field"] == "edition"
    mixed = CliRunner().invoke(calc, ["--batch", str(path), "--attacks", "2"])
    assert mixed.exit_code == 2 and "--batch reads whole profiles" in mixed.output


def test_an_oversized_mixed_unit_is_refused_before_any_work() -> None:
    weapon = {"attacks": 60, "skill": 3, "strength": 5, "damage": "D6",
              "abilities": ["devastating-wounds", "sustained-hits 1"]}
    with pytest.raises(ProfileError) as info:
        calculate({"edition": "10", "weapon": weapon,
                   "defender": {"toughness": 4, "groups": [{"models": 50, "wounds": 3}, {"models": 1, "wounds": 5}]}})
    assert info.value.field == "defender.groups" and "fewer attacks" in str(info.value)
