"""The 6th/7th-edition and Kill Team table rules: base contact, charge range, engaged models, moves by unit
type, falling back and the Kill Team's «within 3"» rules, as functions over a table state."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.editions import Seventh, Sixth
from rulekb.engine.errors import ProfileError
from rulekb.engine.rolls import Reroll
from rulekb.engine.table.geometry import (
    Model,
    horizontal_within,
    path_length,
    rim_points,
    segment_crosses_polygon,
    segment_hits_base,
    sqrt_at_most,
    within,
)
from rulekb.engine.table.measure import base_contact, coherency
from rulekb.engine.table.state import Path, Table
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "UNIT_MOVES",
    "charge_initiator",
    "charge_range",
    "engaged_models",
    "fall_back_older",
    "kill_team_within_three",
    "move_by_type",
    "pile_in_older",
]

SIXTH = Sixth()
SEVENTH = Seventh()

#: maximum move in the movement phase, by unit type (7e-pp58-67 89–95, 109, 201, 259, 275; 6th: infantry 6")
UNIT_MOVES: dict[str, Fraction] = {"infantry": Fraction(6), "bike": Fraction(12), "jetbike": Fraction(12),
                                   "jump": Fraction(12), "beast": Fraction(12), "cavalry": Fraction(12),
                                   "monstrous": Fraction(6), "jet-pack": Fraction(6), "artillery": Fraction(6)}
NOT_SLOWED = {"bike", "jetbike", "beast", "cavalry"}
OVER_MODELS = {"jetbike", "jump"}


def _gap_needed(a: Model, b: Model) -> int:
    """Whole inches for ``a`` to reach base contact with ``b`` (the distance between the bases, rounded up)."""
    d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2
    n = 0
    while not sqrt_at_most(d2, n + a.base.rx + b.base.rx):
        n += 1
    return n


@rule("unit-type", cite("7e-pp58-67", 89, 95), cite("7e-pp58-67", 121, 123), cite("7e-pp58-67", 109, 113), cite("7e-pp58-67", 127),
      cite("7e-pp58-67", 201), cite("7e-pp58-67", 231), cite("7e-pp58-67", 259), cite("7e-pp58-67", 275))
def move_by_type(table: Table, unit_name: str, unit_type: str, paths: Mapping[str, Path],
                 difficult_roll: int | None = None, turbo_boost: bool = False) -> Verdict:
    """A move in the movement phase by unit type: infantry 6", bikes, jetbikes, jump units, beasts and cavalry
    12"; bikes, jetbikes, beasts and cavalry are never slowed by difficult terrain (the others move at most the
    highest of 2D6 through it, given as ``difficult_roll``); jump units and jetbikes pass over models and terrain."""
    if unit_type not in UNIT_MOVES:
        raise ProfileError("inputs.unit_type", f"one of {', '.join(UNIT_MOVES)}, got {unit_type!r}.")
    unit = table.unit(unit_name)
    out = Verdict()
    allowance = UNIT_MOVES[unit_type]
    if turbo_boost:
        out.check(move_by_type, unit_type in ("bike", "jetbike"), "only bikes and jetbikes turbo-boost")
        allowance = Fraction(24 if unit_type == "jetbike" else 12)
        out.note(move_by_type, f"turbo-boost instead of shooting: up to {allowance}\"")
    if difficult_roll is not None and unit_type not in NOT_SLOWED:
        allowance = min(allowance, Fraction(difficult_roll))
        out.note(move_by_type, f"difficult terrain: at most the highest of 2D6, {difficult_roll}\"")
    elif difficult_roll is not None:
        out.note(move_by_type, f"{unit_type} are not slowed by difficult terrain")
    others = [o for u in table.on_table() if u.name != unit.name for o in u.models]
    final = []
    for m in unit.models:
        path = paths.get(m.id)
        if path is None:
            final.append(m)
            continue
        used = path_length(path)
        out.check(move_by_type, float(used) <= float(allowance) + 1e-9, f"{m.id} moves {float(used):g}\" of {allowance}\"")
        crossed = [o.id for o in others for p, q in itertools.pairwise(path)
                   if segment_hits_base(p[:2], q[:2], m.base.rx, o)]
        if crossed:
            out.check(move_by_type, unit_type in OVER_MODELS, f"{m.id} passes over {sorted(set(crossed))}"
                      + (f" ({unit_type} move over models)" if unit_type in OVER_MODELS else ""))
        final.append(m.moved(path[-1][0], path[-1][1], path[-1][2]))
    out.check(coherency, coherency(final, "7").ok, "the unit ends in coherency (2\")")
    out.values["allowance"] = allowance
    return out


@rule("charge", cite("6e-assault", 60, 62), cite("6e-assault", 73, 87), cite("6e-assault", 98),
      cite("7e-pp58-67", 205))
def charge_range(table: Table, unit_name: str, target: str, edition: str = "6", difficult: bool = False,
                 jump: bool = False, roll: int | None = None) -> Verdict:
    """The charge in the 6th/7th edition: the initiator (the charging model closest to the target) must reach base
    contact, so the range needed is the gap between the closest bases rounded up; 2D6, or 3D6 dropping the
    highest through difficult terrain; jump units charging with their packs re-roll (7th). A roll short of the
    range fails the charge and no model moves."""
    unit, enemy = table.unit(unit_name), table.unit(target)
    out = Verdict()
    pairs = [(_gap_needed(m, o), m.id, o.id) for m in unit.models for o in enemy.models]
    needed, initiator, closest = min(pairs)
    out.note(charge_initiator, f"the initiator is {initiator}, closest to {closest}: {needed}\" to base contact")
    if jump:
        p = SEVENTH.jump_charge(needed)
    else:
        p = SIXTH.charge(needed, Reroll.NONE, difficult_terrain=difficult)
    out.values.update({"needed": needed, "initiator": initiator, "p": p,
                       "dice": "3D6 drop the highest" if difficult else "2D6"})
    if roll is not None:
        out.check(charge_range, roll >= needed, f"rolled {roll}\" against {needed}\" needed"
                  + ("" if roll >= needed else ": the charge fails and no model moves"))
    return out


@rule("charge", cite("6e-assault", 73, 82), cite("6e-assault", 65, 70))
def charge_initiator() -> None:
    """The initiator is the charging model closest to the enemy; it moves first, by the shortest route."""


@rule("engaged-models", cite("6e-assault", 129, 140), cite("6e-assault", 119, 126))
def engaged_models(table: Table, unit_name: str) -> Verdict:
    """Engaged models (6th/7th): in base contact with an enemy, or within 2" of a friendly model of their unit in
    base contact with an enemy; unengaged models do not attack."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    contact = {m.id for m in unit.models if any(base_contact(m, o) for o in enemies)}
    near = {m.id for m in unit.models if m.id not in contact
            and any(horizontal_within(m, f, Fraction(2)) for f in unit.models if f.id in contact)}
    engaged = sorted(contact | near)
    out.note(engaged_models, f"{len(contact)} in base contact, {len(near)} within 2\" of them")
    out.values.update({"engaged": engaged, "in_base_contact": sorted(contact),
                       "unengaged": sorted({m.id for m in unit.models} - set(engaged)), "locked": bool(contact)})
    return out


@rule("pile-in", cite("6e-assault", 119, 126), cite("6e-assault", 244), cite("6e-assault", 247, 249))
def pile_in_older(table: Table, unit_name: str, paths: Mapping[str, Path], inches_: Fraction = Fraction(3),
                  consolidating: bool = False) -> Verdict:
    """Piling in at an Initiative step (or at the end of a combat): models not in base contact move up to 3"
    towards the enemy. A consolidation moves up to the D6 rolled (``inches_``) in any direction and must stop
    1" away from every enemy model."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    for m in unit.models:
        path = paths.get(m.id)
        if path is None:
            continue
        out.check(pile_in_older, not any(base_contact(m, o) for o in enemies), f"{m.id} was not in base contact")
        used = path_length(path)
        out.check(pile_in_older, float(used) <= float(inches_) + 1e-9, f"{m.id} moves {float(used):g}\" of {inches_}\"")
        end = m.moved(path[-1][0], path[-1][1], path[-1][2])
        if consolidating:
            close = [o.id for o in enemies if horizontal_within(end, o, Fraction(1))]
            out.check(pile_in_older, not close, f"{end.id} stops 1\" away from every enemy model")
            continue
        start = min((m.x - o.x) ** 2 + (m.y - o.y) ** 2 for o in enemies)
        after = min((end.x - o.x) ** 2 + (end.y - o.y) ** 2 for o in enemies)
        out.check(pile_in_older, after < start, f"{m.id} moves towards the enemy")
    return out


@rule("fall-back", cite("7e-pp58-67", 5, 9), cite("7e-pp58-67", 131), cite("7e-pp58-67", 211),
      cite("7e-pp58-67", 263), cite("7e-pp58-67", 279))
def fall_back_older(table: Table, unit_name: str, unit_type: str, edge_distance: Fraction,
                    roll: int | None = None) -> Verdict:
    """Falling back (7th): 2D6", or 3D6" for bikes, jetbikes, jump units, beasts and cavalry, towards the own
    table edge, through engaged enemy models freely; a unit that cannot make its full move is trapped and
    destroyed; reaching the edge leaves the table."""
    out = Verdict()
    table.unit(unit_name)
    dist = SEVENTH.fall_back_distance(unit_type)
    out.values.update({"dice": "3D6" if dist.max() == 18 else "2D6", "mean": dist.mean(),
                       "p_reaches_edge": dist.p_at_least(int(-(-edge_distance // 1)))})
    if roll is not None:
        out.values["leaves_table"] = roll >= edge_distance
        out.note(fall_back_older, f"rolled {roll}\" with {edge_distance}\" to the edge")
    return out


@rule("kill-team", cite("kt", 3), cite("kt", 9), cite("kt", 15), cite("kt", 53))
def kill_team_within_three(table: Table, model_id: str, inches_: Fraction = Fraction(3)) -> Verdict:
    """Kill Team: the friendly models within 3" (overwatch with a model, counter-charge) or 6" (Inspiring Presence)
    of a model, and the supporting attackers — in base contact with a friend in base contact with an enemy."""
    unit = table.unit_of(model_id)
    model = table.model(model_id)
    out = Verdict()
    friends = [m for u in table.on_table() if u.player == unit.player for m in u.models if m.id != model_id]
    near = sorted(m.id for m in friends if within(m, model, Fraction(inches_)))
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    fighting = {m.id for m in [*friends, model] if any(base_contact(m, o) for o in enemies)}
    supporting = sorted(m.id for m in [*friends, model] if m.id not in fighting
                        and any(base_contact(m, f) for f in [*friends, model] if f.id in fighting))
    out.note(kill_team_within_three, f"{len(near)} friendly model(s) within {inches_}\" of {model_id}")
    out.values.update({"near": near, "supporting": supporting})
    return out




@rule("declare-charge", cite("6e-assault", 36, 45))
def may_declare_charge(table: Table, unit_name: str, target: str, ran: bool = False, gone_to_ground: bool = False,
                       fired: Sequence[str] = (), shot_at: str | None = None, falling_back: bool = False) -> Verdict:
    """Declaring a charge (6th): not a unit already locked in combat, that ran, went to ground, fired Rapid Fire,
    Salvo, Ordnance or Heavy weapons, or is falling back; a unit that shot may charge only the unit it shot at."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    locked = any(base_contact(m, o) for m in unit.models for o in enemies)
    out.check(may_declare_charge, not locked, "the unit is not already locked in combat")
    out.check(may_declare_charge, not ran, "the unit did not run")
    out.check(may_declare_charge, not gone_to_ground, "the unit has not gone to ground")
    heavy = sorted({f for f in fired if f.lower() in {"rapid fire", "salvo", "ordnance", "heavy"}})
    out.check(may_declare_charge, not heavy, "it fired no Rapid Fire, Salvo, Ordnance or Heavy weapon"
              + (f" (fired {', '.join(heavy)})" if heavy else ""))
    out.check(may_declare_charge, not falling_back, "the unit is not falling back")
    if shot_at is not None:
        out.check(may_declare_charge, shot_at == target, f"it shot at {shot_at}, so it may charge only that unit")
    return out


@rule("wound-allocation", cite("6e-assault", 186, 192))
def wound_allocation_order(table: Table, attackers: str, target: str) -> Verdict:
    """Wounds in close combat go first to the models in base contact with the attacking models, then to the next
    closest; once a wound is on a model, wounds stay on it until it dies."""
    att, tgt = table.unit(attackers), table.unit(target)
    out = Verdict()

    def key(o: Model) -> tuple[int, Fraction, str]:
        touching = any(base_contact(m, o) for m in att.models)
        closest = min((m.x - o.x) ** 2 + (m.y - o.y) ** 2 for m in att.models)
        return (0 if touching else 1, closest, o.id)

    order = [o.id for o in sorted(tgt.models, key=key)]
    out.note(wound_allocation_order, f"wounds go to {', '.join(order)} in turn")
    out.values["order"] = order
    return out


@rule("squad", cite("kt", 71, 75))
def kill_team_squad(table: Table, unit_name: str) -> Verdict:
    """A Kill Team Squad: its models may shoot different targets; when one model is left it loses the Squad rule."""
    unit = table.unit(unit_name)
    out = Verdict()
    out.note(kill_team_squad, f"{len(unit.models)} model(s) left")
    out.values.update({"squad": len(unit.models) > 1, "separate_targets": len(unit.models) > 1})
    return out


@rule("line-of-sight", cite("6e-rules", 349, 361))
def line_of_sight_older(table: Table, observer: str, target: str) -> Verdict:
    """Line of sight (6th/7th): an unobstructed straight line from the observer to the target; models of other
    units and buildings block it; the observer's own unit never does."""
    o, t = table.model(observer), table.model(target)
    own = table.unit_of(observer)
    target_unit = table.unit_of(target)
    out = Verdict()
    blockers = [m for u in table.on_table() if u.name not in (own.name, target_unit.name) for m in u.models]
    walls = [f.polygon for f in table.terrain if f.kind in ("building", "ruins")]
    clear = [
        (p, q) for p in rim_points(o) for q in rim_points(t)
        if not any(segment_hits_base(p, q, Fraction(0), b) for b in blockers)
        and not any(segment_crosses_polygon(p, q, w) for w in walls)
    ]
    out.check(line_of_sight_older, bool(clear), f"{len(clear)} clear line(s) from {observer} to {target}")
    out.values["visible"] = bool(clear)
    return out


@rule("initiative-step", cite("6e-assault", 116), cite("6e-assault", 135), cite("6e-assault", 204, 207))
def initiative_resolution(models: Sequence[tuple[str, int]], killed: Mapping[str, int]) -> Verdict:
    """Striking in Initiative steps (6th): from the highest Initiative down, models of equal Initiative at once;
    a model removed as a casualty before its step does not strike back; steps with no model are skipped.
    ``killed`` maps a model to the Initiative step in which it was removed."""
    out = Verdict()
    steps: list[list[object]] = []
    for step in sorted({i for _n, i in models}, reverse=True):
        strikers = [n for n, i in models if i == step and not (n in killed and killed[n] > step)]
        dead = [n for n, i in models if i == step and n in killed and killed[n] > step]
        if dead:
            out.note(initiative_resolution, f"step {step}: {', '.join(dead)} removed before striking")
        if strikers:
            steps.append([step, strikers])
    out.values["steps"] = steps
    return out


@rule("our-weapons-are-useless", cite("6e-assault", 224, 229))
def our_weapons_are_useless(strength: int, enemy_toughness: int) -> Verdict:
    """A unit locked with an enemy it cannot hurt (its Strength cannot wound that Toughness) may choose to fail its
    Morale test automatically and fall back."""
    out = Verdict()
    target = SIXTH.wound_target(strength, enemy_toughness)
    out.note(our_weapons_are_useless, f"S{strength} against T{enemy_toughness}: "
             + ("cannot wound" if target is None else f"wounds on {target}+"))
    out.values.update({"can_wound": target is not None, "may_fail_morale": target is None})
    return out
