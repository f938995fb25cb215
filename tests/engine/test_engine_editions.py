"""The edition registry and the 6th/7th/Kill Team rules, checked by enumerating the dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulekb.engine.dice import Dist
from rulekb.engine.editions import (
    EDITIONS,
    Edition,
    KillTeam,
    Seventh,
    Sixth,
    Tenth,
    find_edition,
    get_edition,
)
from rulekb.engine.editions.sixth import drop_highest, random_selection, roll_off
from rulekb.engine.errors import RuleNotInEdition, UnknownEditionError
from rulekb.engine.rolls import Reroll

SIXTH, SEVENTH, KT, TENTH = Sixth(), Seventh(), KillTeam(), Tenth()
TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


@pytest.mark.parametrize("alias, cls", [
    ("10", Tenth), ("10th", Tenth), ("десятка", Tenth), (10, Tenth), ("6", Sixth), ("6TH", Sixth),
    ("шестая", Sixth), ("7e", Seventh), ("kt", KillTeam), ("Kill Team", KillTeam), ("кт", KillTeam),
    ("kill-team", KillTeam),
])
def test_find_edition_by_alias(alias: str | int, cls: type[Edition]) -> None:
    assert find_edition(alias) is cls


def test_unknown_edition_names_the_known_ones() -> None:
    with pytest.raises(UnknownEditionError, match=r"'8th'.*known editions: 10"):
        find_edition("8th")


def test_every_edition_is_declared() -> None:
    keys = [e.key for e in EDITIONS]
    assert keys == ["10", "6", "7", "kt"]
    assert issubclass(KillTeam, Seventh) and issubclass(Seventh, Sixth)
    assert Tenth.critical_results and not Sixth.critical_results
    assert Sixth.leadership_roll_under and not Tenth.leadership_roll_under


def test_missing_rule_says_so() -> None:
    with pytest.raises(RuleNotInEdition):
        Edition().leadership_test(7)


# --- 6th edition -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ld", range(2, 13))
def test_sixth_leadership_by_enumeration(ld: int) -> None:
    passes = sum(1 for a, b in TWO_D6 if a + b <= ld or (a, b) == (1, 1))
    assert SIXTH.leadership_test(ld) == Fraction(passes, 36)


def test_double_one_passes_whatever_the_modifier() -> None:
    assert SIXTH.leadership_test(3, -5) == Fraction(1, 36)


@pytest.mark.parametrize("ld", range(2, 13))
def test_tenth_battle_shock_by_enumeration(ld: int) -> None:
    assert TENTH.leadership_test(ld) == Fraction(sum(1 for a, b in TWO_D6 if a + b >= ld), 36)


@pytest.mark.parametrize("value, modifier, expected", [(4, 0, 4), (6, 0, 5), (1, -3, 1), (0, 2, 0), (3, 1, 4)])
def test_characteristic_test(value: int, modifier: int, expected: int) -> None:
    assert SIXTH.characteristic_test(value, modifier) == Fraction(expected, 6)


def test_modifier_order_multiply_then_add_then_set() -> None:
    assert SIXTH.apply_modifiers(4, multiply=[2], add=[1]) == 9
    assert SIXTH.apply_modifiers(4, add=[1], set_to=[8]) == 8


def test_attacks_with_charge_and_two_weapons() -> None:
    assert SIXTH.attacks(1, charged=True) == 2
    assert SIXTH.attacks(2, two_weapons=True) == 3
    assert SIXTH.attacks(2, charged=True, two_weapons=True) == 4
    assert SIXTH.attacks(2, charged=True, disordered=True) == 2


@pytest.mark.parametrize("att, dfn, need", [(4, 3, 3), (4, 4, 4), (3, 4, 4), (2, 5, 5), (2, 4, 4), (5, 0, 1)])
def test_melee_hit_table(att: int, dfn: int, need: int) -> None:
    assert SIXTH.melee_hit_target(att, dfn) == need


@pytest.mark.parametrize("s, t, need", [(4, 4, 4), (5, 4, 3), (6, 4, 2), (10, 4, 2), (3, 4, 5), (2, 4, 6),
                                        (1, 4, 6), (1, 5, None), (3, 6, 6), (3, 7, None)])
def test_sixth_wound_chart(s: int, t: int, need: int | None) -> None:
    assert SIXTH.wound_target(s, t) == need


@pytest.mark.parametrize("bs, expected", [(1, Fraction(1, 6)), (3, Fraction(1, 2)), (5, Fraction(5, 6)),
                                          (6, Fraction(5, 6) + Fraction(1, 36)), (10, Fraction(5, 6) + Fraction(5, 36))])
def test_sixth_to_hit_by_bs(bs: int, expected: Fraction) -> None:
    assert SIXTH.shooting_hit(bs) == expected


def test_one_save_only_the_best() -> None:
    fail, kind = SIXTH.save_fail(save=3, ap=3, invulnerable=5, cover=4)
    assert (fail, kind) == (Fraction(1, 2), "cover")  # AP 3 ignores the 3+ armour; cover 4+ beats 5++
    fail, kind = SIXTH.save_fail(save=3, ap=3, invulnerable=5, cover=4, melee=True)
    assert (fail, kind) == (Fraction(2, 3), "invulnerable")  # no cover in close combat
    assert SIXTH.save_fail(save=3, ap=4, invulnerable=None)[0] == Fraction(1, 3)


def test_difficult_terrain_charge_drops_the_highest_die() -> None:
    counts: dict[int, int] = {}
    for dice in itertools.product(range(1, 7), repeat=3):
        total = sum(dice) - max(dice)
        counts[total] = counts.get(total, 0) + 1
    assert drop_highest(3) == Dist(counts)
    assert SIXTH.charge_roll(difficult_terrain=True) == Dist(counts)
    assert SIXTH.charge(7, difficult_terrain=True) == Dist(counts).p_at_least(7)
    assert SIXTH.charge(7) == Fraction(21, 36)


def test_sweeping_advance_ties_go_to_the_winner() -> None:
    assert SIXTH.sweeping_advance(4, 4) == Fraction(21, 36)
    brute = sum(1 for a, b in TWO_D6 if a + 5 >= b + 3)
    assert SIXTH.sweeping_advance(5, 3) == Fraction(brute, 36)


def test_roll_off_and_random_selection() -> None:
    assert roll_off() == Fraction(1, 2)
    assert roll_off(1, 0) == Fraction(sum(1 for a, b in TWO_D6 if a + 1 > b), sum(1 for a, b in TWO_D6 if a + 1 != b))
    assert random_selection(5) == Dist.uniform(1, 5)
    seven = random_selection(7)
    assert seven.prob(1) == Fraction(1, 8) and seven.prob(7) == Fraction(1, 6)


def test_look_out_sir_and_d3() -> None:
    assert SIXTH.look_out_sir() == Fraction(1, 2)
    assert SIXTH.d3() == Dist.uniform(1, 3)


def test_blast_scatter_subtracts_bs() -> None:
    scatter = SIXTH.blast_scatter(4)
    assert scatter.prob(0) == Fraction(2, 6) + Fraction(4, 6) * Fraction(6, 36)  # «Hit!» or 2D6 <= 4
    assert scatter.max() == 8


def test_portion_rounds_up() -> None:
    assert SIXTH.portion(21, 10) == 3


def test_combat_result_and_morale() -> None:
    assert SIXTH.combat_result(3, 1) == ("a", 2)
    assert SIXTH.combat_result(2, 2) == ("draw", 0)
    assert SIXTH.morale_check(8, 2) == SIXTH.leadership_test(6)


def test_initiative_steps() -> None:
    steps = SIXTH.initiative_steps([("marines", 4), ("orks", 2), ("Adrax", 1)])
    assert steps == [(4, ["marines"]), (2, ["orks"]), (1, ["Adrax"])]


def test_sixth_overwatch_is_snap_shots() -> None:
    assert SIXTH.overwatch_hit(5) == Fraction(1, 6) < SIXTH.normal_hit(5)


# --- 7th edition and Kill Team ---------------------------------------------------------------------


def test_fall_back_distances() -> None:
    assert SEVENTH.fall_back_distance("infantry") == Dist.die(6).times(2)
    for unit in ("bike", "jump", "beasts", "cavalry"):
        assert SEVENTH.fall_back_distance(unit) == Dist.die(6).times(3)


def test_regroup_below_a_quarter_needs_double_one() -> None:
    assert SEVENTH.regroup_test(8, models_left=3, starting_models=10) == SEVENTH.leadership_test(8)
    assert SEVENTH.regroup_test(8, models_left=2, starting_models=10) == Fraction(1, 36)
    assert SEVENTH.regroup_test(8, models_left=2, starting_models=10, independent_character=True) > Fraction(1, 36)
    assert SEVENTH.regroup_test(8, models_left=1, starting_models=10, charged=True) == SEVENTH.leadership_test(8)


def test_jump_units_reroll_the_charge() -> None:
    p = SEVENTH.charge(9)
    assert SEVENTH.jump_charge(9) == p + (1 - p) * p


def test_kill_team_rules() -> None:
    assert KT.counter_charge(7) == SIXTH.leadership_test(7)
    assert KT.supporting_attacks([2, 2], supporting_models=3) == 7
    assert KT.combat_score(2, charged=True, banner=True, models=5, enemy_models=1) == 5
    assert KT.combat_score(0, counter_charged=True) == 1
    assert KT.inspiring_presence(6, 9, within_6=True) == 9
    assert KT.inspiring_presence(6, 9, within_6=False) == 6
    assert KT.overwatch_shooters([1.0, 3.0, 3.5]) == 3


def test_charge_rerolled_all_dice() -> None:
    p = TENTH.charge(9)
    assert TENTH.charge(9, Reroll.FAILED) == p + (1 - p) * p
    assert get_edition("6").charge(9) == p
