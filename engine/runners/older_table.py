"""Runners for the 6th/7th-edition and Kill Team table rules (``older.*``, ``killteam.squad``), read like the
10th edition's (:mod:`rulekb.engine.runners.table`)."""

from __future__ import annotations

from rulekb.engine.errors import ProfileError
from rulekb.engine.runners.base import Inputs, Result, runner
from rulekb.engine.runners.positions import length_of, moves_of, read_table, verdict_result
from rulekb.engine.table import older

__all__: list[str] = []


@runner("older.move")
def _older_move(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    return verdict_result(older.move_by_type(t, unit, i.text("unit_type"), moves_of(t, unit),
                                             i.integer("difficult_roll", None), i.flag("turbo_boost", False)))


@runner("older.charge")
def _older_charge(i: Inputs) -> Result:
    return verdict_result(older.charge_range(read_table(i), i.text("unit"), i.text("target"), i.text("edition", "6"),
                                             i.flag("difficult", False), i.flag("jump", False), i.integer("roll", None)))


@runner("older.engaged")
def _older_engaged(i: Inputs) -> Result:
    return verdict_result(older.engaged_models(read_table(i), i.text("unit")))


@runner("older.pile_in")
def _older_pile_in(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    return verdict_result(older.pile_in_older(t, unit, moves_of(t, unit), length_of(i, "inches", 3),
                                              i.flag("consolidating", False)))


@runner("older.fall_back")
def _older_fall_back(i: Inputs) -> Result:
    return verdict_result(older.fall_back_older(read_table(i), i.text("unit"), i.text("unit_type"),
                                                length_of(i, "edge_distance", 12), i.integer("roll", None)))


@runner("older.near")
def _older_near(i: Inputs) -> Result:
    return verdict_result(older.kill_team_within_three(read_table(i), i.text("model"), length_of(i, "inches", 3)))


@runner("older.declare_charge")
def _older_declare(i: Inputs) -> Result:
    return verdict_result(older.may_declare_charge(read_table(i), i.text("unit"), i.text("target"), i.flag("ran", False),
                                                   i.flag("gone_to_ground", False), i._get("fired", []),
                                                   i.text("shot_at", None), i.flag("falling_back", False)))


@runner("older.wound_allocation")
def _older_allocation(i: Inputs) -> Result:
    return verdict_result(older.wound_allocation_order(read_table(i), i.text("attackers"), i.text("target")))


@runner("killteam.squad")
def _kt_squad(i: Inputs) -> Result:
    return verdict_result(older.kill_team_squad(read_table(i), i.text("unit")))


@runner("older.line_of_sight")
def _older_los(i: Inputs) -> Result:
    return verdict_result(older.line_of_sight_older(read_table(i), i.text("observer"), i.text("target")))


@runner("older.initiative_resolution")
def _older_initiative(i: Inputs) -> Result:
    models = i._get("models", [])
    killed = i._get("killed", {})
    if not isinstance(models, list) or not isinstance(killed, dict):
        raise ProfileError("inputs.models", "models are [[name, initiative], ...]; killed maps names to a step.")
    return verdict_result(older.initiative_resolution([(str(n), int(v)) for n, v in models],
                                                      {str(k): int(v) for k, v in killed.items()}))


@runner("older.our_weapons_are_useless")
def _older_useless(i: Inputs) -> Result:
    return verdict_result(older.our_weapons_are_useless(i.integer("strength"), i.integer("toughness")))
