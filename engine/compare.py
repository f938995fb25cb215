"""Comparisons across editions for the concept pages: plain functions returning Fractions.

Each row holds the same situation under each edition's rule, so a page can show the mechanical
difference next to the prose: P(pass) of a Leadership or battle-shock test, hit chances of overwatch
against ordinary shooting, the chance to make a charge at each distance, close-combat hit chances.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from rulekb.engine.editions import KillTeam, Seventh, Sixth, Tenth
from rulekb.engine.geometry import charge_needed
from rulekb.engine.rolls import Reroll

__all__ = ["charge_table", "leadership_table", "melee_hit_table", "overwatch_table", "to_json"]

Row = dict[str, int | Fraction]


def leadership_table(values: Iterable[int] = range(2, 11)) -> list[Row]:
    """For each Ld: P(pass a 6th/7th-edition Leadership test: 2D6 at or below Ld, double 1 passes) and
    P(pass a 10th-edition battle-shock test: 2D6 at or above Ld)."""
    sixth, tenth = Sixth(), Tenth()
    return [{"ld": ld, "6": sixth.leadership_test(ld), "10": tenth.leadership_test(ld)} for ld in values]


def overwatch_table(targets: Iterable[int] = range(2, 7)) -> list[Row]:
    """For each 'hits on X+': P(hit) of an ordinary shot and of an overwatch shot in each edition
    (6th/7th: the BS that hits on X+, firing snap shots; 10th: Fire Overwatch, unmodified 6 only)."""
    sixth, tenth = Sixth(), Tenth()
    rows: list[Row] = []
    for x in targets:
        bs = 7 - x
        rows.append({
            "hits_on": x,
            "6_normal": sixth.normal_hit(bs),
            "6_overwatch": sixth.overwatch_hit(bs),
            "10_normal": tenth.normal_hit(x),
            "10_overwatch": tenth.overwatch_hit(x),
        })
    return rows


def charge_table(distances: Iterable[int] = range(1, 13)) -> list[Row]:
    """For each gap (inches between the bases): P(the charge gets there).
    6th/7th: 2D6 to base contact; through difficult terrain 3D6 dropping the highest; a 7th-edition jump
    unit may re-roll; Kill Team uses the same roll. 10th: 2D6 to end within 1" (Engagement Range)."""
    sixth, seventh, tenth, kt = Sixth(), Seventh(), Tenth(), KillTeam()
    rows: list[Row] = []
    for gap in distances:
        rows.append({
            "distance": gap,
            "6": sixth.charge(charge_needed(gap, edition="6")),
            "6_difficult": sixth.charge(charge_needed(gap, edition="6"), difficult_terrain=True),
            "7_jump": seventh.jump_charge(charge_needed(gap, edition="7")),
            "kt": kt.charge(charge_needed(gap, edition="kt")),
            "10": tenth.charge(charge_needed(gap, edition="10")),
            "10_command_reroll": tenth.charge(charge_needed(gap, edition="10"), Reroll.FAILED),
        })
    return rows


def melee_hit_table(skills: Iterable[int] = range(1, 11)) -> list[Row]:
    """6th/7th: P(hit) in close combat for attacker WS (rows) against target WS (columns ``vs_N``);
    10th: the weapon's own WS target, whatever the enemy (shown for the same rows as ``10_ws_X+``)."""
    sixth, tenth = Sixth(), Tenth()
    rows: list[Row] = []
    for ws in skills:
        row: Row = {"ws": ws}
        for enemy in range(1, 11):
            need = sixth.melee_hit_target(ws, enemy)
            row[f"vs_{enemy}"] = Fraction(7 - need, 6)
        rows.append(row)
    for x in range(2, 7):
        rows.append({"ws_target": x, "10": tenth.normal_hit(x)})
    return rows


def to_json(rows: list[Row]) -> list[dict[str, int | str]]:
    """Fractions as ``"a/b"`` strings for JSON."""
    return [{k: (str(v) if isinstance(v, Fraction) else v) for k, v in row.items()} for row in rows]
