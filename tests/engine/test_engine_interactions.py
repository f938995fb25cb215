"""The interactions players argue about, each pinned to an exact value derived by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekb.engine.attack import AttackResult
from rulekb.engine.dice import Dist, parse_dice
from rulekb.engine.editions import Tenth
from rulekb.engine.profiles import Defender, Profile, Rerolls, Situation, Weapon, parse_abilities
from rulekb.engine.rolls import Reroll

TENTH = Tenth()


def one(
    *abilities: str,
    skill: int = 2,
    s: int = 4,
    t: int = 4,
    attacks: int | str = 1,
    save: int | None = None,
    ap: int = 0,
    damage: int | str = 1,
    models: int = 100,
    wounds: int = 10,
    rerolls: Rerolls | None = None,
    spill: bool = False,
    fnp: int | None = None,
    situation: Situation | None = None,
    invuln: int | None = None,
) -> AttackResult:
    return TENTH.attack(Profile(
        weapon=Weapon(attacks=parse_dice(attacks), skill=skill, strength=s, ap=ap, damage=parse_dice(damage),
                      abilities=parse_abilities(list(abilities))),
        defender=Defender(models=models, toughness=t, save=save, wounds=wounds, fnp=fnp, invulnerable=invuln),
        rerolls=rerolls or Rerolls(),
        devastating_spill=spill,
        situation=situation or Situation(),
    ))


def test_lethal_and_sustained_on_one_critical_hit() -> None:
    # 2+ to hit, 4+ to wound. A critical hit (1/6) wounds automatically AND scores one extra hit,
    # which rolls to wound as a normal hit: E[wounds] = 4/6 * 1/2 + 1/6 * (1 + 1/2).
    r = one("lethal-hits", "sustained-hits 1")
    assert r.expected["wounds"] == Fraction(7, 12)
    assert r.expected["hits"] == Fraction(4, 6) + Fraction(2, 6)
    # Only wound *rolls* can be critical: the automatic wound is not a critical wound.
    assert r.expected["critical_wounds"] == (Fraction(4, 6) + Fraction(1, 6)) * Fraction(1, 6)
    assert r.distributions["wounds"].prob(2) == Fraction(1, 6) * Fraction(1, 2)


def test_lethal_auto_wound_never_triggers_devastating_wounds() -> None:
    r = one("lethal-hits", "devastating-wounds")
    # Devastating wounds come only from the wound rolls of normal hits (4/6 of attacks) scoring a 6.
    assert r.expected["devastating_wounds"] == Fraction(4, 6) * Fraction(1, 6)
    assert r.expected["unsaved"] == Fraction(4, 6) * Fraction(2, 6) + Fraction(1, 6)


def test_sustained_extra_hits_are_not_critical() -> None:
    # Lethal Hits + Sustained Hits 2: the two extra hits roll to wound; they never wound automatically.
    r = one("lethal-hits", "sustained-hits 2")
    assert r.expected["critical_hits"] == Fraction(1, 6)
    assert r.expected["wounds"] == Fraction(4, 6) * Fraction(1, 2) + Fraction(1, 6) * (1 + 2 * Fraction(1, 2))


def test_torrent_never_crits() -> None:
    r = one("torrent", "lethal-hits", "sustained-hits 2", attacks=3)
    assert r.expected["critical_hits"] == 0
    assert r.distributions["hits"] == Dist.constant(3)
    assert r.expected["wounds"] == Fraction(3, 2)


def test_anti_lowers_the_critical_wound_threshold_only_against_its_keyword() -> None:
    profile = Profile(weapon=Weapon(skill=2, strength=3, abilities=parse_abilities(["anti-vehicle 4+",
                                                                                    "devastating-wounds"])),
                      defender=Defender(models=10, toughness=8, save=None, keywords=("VEHICLE",)))
    hit = Fraction(5, 6)
    assert TENTH.attack(profile).expected["devastating_wounds"] == hit * Fraction(1, 2)
    infantry = profile.with_(defender=Defender(models=10, toughness=8, save=None, keywords=("INFANTRY",)))
    assert TENTH.attack(infantry).expected["devastating_wounds"] == hit * Fraction(1, 6)


@pytest.mark.parametrize("spill, most", [(False, 1), (True, 3)])
def test_devastating_wounds_spill_over(spill: bool, most: int) -> None:
    # One critical wound with Damage 3 against one-wound models: the text says the rest is lost when
    # the model dies (10e-core 665, 668); the older spill-over ruling is available as a switch.
    r = one("devastating-wounds", "torrent", s=8, t=4, damage=3, wounds=1, models=5, spill=spill)
    assert r.distributions["models_destroyed"].max() == most
    assert r.expected["mortal_wounds"] == Fraction(1, 6) * 3


def test_excess_damage_is_lost_but_a_wounded_model_takes_the_next_attack() -> None:
    # 10e-core 710: D3 damage against W2 models: results 1, 2, 3 destroy two models.
    packets = Dist.constant(3)
    from rulekb.engine.attack import allocate

    dealt = allocate(packets, Dist.die(3), models=5, wounds=2)
    assert dealt.max() == 6 and dealt.min() == 3
    assert dealt.map(lambda d: d // 2).prob(0) == 0


def test_feel_no_pain_applies_to_mortal_wounds() -> None:
    # Wound 2+: normal wounds (4/6) face a 2+ save (1/6 fail); critical wounds (1/6) are mortal wounds.
    # Feel No Pain 5+ stops a third of both.
    r = one("devastating-wounds", "torrent", s=8, t=4, damage=1, fnp=5, save=2)
    assert r.expected["damage"] == (Fraction(4, 6) * Fraction(1, 6) + Fraction(1, 6)) * Fraction(4, 6)
    assert r.expected["mortal_wounds"] == Fraction(1, 6)


def test_single_reroll_changes_one_die_of_the_pool() -> None:
    r = one(skill=4, attacks=2, rerolls=Rerolls(hit=Reroll.SINGLE))
    assert r.distributions["hits"] == Dist.from_probabilities({0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(1, 2)})


@pytest.mark.parametrize("policy, expected", [
    (Reroll.NONE, Fraction(1, 6)),
    (Reroll.ONES, Fraction(1, 6) + Fraction(1, 36)),
    (Reroll.FAILED, Fraction(11, 36)),  # 10th: a natural 5 fails at -1, so it may be re-rolled
    (Reroll.FAILED_UNMODIFIED, Fraction(10, 36)),
    (Reroll.NONCRIT, Fraction(11, 36)),
])
def test_reroll_policies_before_modifiers(policy: Reroll, expected: Fraction) -> None:
    assert TENTH.hit_test(5, -1, policy).p_success == expected


def test_noncrit_fishing_trades_hits_for_criticals() -> None:
    plain = TENTH.hit_test(3, 0, Reroll.FAILED).probabilities()
    fishing = TENTH.hit_test(3, 0, Reroll.NONCRIT).probabilities()
    assert fishing[2] > plain[2] and 1 - fishing[0] < 1 - plain[0]


def test_twin_linked_rerolls_the_wound_roll() -> None:
    assert one("twin-linked").expected["wounds"] == Fraction(5, 6) * (Fraction(1, 2) + Fraction(1, 4))


@pytest.mark.parametrize("ap, save, invuln, cover, unsaved", [
    (-4, 2, 4, False, Fraction(1, 2)),  # AP never worsens an invulnerable save
    (0, 3, None, True, Fraction(1, 3)),  # Sv 3+ gets no cover against AP 0
    (0, 4, None, True, Fraction(1, 3)),  # cover: +1, so 3+
    (-1, 3, None, True, Fraction(1, 3)),  # AP -1 and cover cancel out
    (0, 2, None, False, Fraction(1, 6)),  # an unmodified 1 always fails
])
def test_saves(ap: int, save: int, invuln: int | None, cover: bool, unsaved: Fraction) -> None:
    r = one("torrent", s=8, t=4, ap=ap, save=save, invuln=invuln, situation=Situation(cover=cover))
    assert r.expected["unsaved"] == Fraction(5, 6) * unsaved


def test_save_never_improved_by_more_than_one() -> None:
    test, kind = TENTH.save_test(4, ap=0, cover=True, modifier=1)
    assert kind == "armour" and test is not None and test.modifier == 1


def test_indirect_fire_at_an_unseen_target() -> None:
    r = one("indirect-fire", skill=2, s=8, t=4, save=4, situation=Situation(target_visible=False, cover=False))
    # -1 to hit and 1-3 always fail: only 4, 5, 6 hit; the target has cover (4+ becomes 3+).
    assert r.expected["hits"] == Fraction(1, 2)
    assert r.expected["unsaved"] == Fraction(1, 2) * Fraction(5, 6) * Fraction(1, 3)


def test_fire_overwatch_hits_only_on_six() -> None:
    for skill in range(2, 7):
        assert TENTH.overwatch_hit(skill) == Fraction(1, 6)


def test_heavy_stealth_and_the_cap() -> None:
    sit = Situation(remained_stationary=True, stealth=True)
    r = one("heavy", skill=4, situation=sit)
    assert r.expected["hits"] == Fraction(1, 2)  # +1 and -1 cancel
    r = TENTH.attack(Profile(weapon=Weapon(skill=4), hit_modifier=3))
    assert r.expected["hits"] == Fraction(4, 6)  # capped at +1


def test_melta_and_rapid_fire_at_half_range() -> None:
    sit = Situation(half_range=True)
    r = one("melta 2", "rapid-fire 1", damage="D6", situation=sit)
    assert r.expected["attacks"] == 2
    assert r.expected["damage_inflicted"] == 2 * Fraction(5, 6) * Fraction(1, 2) * (Fraction(7, 2) + 2)
    far = one("melta 2", "rapid-fire 1", damage="D6")
    assert far.expected["attacks"] == 1


def test_blast_adds_one_attack_per_five_models() -> None:
    r = one("blast", attacks="D3", models=11)
    assert r.distributions["attacks"] == parse_dice("D3+2").dist()


def test_hazardous_reports_mortal_wounds_on_the_attacker() -> None:
    r = TENTH.attack(Profile(weapon=Weapon(skill=3, abilities=parse_abilities(["hazardous"])), attackers=5))
    assert r.expected["hazardous_mortal_wounds"] == Fraction(5, 2)


def test_lance_adds_one_to_wound_after_charging() -> None:
    charged = one("lance", skill=2, situation=Situation(charged=True))
    assert charged.expected["wounds"] == Fraction(5, 6) * Fraction(2, 3)


def test_attached_damage_state_starts_on_the_wounded_model() -> None:
    r = TENTH.attack(Profile(weapon=Weapon(skill=2, abilities=parse_abilities(["torrent"]), strength=8),
                             defender=Defender(models=2, toughness=4, save=None, wounds=3, wounds_taken=2)))
    # The first unsaved wound finishes the damaged model.
    assert r.distributions["models_destroyed"].prob(1) == Fraction(5, 6)
