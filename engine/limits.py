"""The engine's limits: how large a dice expression and an attack profile may be, checked before any work.

Every entry point (``rulekb calc``, the calculator form, ``GET`` and ``POST /api/calc``) goes through
:func:`rulekb.engine.dice.parse_dice` and :func:`rulekb.engine.calc.parse_profile`, which call the checks here
*before* a single distribution is built, so a profile that would take minutes is refused in
microseconds with a :class:`~rulekb.engine.errors.ProfileError` naming the field, the limit and why.

The limits come in two kinds:

* **Plain bounds** on what a player types: dice count and sides, the value of a constant, attacking
  and target models, wounds per model. They are far above anything a rulebook prints (its dice are
  D3 and D6, rarely more than 3 at once; units have at most 30 models).
* **A work bound**: the exact distributions cost time that grows with the number of attacks, the
  spread of the per-attack outcome (Sustained Hits), the damage dice and the wounds of the unit;
  a single re-roll of one die of the pool (``single``) costs one pool calculation per pool size.
  :func:`estimate_work` counts the integer operations the engine's algorithm performs, from the
  profile alone; a profile above :data:`WORK_MAX` is refused, naming the field that drives the cost.
  The bound is set so that the largest profile accepted answers in well under a second on one core
  (``benchmarks/hostile.py`` measures it).

Nothing here builds a distribution; the module imports only the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekb.engine.errors import DiceError, ProfileError

if TYPE_CHECKING:
    from rulekb.engine.dice import DiceExpr
    from rulekb.engine.profiles import Profile

__all__ = [
    "ATTACKERS_MAX",
    "ATTACKS_MAX",
    "DICE_COUNT_MAX",
    "DICE_MULTIPLIER_MAX",
    "DICE_SIDES_MAX",
    "DICE_VALUE_MAX",
    "HITS_MAX",
    "LIMITS",
    "MODELS_MAX",
    "WORK_MAX",
    "WOUNDS_MAX",
    "Work",
    "check_dice",
    "check_profile",
    "estimate_work",
]

#: Dice rolled in one expression (``20D6``).
DICE_COUNT_MAX = 20
#: Sides of one die (``D20``); the rulebooks roll D3 and D6.
DICE_SIDES_MAX = 20
#: The multiplier of ``D6x5``.
DICE_MULTIPLIER_MAX = 10
#: A constant or the ``+N`` of an expression (``D6+100``).
DICE_VALUE_MAX = 100
#: Attacking models (``attacker.models``).
ATTACKERS_MAX = 100
#: Models in the target unit (``defender.models``).
MODELS_MAX = 100
#: Wounds per target model (``defender.wounds``).
WOUNDS_MAX = 30
#: The largest number of attacks of the whole unit (attacking models × the largest attacks roll).
ATTACKS_MAX = 400
#: The largest number of hits (attacks × (1 + the largest Sustained Hits roll)).
HITS_MAX = 999
#: Estimated integer operations of one profile (see :func:`estimate_work`).
WORK_MAX = 4_000_000

#: The limits by name, as the API description and the README state them.
LIMITS: dict[str, int] = {
    "dice_count": DICE_COUNT_MAX,
    "dice_sides": DICE_SIDES_MAX,
    "dice_multiplier": DICE_MULTIPLIER_MAX,
    "dice_value": DICE_VALUE_MAX,
    "attackers": ATTACKERS_MAX,
    "models": MODELS_MAX,
    "wounds": WOUNDS_MAX,
    "attacks": ATTACKS_MAX,
    "hits": HITS_MAX,
    "work": WORK_MAX,
}


def check_dice(text: object, count: int, sides: int, multiplier: int, plus: int) -> None:
    """Refuse a dice expression above the plain bounds (called by ``parse_dice`` before it builds one)."""
    shown = str(text)[:40]
    if count > DICE_COUNT_MAX:
        raise DiceError(f"Dice expression {shown!r} rolls {count} dice; at most {DICE_COUNT_MAX} at once "
                        f"(no rulebook rolls more), e.g. '3D6'.")
    if sides > DICE_SIDES_MAX:
        raise DiceError(f"Dice expression {shown!r} has dice of {sides} sides; at most {DICE_SIDES_MAX} "
                        "(the rulebooks roll D3 and D6).")
    if multiplier > DICE_MULTIPLIER_MAX:
        raise DiceError(f"Dice expression {shown!r} multiplies by {multiplier}; at most {DICE_MULTIPLIER_MAX}.")
    if count == 0 and abs(plus) > DICE_VALUE_MAX:
        raise DiceError(f"Dice value {shown!r} is above {DICE_VALUE_MAX}, the largest value the engine takes.")
    if abs(plus) > DICE_VALUE_MAX:
        raise DiceError(f"Dice expression {shown!r} adds {plus}; values go up to {DICE_VALUE_MAX}.")


def _span(dice: DiceExpr | None) -> tuple[int, int, int]:
    """(smallest value, largest value, number of values) of a dice expression, without building it."""
    if dice is None:
        return 0, 0, 1
    if dice.count == 0:
        return dice.plus, dice.plus, 1
    sides = dice.sides if dice.sides != 3 else 3
    low = (dice.count * 1) * dice.multiplier + dice.plus
    high = (dice.count * sides) * dice.multiplier + dice.plus
    return low, high, dice.count * (sides - 1) + 1


@dataclass(frozen=True)
class Work:
    """What a profile costs, estimated before any work: the sizes and the operation count."""

    attacks: int
    hits: int
    unit_wounds: int
    operations: int
    #: the field whose size drives the cost most (named in the error)
    driver: str


def estimate_work(profile: Profile) -> Work:
    """The integer operations the exact attack sequence needs for ``profile`` (an upper estimate).

    It follows the algorithm of :mod:`rulekb.engine.attack`: every count is a compound distribution over the
    number of attacks (about ``A² s²`` products for ``A`` attacks with ``s`` outcomes per attack), a
    single re-roll of the wound pool adds one pool per hit count (``H³``), Devastating Wounds
    compound the damage over the critical wounds, and damage allocation steps a chain over the
    unit's wounds once per unsaved wound. The products are of integers whose size grows with the
    number of dice, hence the factor ``1 + A/64``.
    """
    w, ab, d, sit = profile.weapon, profile.weapon.abilities, profile.defender, profile.situation
    a_high = _span(w.attacks)[1]
    rf_high = _span(ab.rapid_fire)[1] if ab.rapid_fire is not None and sit.half_range else 0
    melee_bonus = (1 if sit.charged else 0) + (1 if sit.two_weapons else 0) if w.melee else 0  # 6th/7th
    bonus = rf_high + (d.models // 5 if ab.blast else 0) + melee_bonus
    per_model = max(a_high, 1) + bonus
    attacks = profile.attackers * per_model
    sustained = _span(ab.sustained_hits)[1] if ab.sustained_hits is not None else 0
    hits = attacks * (1 + max(sustained, 0))
    outcomes = 2 + max(sustained, 0)
    _, dmax, dvalues = _span(w.damage)
    dmax = max(dmax + ab.melta + max(profile.damage_modifier, 0), 1)
    if d.fnp is not None:
        dvalues = 3 * (dmax + 1)  # thinned damage: one more value, and larger integers
    unit_wounds = d.models * d.wounds
    growth = 1 + attacks // 64

    compound = 8 * attacks * attacks * outcomes * outcomes // 2 * growth
    single = 0
    if profile.rerolls.hit.value == "single":
        single += 6 * attacks * attacks * outcomes * outcomes * growth
    if profile.rerolls.wound.value == "single":
        single += hits * hits * hits * outcomes * 2 * (1 + hits // 64)
    mortal = hits * hits * dmax * dvalues // 2 * growth if ab.devastating_wounds else 0
    capped = d.fnp is None
    steps = min(hits, unit_wounds) if capped else hits
    chain = 0
    for k in range(1, steps + 1):
        chain += min(k * dmax + 1, unit_wounds + 1) * dvalues
    chain *= 1 + steps // 64
    if ab.devastating_wounds and profile.devastating_spill:
        chain *= 2 * (hits + 1)
    parts = {"weapon.attacks": compound + mortal, "rerolls": single, "defender.models": chain}
    driver = max(parts, key=lambda k: parts[k])
    return Work(attacks=attacks, hits=hits, unit_wounds=unit_wounds, operations=sum(parts.values()), driver=driver)


def check_profile(profile: Profile) -> Work:
    """Refuse a profile above the limits, before any distribution is built; returns its estimated work."""
    if profile.attackers > ATTACKERS_MAX:
        raise ProfileError("attacker.models", f"{profile.attackers} attacking models; at most {ATTACKERS_MAX}.")
    if profile.defender.models > MODELS_MAX:
        raise ProfileError("defender.models", f"{profile.defender.models} target models; at most {MODELS_MAX}.")
    if profile.defender.wounds > WOUNDS_MAX:
        raise ProfileError("defender.wounds", f"{profile.defender.wounds} wounds per model; at most {WOUNDS_MAX}.")
    work = estimate_work(profile)
    if work.attacks > ATTACKS_MAX:
        raise ProfileError(
            "weapon.attacks",
            f"up to {work.attacks} attacks in all ({profile.attackers} model(s) × {profile.weapon.attacks}"
            f" and bonuses); the engine computes up to {ATTACKS_MAX} exactly. Split the unit into smaller groups.",
        )
    if work.hits > HITS_MAX:
        raise ProfileError(
            "weapon.abilities",
            f"up to {work.hits} hits with Sustained Hits; the engine counts up to {HITS_MAX}. "
            "Use fewer attacks or a smaller Sustained Hits value.",
        )
    if work.operations > WORK_MAX:
        raise ProfileError(
            work.driver,
            f"this profile needs about {work.operations / 1e6:.0f} million steps of exact arithmetic "
            f"({work.attacks} attacks, up to {work.hits} hits, {work.unit_wounds} wounds in the unit); the "
            f"engine answers up to {WORK_MAX / 1e6:.0f} million, to stay fast. Use fewer attacks, fewer "
            "target models or wounds, or no single re-roll.",
        )
    return work
