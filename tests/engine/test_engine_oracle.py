"""The fast engine against a brute-force enumeration of every die face, on random small profiles."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine_oracle import oracle6, oracle10
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.engine.dice import parse_dice
from rulekb.engine.editions import get_edition
from rulekb.engine.profiles import Defender, Profile, Rerolls, Situation, Weapon, parse_abilities
from rulekb.engine.rolls import parse_reroll

REROLLS = ["none", "ones", "failed", "failed-unmodified", "noncrit", "single"]


@st.composite
def tenth_specs(draw: st.DrawFn) -> dict[str, Any]:
    attackers = draw(st.sampled_from([1, 1, 2]))
    attacks = draw(st.sampled_from([1, 2, 3, "D3"] if attackers == 1 else [1, 2]))
    most = (3 if attacks == "D3" else int(attacks)) * attackers
    sustained = draw(st.sampled_from([0, 1, 2, "D3"] if most <= 2 else [0, 1] if most <= 3 else [0]))
    torrent = draw(st.booleans()) and draw(st.booleans())
    spec = {
        "attackers": attackers,
        "attacks": attacks,
        "melee": draw(st.booleans()),
        "skill": draw(st.integers(2, 6)),
        "strength": draw(st.integers(1, 10)),
        "toughness": draw(st.integers(1, 10)),
        "ap": draw(st.sampled_from([0, 0, -1, -2, -3])),
        "damage": draw(st.sampled_from([1, 2, "D3"])),
        "save": draw(st.sampled_from([None, 2, 3, 4, 5, 6])),
        "invuln": draw(st.sampled_from([None, None, 4, 5])),
        "fnp": draw(st.sampled_from([None, None, 5, 6])),
        "models": draw(st.integers(1, 3)),
        "wounds": draw(st.integers(1, 3)),
        "torrent": torrent,
        "lethal": draw(st.booleans()),
        "sustained": sustained,
        "dev": draw(st.booleans()),
        "spill": draw(st.booleans()),
        "anti": draw(st.sampled_from([None, None, 4, 5])),
        "twin": draw(st.booleans()),
        "lance": draw(st.booleans()),
        "charged": draw(st.booleans()),
        "heavy": draw(st.booleans()),
        "stationary": draw(st.booleans()),
        "indirect": draw(st.booleans()),
        "visible": draw(st.booleans()),
        "overwatch": draw(st.booleans()) and draw(st.booleans()),
        "cover": draw(st.booleans()),
        "ignores_cover": draw(st.booleans()),
        "half_range": draw(st.booleans()),
        "rapid_fire": draw(st.sampled_from([0, 0, 1])) if most <= 2 and sustained == 0 else 0,
        "melta": draw(st.sampled_from([0, 0, 2])),
        "blast": False,
        "hit_mod": draw(st.integers(-2, 2)),
        "wound_mod": draw(st.integers(-2, 2)),
        "hit_reroll": draw(st.sampled_from(REROLLS)),
        "wound_reroll": draw(st.sampled_from(REROLLS)),
        "save_reroll": draw(st.sampled_from(["none", "ones", "failed"])),
    }
    spec["taken"] = draw(st.integers(0, spec["wounds"] - 1))
    return spec


def tenth_profile(spec: dict[str, Any]) -> Profile:
    abilities = [name for key, name in (("torrent", "torrent"), ("lethal", "lethal-hits"), ("dev", "devastating-wounds"),
                                        ("twin", "twin-linked"), ("lance", "lance"), ("heavy", "heavy"),
                                        ("indirect", "indirect-fire"), ("ignores_cover", "ignores-cover"),
                                        ("blast", "blast")) if spec[key]]
    if spec["sustained"]:
        abilities.append(f"sustained-hits {spec['sustained']}")
    if spec["anti"]:
        abilities.append(f"anti-infantry {spec['anti']}+")
    if spec["rapid_fire"]:
        abilities.append(f"rapid-fire {spec['rapid_fire']}")
    if spec["melta"]:
        abilities.append(f"melta {spec['melta']}")
    return Profile(
        weapon=Weapon(melee=spec["melee"], attacks=parse_dice(spec["attacks"]), skill=spec["skill"],
                      strength=spec["strength"], ap=spec["ap"], damage=parse_dice(spec["damage"]),
                      abilities=parse_abilities(abilities)),
        attackers=spec["attackers"],
        defender=Defender(models=spec["models"], toughness=spec["toughness"], save=spec["save"], wounds=spec["wounds"],
                          invulnerable=spec["invuln"], fnp=spec["fnp"], keywords=("INFANTRY",),
                          wounds_taken=spec["taken"]),
        situation=Situation(half_range=spec["half_range"], remained_stationary=spec["stationary"],
                            charged=spec["charged"], target_visible=spec["visible"], cover=spec["cover"],
                            overwatch=spec["overwatch"]),
        hit_modifier=spec["hit_mod"],
        wound_modifier=spec["wound_mod"],
        rerolls=Rerolls(parse_reroll(spec["hit_reroll"]), parse_reroll(spec["wound_reroll"]),
                        parse_reroll(spec["save_reroll"])),
        devastating_spill=spec["spill"],
    )


def as_counts(items: list[tuple[int, Fraction]]) -> dict[int, Fraction]:
    return {v: p for v, p in items if p}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tenth_specs())
def test_tenth_matches_enumeration(spec: dict[str, Any]) -> None:
    result = get_edition("10").attack(tenth_profile(spec))
    expected = oracle10(spec)
    for name, dist in expected.items():
        assert as_counts(result.distributions[name].items()) == dist, name
    assert result.expected["damage"] == sum(v * p for v, p in expected["damage"].items())


@st.composite
def sixth_specs(draw: st.DrawFn) -> dict[str, Any]:
    melee = draw(st.booleans())
    return {
        "melee": melee,
        "attackers": draw(st.integers(1, 3)),
        "attacks": draw(st.sampled_from([1, 2, "D3"])),
        "skill": draw(st.integers(0, 10)),
        "defender_ws": draw(st.integers(0, 10)),
        "strength": draw(st.integers(1, 10)),
        "toughness": draw(st.integers(1, 10)),
        "ap": draw(st.sampled_from([None, 1, 2, 3, 4, 5, 6])),
        "save": draw(st.sampled_from([None, 2, 3, 4, 5, 6])),
        "invuln": draw(st.sampled_from([None, 4, 5])),
        "cover": draw(st.sampled_from([None, 3, 4, 5])),
        "models": draw(st.integers(1, 3)),
        "wounds": draw(st.integers(1, 3)),
        "charged": draw(st.booleans()),
        "two_weapons": draw(st.booleans()),
        "snap": draw(st.booleans()) and not melee,
        "twin": draw(st.booleans()),
        "hit_reroll": draw(st.sampled_from(["none", "ones", "failed"])),
        "wound_reroll": draw(st.sampled_from(["none", "ones", "failed"])),
    }


def sixth_profile(spec: dict[str, Any]) -> Profile:
    return Profile(
        weapon=Weapon(melee=spec["melee"], attacks=parse_dice(spec["attacks"]), skill=spec["skill"],
                      strength=spec["strength"], ap=spec["ap"],
                      abilities=parse_abilities(["twin-linked"] if spec["twin"] else [])),
        attackers=spec["attackers"],
        defender=Defender(models=spec["models"], toughness=spec["toughness"], save=spec["save"], wounds=spec["wounds"],
                          invulnerable=spec["invuln"], weapon_skill=spec["defender_ws"], cover_save=spec["cover"]),
        situation=Situation(charged=spec["charged"], two_weapons=spec["two_weapons"], snap_shots=spec["snap"]),
        rerolls=Rerolls(parse_reroll(spec["hit_reroll"]), parse_reroll(spec["wound_reroll"])),
    )


@settings(max_examples=60, deadline=None)
@given(sixth_specs())
def test_sixth_matches_enumeration(spec: dict[str, Any]) -> None:
    result = get_edition("6").attack(sixth_profile(spec))
    expected = oracle6(spec)
    for name in ("hits", "wounds", "unsaved", "damage", "models_destroyed"):
        assert as_counts(result.distributions[name].items()) == expected[name], name
