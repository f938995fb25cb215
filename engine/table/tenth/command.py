"""The command phase: command points, Battle-shock tests and Below Half-strength (10e-core 295–334).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.table.state import Table, Unit
from rulekb.engine.table.tenth.common import TENTH
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "battle_shock_step",
    "below_half_strength",
    "command_phase",
    "gain_command_points",
]


@rule("command-points", cite("10e-core", 299, 304), cite("10e-core", 323))
def gain_command_points(cp: Mapping[str, int], extra: Mapping[str, int] | None = None,
                        extra_this_round: Mapping[str, int] | None = None) -> Verdict:
    """Both players gain 1 CP at the start of the command phase; beyond that a player gains at most 1 CP
    per battle round whatever the source."""
    out = Verdict()
    after = {p: v + 1 for p, v in cp.items()}
    out.note(gain_command_points, "both players gain 1 CP at the start of the command phase")
    for p, wanted in (extra or {}).items():
        already = (extra_this_round or {}).get(p, 0)
        allowed = max(0, min(wanted, 1 - already))
        out.check(gain_command_points, allowed == wanted,
                  f"player {p} may gain {allowed} of {wanted} further CP this battle round (at most 1 in all)")
        after[p] += allowed
    out.values["cp"] = after
    return out


@rule("battle-shock", cite("10e-core", 306, 319))
def battle_shock_step(table: Table, player: str, rolls: Mapping[str, int] | None = None) -> Verdict:
    """Battle-shock tests for every unit of ``player`` on the battlefield below half-strength: 2D6 at or above
    the best Leadership passes; a failed unit is Battle-shocked (OC 0, no stratagems on it, Desperate
    Escape for every model if it falls back)."""
    out = Verdict()
    tests: dict[str, Fraction] = {}
    shocked: list[str] = []
    for unit in table.on_table():
        if unit.player != player:
            continue
        if not below_half_strength(unit):
            continue
        p_pass = TENTH.leadership_test(unit.leadership)
        tests[unit.name] = p_pass
        out.note(battle_shock_step, f"{unit.name} is below half-strength: test on 2D6 >= {unit.leadership} "
                                    f"passes with p = {p_pass}")
        if rolls is not None and unit.name in rolls and rolls[unit.name] < unit.leadership:
            shocked.append(unit.name)
            out.note(battle_shock_step, f"{unit.name} rolled {rolls[unit.name]}: Battle-shocked, OC 0")
    out.values.update({"tests": sorted(tests), "p_pass": tests, "battle_shocked": shocked,
                       "p_all_pass": _product(tests.values())})
    return out


def _product(values: Iterable[Fraction]) -> Fraction:
    result = Fraction(1)
    for v in values:
        result *= v
    return result


@rule("below-half-strength", cite("10e-core", 331, 334))
def below_half_strength(unit: Unit, wounds_left: int | None = None) -> bool:
    """Starting Strength 1: fewer wounds left than half its Wounds; otherwise fewer models than half."""
    if unit.strength == 1:
        left = unit.wounds if wounds_left is None else wounds_left
        return 2 * left < unit.wounds
    return 2 * len(unit.models) < unit.strength


@rule("command-phase", cite("10e-core", 295, 319))
def command_phase(table: Table, player: str, cp: Mapping[str, int], rolls: Mapping[str, int] | None = None) -> Verdict:
    """The command phase: 1. Command (both players gain 1 CP), 2. Battle-shock (the active player tests)."""
    out = gain_command_points(cp)
    shock = battle_shock_step(table, player, rolls)
    out.merge(shock)
    out.values.update(shock.values)
    return out
