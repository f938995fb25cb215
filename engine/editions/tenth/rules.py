"""The 10th edition's rules outside the attack sequence, as plain functions over dice: weapon abilities
(Indirect Fire, Sustained Hits, Devastating Wounds, Anti-X, Blast, Rapid Fire, Melta, Hazardous), Feel No Pain,
Desperate Escape, Deadly Demise, destroyed transports, the Grenade and Tank Shock stratagems, Attached units,
Below Half-strength and command points (line numbers cite ``10e-core``).
"""

from __future__ import annotations

from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import DiceExpr, Dist
from rulekb.engine.errors import ProfileError

__all__ = [
    "SRC",
    "anti_threshold",
    "attached_starting_strength",
    "attached_unit_victory_points",
    "below_half_strength",
    "blast_bonus",
    "command_points",
    "deadly_demise",
    "deadly_demise_roll",
    "desperate_escape",
    "desperate_escape_rolls",
    "destroyed_transport",
    "destroyed_transport_rolls",
    "devastating_wounds",
    "feel_no_pain",
    "grenade",
    "hazardous",
    "indirect_fire",
    "melta_damage",
    "rapid_fire_attacks",
    "sustained_hits",
    "tank_shock",
]

SRC = "10e-core"


@rule("indirect-fire", cite(SRC, 799, 818))
def indirect_fire(target_visible: bool) -> tuple[int, int, bool]:
    """Indirect Fire: against a target no attacking model can see, -1 to hit, unmodified 1–3 always
    fail, and the target has the benefit of cover. Returns (hit modifier, unmodified results that
    always fail, benefit of cover); a visible target gets (0, 1, False)."""
    return (0, 1, False) if target_visible else (-1, 3, True)


@rule("sustained-hits", cite(SRC, 915, 931))
def sustained_hits(critical: bool, x: int) -> int:
    """Hits one successful hit roll scores with Sustained Hits X: 1, or 1 + X on a Critical Hit."""
    return 1 + x if critical else 1


@rule("devastating-wounds", cite(SRC, 897, 913))
def devastating_wounds(critical: bool, damage: int) -> tuple[int, bool]:
    """A Critical Wound with Devastating Wounds allows no save and inflicts mortal wounds equal to the
    Damage: returns (mortal wounds, whether a save is allowed)."""
    return (damage, False) if critical else (0, True)


@rule("anti", cite(SRC, 943, 963))
def anti_threshold(anti: tuple[tuple[str, int], ...], keywords: tuple[str, ...] | list[str], base: int = 6) -> int:
    """The unmodified wound roll that scores a Critical Wound: ``base`` (6), or Anti-KEYWORD X+'s ``x``
    against a target with that keyword, whichever is lower."""
    held = {k.upper() for k in keywords}
    return min([base, *(x for kw, x in anti if kw.upper() in held)])


@rule("feel-no-pain", cite(SRC, 679, 683))
def feel_no_pain(x: int) -> Fraction:
    """P(one lost wound is ignored) with Feel No Pain ``x``+."""
    return Fraction(7 - x, 6)


@rule("blast", cite(SRC, 836, 847))
def blast_bonus(models: int) -> int:
    """+1 attack per five models in the target unit, rounding down."""
    return models // 5


@rule("rapid-fire", cite(SRC, 728, 740))
def rapid_fire_attacks(attacks: Dist, x: Dist | int, half_range: bool) -> Dist:
    """Rapid Fire X: the Attacks characteristic rises by X against a target within half range."""
    return attacks + x if half_range else attacks


@rule("melta", cite(SRC, 849, 859))
def melta_damage(damage: Dist, x: int, half_range: bool) -> Dist:
    """Melta X: the Damage characteristic rises by X against a target within half range."""
    return damage + x if half_range else damage


@rule("hazardous", cite(SRC, 873, 895))
def hazardous(weapons: int) -> Dist:
    """Mortal wounds the attacking unit suffers: one D6 per Hazardous weapon used, 3 mortal wounds per 1."""
    return Dist.binomial(weapons, Fraction(1, 6)).map(lambda failed: 3 * failed)


DESPERATE_ESCAPE_FAILS = 2


@rule("desperate-escape", cite(SRC, 429, 436))
def desperate_escape(tests: int, models: int | None = None) -> Dist:
    """Models destroyed by Desperate Escape tests: one D6 per test, each 1–2 destroys one model."""
    lost = Dist.binomial(tests, Fraction(DESPERATE_ESCAPE_FAILS, 6))
    return lost if models is None else lost.map(lambda n: min(n, models))


@rule("desperate-escape", cite(SRC, 429, 436))
def desperate_escape_rolls(rolls: list[int]) -> int:
    """Models destroyed by the rolled Desperate Escape tests: one for each 1–2."""
    return sum(1 for r in rolls if r <= DESPERATE_ESCAPE_FAILS)


DEADLY_DEMISE_ON = 6


@rule("deadly-demise", cite(SRC, 685, 701))
def deadly_demise(x: Dist | int) -> Dist:
    """Mortal wounds one unit within 6" suffers when the model dies: a 6 on one D6, then ``x``."""
    amount = x if isinstance(x, Dist) else Dist.constant(x)
    trigger = Fraction(7 - DEADLY_DEMISE_ON, 6)
    return Dist.mixture([(1 - trigger, Dist.constant(0)), (trigger, amount)])


@rule("deadly-demise", cite(SRC, 685, 701))
def deadly_demise_roll(roll: int, x: DiceExpr, units: int) -> tuple[bool, int, Dist]:
    """After the D6 ``roll`` for a destroyed model with Deadly Demise ``x``: whether it triggers, how
    many random rolls it takes (a random X is rolled separately for each unit within 6"), and the
    distribution of the mortal wounds dealt to all ``units`` units together."""
    triggered = roll >= DEADLY_DEMISE_ON
    if not triggered:
        return False, 0, Dist.constant(0)
    return True, (0 if x.is_constant else units), x.dist().times(units)


def _transport_fails(emergency: bool) -> int:
    return 3 if emergency else 1


@rule("mortal-wounds", cite(SRC, 506, 525))
def destroyed_transport(models: int, emergency: bool = False) -> Dist:
    """Mortal wounds on a unit disembarking from a destroyed transport: one D6 per model, each 1 (each 1–3
    in an emergency disembarkation) inflicts 1 mortal wound."""
    return Dist.binomial(models, Fraction(_transport_fails(emergency), 6))


@rule("mortal-wounds", cite(SRC, 506, 525))
def destroyed_transport_rolls(rolls: list[int], emergency: bool = False) -> tuple[int, bool]:
    """The rolled D6s of a unit disembarking from a destroyed transport: (mortal wounds, battle-shocked).
    The unit is battle-shocked whatever it rolls (10e-core 516)."""
    return sum(1 for r in rolls if r <= _transport_fails(emergency)), True


@rule("mortal-wounds", cite(SRC, 1437, 1453))
def grenade() -> Dist:
    """Grenade stratagem: six D6, each 4+ inflicts 1 mortal wound."""
    return Dist.binomial(6, Fraction(1, 2))


@rule("mortal-wounds", cite(SRC, 1453, 1475))
def tank_shock(toughness: int) -> Dist:
    """Tank Shock stratagem: as many D6 as the vehicle's Toughness, each 5+ inflicts 1 mortal wound (at most 6)."""
    return Dist.binomial(toughness, Fraction(1, 3)).map(lambda n: min(n, 6))


@rule("starting-strength", cite(SRC, 325, 327), cite(SRC, 340, 346))
def attached_starting_strength(*units: int) -> int:
    """An Attached unit's Starting Strength is the sum of its units' Starting Strengths; when one of them
    is destroyed the other goes back to its own."""
    return sum(units)


@rule("attached-unit", cite(SRC, 344, 346))
def attached_unit_victory_points(destroyed: list[str], vp_per_unit: int) -> int:
    """Rules that score for destroying a unit still trigger for each unit of an Attached unit: the
    Bodyguard and the Leader each score when destroyed (both: twice)."""
    return vp_per_unit * len(set(destroyed))


@rule("below-half-strength", cite(SRC, 329, 334))
def below_half_strength(starting: int, models_left: int, wounds_left: int = 0, wounds: int = 1) -> bool:
    """Below Half-strength: fewer than half the Starting Strength in models; for a unit of Starting
    Strength 1, fewer than half its Wounds left."""
    if starting == 1:
        return 2 * wounds_left < wounds
    return 2 * models_left < starting


@rule("command-points", cite(SRC, 297, 304), cite(SRC, 321, 323))
def command_points(start: int, rounds: list[list[int]]) -> int:
    """CP after some battle rounds: each command phase both players gain 1 CP; besides that a player
    gains at most 1 CP per battle round, whatever the source. ``rounds[i]`` lists the extra gains offered
    in round ``i`` (negative numbers are CP spent)."""
    cp = start
    for gains in rounds:
        cp += 2  # one command phase of each player per battle round
        extra = 0
        for g in gains:
            if g < 0:
                cp += g
            else:
                take = min(g, 1 - extra)
                extra += take
                cp += take
        if cp < 0:
            raise ProfileError("command_points", "spent more CP than the player had.")
    return cp
