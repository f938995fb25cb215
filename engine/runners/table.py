"""Runners for the 10th edition's table rules (``table.*``).

Each reads the example's positions from ``inputs.table`` (the loader passes an example's ``positions`` there),
calls the rule function and returns its verdict flattened: ``ok``, the failed conditions, the rules applied and
the values the rule computed. Moves are the positions' ``moves`` (the arrows of the diagram). The older editions'
table runners are in :mod:`rulekb.engine.runners.older_table`.
"""

from __future__ import annotations

from rulekb.engine.errors import ProfileError
from rulekb.engine.rolls import parse_reroll
from rulekb.engine.runners.base import Inputs, Result, runner
from rulekb.engine.runners.positions import length_of, moves_of, read_table, unit_names, verdict_result
from rulekb.engine.table import tenth
from rulekb.engine.table.geometry import (
    distance,
    distance_within,
    horizontal_distance,
    inches,
    vertical_gap,
    wholly_within,
)
from rulekb.engine.table.measure import coherency as coherency_of
from rulekb.engine.table.measure import in_engagement_range
from rulekb.engine.table.verdict import Verdict

__all__ = ["verdict_result"]


@runner("table.move")
def _move(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    pivots = i._get("pivots", {})
    if not isinstance(pivots, dict):
        raise ProfileError("inputs.pivots", "must map model ids to the number of pivots.")
    v = tenth.move(t, unit, moves_of(t, unit), i.text("kind", "normal"), i.integer("advance_roll", None),
                   length_of(i, "pivot_value", 0), pivots)
    return verdict_result(v)


@runner("table.charge")
def _charge(i: Inputs) -> Result:
    t = read_table(i)
    unit, targets = i.text("unit"), unit_names(i, "targets")
    eligible = tenth.charge_eligible(t, unit)
    need = tenth.charge_needed(t, unit, targets)
    out = verdict_result(need.merge(Verdict(eligible.ok, eligible.reasons)))
    out["eligible"] = eligible.ok
    needed = need.values["needed"]
    out["p"] = tenth.charge_success(needed, parse_reroll(i.text("reroll", "none")))
    roll = i.integer("roll", None)
    if roll is not None:
        out["succeeds"] = roll >= needed
        moves = moves_of(t, unit)
        if moves and roll >= needed:
            move = tenth.charge_move(t, unit, targets, roll, moves, length_of(i, "pivot_value", 0), i._get("pivots", {}))
            out["move"] = verdict_result(move)
            out["move_ok"] = move.ok
            out["fights_first"] = move.values["fights_first"]
    return out


@runner("table.charge_eligible")
def _charge_eligible(i: Inputs) -> Result:
    return verdict_result(tenth.charge_eligible(read_table(i), i.text("unit")))


@runner("table.pile_in")
def _pile_in(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    return verdict_result(tenth.pile_in(t, unit, moves_of(t, unit)))


@runner("table.consolidate")
def _consolidate(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    return verdict_result(tenth.consolidate(t, unit, moves_of(t, unit)))


@runner("table.fight_order")
def _fight_order(i: Inputs) -> Result:
    return verdict_result(tenth.fight_order(read_table(i), i.text("active")))


@runner("table.fighting_models")
def _fighting(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    out = verdict_result(tenth.fighting_models(t, unit))
    out["eligible"] = tenth.fight_eligible(t, unit).ok
    return out


@runner("table.objective")
def _objective(i: Inputs) -> Result:
    return verdict_result(tenth.objective_control(read_table(i), i.text("objective")))


@runner("table.coherency")
def _coherency(i: Inputs) -> Result:
    t = read_table(i)
    unit = t.unit(i.text("unit"))
    report = coherency_of(unit.models, i.text("edition", "10"))
    return {"ok": report.ok, "needed": report.needed, "lacking": [unit.models[k].id for k in report.lacking],
            "groups": len(report.groups)}


@runner("table.engagement")
def _engagement(i: Inputs) -> Result:
    t = read_table(i)
    unit = t.unit(i.text("unit"))
    engaged = [e.name for e in tenth.engaged_with(t, unit)]
    model_pairs = sorted(f"{m.id}~{o.id}" for e in t.enemies_of(unit) for m in unit.models for o in e.models
                         if in_engagement_range(m, o))
    return {"engaged_with": engaged, "pairs": model_pairs}


@runner("table.measure")
def _measure(i: Inputs) -> Result:
    t = read_table(i)
    a, b = t.model(i.text("a")), t.model(i.text("b"))
    d = length_of(i, "within", 0)
    out: Result = {"horizontal": round(horizontal_distance(a, b), 6), "vertical": vertical_gap(a, b),
                   "distance": round(distance(a, b), 6), "within": distance_within(a, b, d),
                   "wholly_within": wholly_within(a, b, d)}
    return out


@runner("table.reserves")
def _reserves(i: Inputs) -> Result:
    v = tenth.reserves_set_up(read_table(i), i.text("unit"), i.integer("battle_round", 2), i.text("kind", "deep-strike"),
                              length_of(i, "distance", 9))
    return verdict_result(v)


@runner("table.strategic_reserves_points")
def _sr_points(i: Inputs) -> Result:
    return verdict_result(tenth.strategic_reserves_allowed(i.integers("points"), i.integer("limit"),
                                                           i.integer("fortifications", 0)))


@runner("table.embark")
def _embark(i: Inputs) -> Result:
    v = tenth.embark(read_table(i), i.text("unit"), i.text("transport"), i.text("moved", "normal"),
                     i.flag("disembarked_this_phase", False), i.integer("aboard", 0))
    return verdict_result(v)


@runner("table.disembark")
def _disembark(i: Inputs) -> Result:
    return verdict_result(tenth.disembark(read_table(i), i.text("unit"), i.text("transport"), i.text("transport_moved", "none")))


@runner("table.destroyed_transport")
def _destroyed_transport(i: Inputs) -> Result:
    rolls = i._get("rolls", None)
    return verdict_result(tenth.destroyed_transport(read_table(i), i.text("unit"), i.text("transport"),
                                                    i.integers("rolls") if rolls is not None else None))


@runner("table.aircraft")
def _aircraft(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    moves = list(moves_of(t, unit).values())
    if not moves:
        raise ProfileError("positions.moves", "an aircraft example draws its move.")
    return verdict_result(tenth.aircraft_move(t, unit, moves[0], i.integer("turn_degrees", 0)))


@runner("table.visible")
def _visible(i: Inputs) -> Result:
    t = read_table(i)
    observer, target = i.text("observer"), i.text("target")
    out = verdict_result(tenth.visible(t, observer, target))
    attackers = i.text("attackers", None)
    if attackers is not None:
        out["cover"] = tenth.benefit_of_cover(t, target, attackers).values["cover"]
    return out


@runner("table.command_phase")
def _command(i: Inputs) -> Result:
    t = read_table(i)
    cp = i._get("cp", {})
    rolls = i._get("rolls", None)
    return verdict_result(tenth.command_phase(t, i.text("player"), cp, rolls))


@runner("table.gain_cp")
def _gain_cp(i: Inputs) -> Result:
    return verdict_result(tenth.gain_command_points(i._get("cp", {}), i._get("extra", {}), i._get("extra_this_round", {})))


@runner("table.stratagem")
def _stratagem(i: Inputs) -> Result:
    used = i._get("used_this_phase", [])
    return verdict_result(tenth.use_stratagem(i.integer("cp"), i.integer("cost"), i.text("name"), used,
                                              i.flag("target_battle_shocked", False)))


@runner("table.sequence")
def _sequence(i: Inputs) -> Result:
    seq = tenth.turn_sequence(i.text("active"))
    return {"phases": [phase for _p, phase in seq[:5]], "turns": [p for p, _ in seq[::5]], "steps": len(seq)}


@runner("table.units")
def _units(i: Inputs) -> Result:
    """Distances between units: from and to the closest models; wholly within: every model of ``a`` wholly
    within the distance of ``b``."""
    t = read_table(i)
    a, b = t.unit(i.text("a")), t.unit(i.text("b"))
    d = length_of(i, "within", 0)
    closest = min(distance(m, o) for m in a.models for o in b.models)
    return {"distance": round(closest, 6),
            "within": any(distance_within(m, o, d) for m in a.models for o in b.models),
            "wholly_within": all(any(wholly_within(m, o, d) for o in b.models) for m in a.models)}


@runner("table.select_target")
def _select_target(i: Inputs) -> Result:
    abilities = i._get("abilities", [])
    return verdict_result(tenth.select_target(read_table(i), i.text("unit"), i.text("target"), length_of(i, "range", 24),
                                              abilities))


@runner("table.aura")
def _aura(i: Inputs) -> Result:
    return verdict_result(tenth.aura(read_table(i), i.text("model"), length_of(i, "radius", 6)))


@runner("table.scouts")
def _scouts(i: Inputs) -> Result:
    t = read_table(i)
    unit = i.text("unit")
    return verdict_result(tenth.scouts_move(t, unit, length_of(i, "x", 6), moves_of(t, unit)))


@runner("table.infiltrators")
def _infiltrators(i: Inputs) -> Result:
    return verdict_result(tenth.infiltrators_set_up(read_table(i), i.text("unit")))


@runner("table.core_stratagem")
def _core_stratagem(i: Inputs) -> Result:
    v = tenth.core_stratagem(read_table(i), i.text("name"), i.integer("cp"), i.text("unit"), i.text("enemy", None),
                             i.text("phase", ""), i.text("active", ""), i._get("used_this_phase", []),
                             i._get("used_this_battle", []), i.flag("fought", False))
    return verdict_result(v)


@runner("table.muster")
def _muster(i: Inputs) -> Result:
    units = i._get("units", [])
    if not isinstance(units, list) or not all(isinstance(u, dict) for u in units):
        raise ProfileError("inputs.units", "must be a list of tables {name, points, keywords, ...}.")
    size = i.text("battle_size", None)
    limit = tenth.BATTLE_SIZES[size] if size else i.integer("points_limit")
    return verdict_result(tenth.muster_army(units, limit, i.text("faction")))


@runner("table.mission")
def _mission(i: Inputs) -> Result:
    return verdict_result(tenth.mission_sequence(i.text("first_turn")))


@runner("table.centre")
def _centre(i: Inputs) -> Result:
    outline = i._get("outline", [])
    if not isinstance(outline, list) or len(outline) < 2:
        raise ProfileError("inputs.outline", "the model's outline seen from above, as [[x, y], ...] points.")
    pts = [(inches(p[0], "inputs.outline"), inches(p[1], "inputs.outline")) for p in outline]
    out = verdict_result(tenth.centre_without_base(pts))
    if i.data.get("table") is not None:  # the drawn model stands on the centre found
        t = read_table(i)
        first = t.units[0].models[0] if t.units and t.units[0].models else None
        out["drawn_at_centre"] = first is not None and [first.x, first.y] == out["centre"]
    return out


@runner("table.surge")
def _surge(i: Inputs) -> Result:
    return verdict_result(tenth.surge_move(read_table(i), i.text("unit"), i.flag("surged_this_phase", False)))


@runner("table.firing_deck")
def _firing_deck(i: Inputs) -> Result:
    chosen = unit_names(i, "chosen")
    return verdict_result(tenth.firing_deck(read_table(i), i.text("transport"), i.integer("x"), chosen,
                                            unit_names(i, "shot_already")))


@runner("table.attached_unit")
def _attached(i: Inputs) -> Result:
    return verdict_result(tenth.attached_unit(i.integer("leaders"), i.integer("bodyguard_left"),
                                              i.integer("bodyguard_toughness"), i.integer("leader_toughness"),
                                              i.flag("precision", False)))


@runner("table.aircraft_deployment")
def _aircraft_deployment(i: Inputs) -> Result:
    return verdict_result(tenth.aircraft_deployment(read_table(i), i.text("unit"), i.flag("hover", False),
                                                    i.flag("in_reserves", True)))


@runner("table.barricade")
def _barricade(i: Inputs) -> Result:
    return verdict_result(tenth.across_barricade(read_table(i), i.text("unit"), i.text("enemy")))
