"""The fight phase: eligibility, the order of fights, the models that fight, piling in, consolidating and
attacks on an Attached unit (10e-core 1027–1151, 1268–1292, 1888–1912).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulekb.engine.concepts import cite, rule
from rulekb.engine.table.geometry import (
    Model,
    path_length,
)
from rulekb.engine.table.measure import base_contact, coherency, in_engagement_range
from rulekb.engine.table.state import Path, Table, Unit
from rulekb.engine.table.tenth.common import engaged_with, figure, gap2, reaches_contact
from rulekb.engine.table.tenth.objectives import objective_range
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "attached_unit",
    "consolidate",
    "fight_eligible",
    "fight_order",
    "fighting_models",
    "pile_in",
]


@rule("fight-phase", cite("10e-core", 1031, 1036), cite("10e-core", 1888, 1911))
def fight_eligible(table: Table, unit_name: str) -> Verdict:
    """Eligible to fight: within Engagement Range of an enemy unit, or it made a charge move this turn. An
    AIRCRAFT can be fought only by units that can FLY."""
    unit = table.unit(unit_name)
    out = Verdict()
    engaged = [e.name for e in engaged_with(table, unit) if not e.has("AIRCRAFT") or unit.has("FLY")]
    ok = bool(engaged) or unit.charged
    out.check(fight_eligible, ok, f"within Engagement Range of {', '.join(engaged) or 'no enemy unit'}"
              + ("; it charged this turn" if unit.charged else ""))
    out.values["engaged_with"] = engaged
    return out


@rule("fights-first", cite("10e-core", 1027, 1060), cite("10e-core", 977, 981))
def fight_order(table: Table, active: str) -> Verdict:
    """The fight phase's order: first the eligible units with Fights First (every model has it, or it charged
    this turn), then the rest; in each step the players alternate, starting with the player whose turn it is
    not; when one player has no eligible unit left the other fights with all his remaining ones."""
    out = Verdict()
    eligible = [u for u in table.on_table() if fight_eligible(table, u.name).ok]
    first = [u for u in eligible if u.charged or u.fights_first]
    rest = [u for u in eligible if u not in first]
    order: list[list[str]] = []
    for step, units in (("fights-first", first), ("remaining", rest)):
        players = sorted({u.player for u in table.units})
        start = [p for p in players if p != active] + [active]
        queues = {p: [u.name for u in units if u.player == p] for p in players}
        turn = 0
        while any(queues.values()):
            p = start[turn % len(start)]
            if queues[p]:
                name = queues[p].pop(0)
                order.append([step, p, name])
            turn += 1
        out.note(fight_order, f"{step}: {', '.join(u.name for u in units) or 'none'}")
    out.values["order"] = order
    out.values["sequence"] = [name for _step, _p, name in order]
    return out


@rule("which-models-fight", cite("10e-core", 1095, 1100), cite("10e-core", 1113, 1120))
def fighting_models(table: Table, unit_name: str) -> Verdict:
    """The models that fight: within Engagement Range of an enemy unit, or in base contact with a model of
    their unit that is in base contact with an enemy unit."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    direct = {m.id for m in unit.models if any(in_engagement_range(m, o) for o in enemies)}
    touching = {m.id for m in unit.models if any(base_contact(m, o) for o in enemies)}
    second = {m.id for m in unit.models if m.id not in direct
              and any(base_contact(m, f) for f in unit.models if f.id in touching and f.id != m.id)}
    fight = sorted(direct | second)
    out.note(fighting_models, f"{len(direct)} within Engagement Range, {len(second)} through a friend in base contact")
    out.values.update({"fight": fight, "do_not_fight": sorted({m.id for m in unit.models} - set(fight))})
    return out


def _closest_enemy(table: Table, unit: Unit, m: Model) -> Model:
    enemies = [o for e in table.enemies_of(unit) if unit.has("FLY") or not e.has("AIRCRAFT") for o in e.models]
    return min(enemies, key=lambda o: (float(gap2(m, o)) ** 0.5 - float(o.base.rx), o.id))


def _three_inch_move(table: Table, unit: Unit, paths: Mapping[str, Path], fn: object, what: str,
                     out: Verdict) -> list[Model]:
    moved = {m.id: m for m in unit.models}
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    for mid, path in paths.items():
        model = moved[mid]
        if any(base_contact(model, o) for o in enemies):
            out.check(fn, False, f"{mid} is already in base contact and does not {what}")  # type: ignore[arg-type]
            continue
        used = path_length(path)
        out.check(fn, float(used) <= 3 + 1e-9, f"{mid} moves {figure(used)}\" of 3\"")  # type: ignore[arg-type]
        moved[mid] = model.moved(path[-1][0], path[-1][1], path[-1][2])
    return list(moved.values())


@rule("pile-in", cite("10e-core", 1080, 1087), cite("10e-core", 1900, 1912))
def pile_in(table: Table, unit_name: str, paths: Mapping[str, Path]) -> Verdict:
    """Pile in: each model not in base contact may move up to 3" and must end closer to the closest enemy model
    (in base contact if it can); the unit must end within Engagement Range of an enemy unit and in coherency.
    AIRCRAFT are ignored when finding the closest enemy, unless the model can FLY."""
    unit = table.unit(unit_name)
    out = Verdict()
    out.check(pile_in, not unit.has("AIRCRAFT"), "AIRCRAFT never pile in")
    final = _three_inch_move(table, unit, paths, pile_in, "pile in", out)
    _closer(table, unit, final, out, pile_in)
    engaged = [e.name for e in table.enemies_of(unit) if any(in_engagement_range(m, o) for m in final for o in e.models)]
    out.check(pile_in, bool(engaged), f"the unit ends within Engagement Range of {', '.join(engaged) or 'no enemy'}")
    out.check(coherency, coherency(final).ok, "the unit ends in coherency")
    out.values["ends"] = {m.id: (m.x, m.y, m.z) for m in final}
    return out


def _closer(table: Table, unit: Unit, final: Sequence[Model], out: Verdict, fn: object) -> None:
    start = {m.id: m for m in unit.models}
    for m in final:
        s = start[m.id]
        if (m.x, m.y, m.z) == (s.x, s.y, s.z):
            continue
        target = _closest_enemy(table, unit, s)
        out.check(fn, gap2(m, target) < gap2(s, target),  # type: ignore[arg-type]
                  f"{m.id} ends closer to the closest enemy model {target.id}")
        if reaches_contact(s, target, 3):
            out.check(fn, base_contact(m, target), f"{m.id} can reach base contact with {target.id} and does")  # type: ignore[arg-type]


@rule("consolidate", cite("10e-core", 1140, 1151))
def consolidate(table: Table, unit_name: str, paths: Mapping[str, Path]) -> Verdict:
    """Consolidation: up to 3" each, closer to the closest enemy model and ending within Engagement Range of an
    enemy unit in coherency; if that cannot be done, towards the closest objective marker, ending within its
    range in coherency; else no model consolidates."""
    unit = table.unit(unit_name)
    out = Verdict()
    final = _three_inch_move(table, unit, paths, consolidate, "consolidate", out)
    engaged = [e.name for e in table.enemies_of(unit) if any(in_engagement_range(m, o) for m in final for o in e.models)]
    if engaged:
        _closer(table, unit, final, out, consolidate)
        out.values["towards"] = "enemy"
    else:
        objective = min(table.objectives, key=lambda o: min(gap2(m, o.marker) for m in unit.models), default=None)
        out.check(consolidate, objective is not None, "no enemy in reach: towards the closest objective marker")
        if objective is not None:
            for m, s in zip(final, unit.models, strict=True):
                if (m.x, m.y) != (s.x, s.y):
                    out.check(consolidate, gap2(m, objective.marker) < gap2(s, objective.marker),
                              f"{m.id} ends closer to {objective.name}")
            inside = any(objective_range(m, objective.marker) for m in final)
            out.check(consolidate, inside, f"the unit ends within range of {objective.name}")
            out.values["towards"] = objective.name
    out.check(coherency, coherency(final).ok, "the unit ends in coherency")
    out.values["ends"] = {m.id: (m.x, m.y, m.z) for m in final}
    return out


@rule("attached-unit", cite("10e-core", 1268, 1292), cite("10e-core", 822, 834))
def attached_unit(leaders: int, bodyguard_left: int, bodyguard_toughness: int, leader_toughness: int,
                  precision: bool = False) -> Verdict:
    """An Attached unit: one Leader per Bodyguard unit; attacks use the Bodyguard's Toughness while any of it
    remains; attacks cannot be allocated to its CHARACTER models while Bodyguard models remain, unless they have
    [PRECISION]; once the Bodyguard is destroyed, attacks go to the Leader."""
    out = Verdict()
    out.check(attached_unit, leaders == 1, f"{leaders} Leader(s): only one per Attached unit")
    toughness = bodyguard_toughness if bodyguard_left else leader_toughness
    target = "character" if precision or not bodyguard_left else "bodyguard"
    out.note(attached_unit, f"attacks use Toughness {toughness}; allocated to the {target}")
    out.values.update({"toughness": toughness, "allocated_to": target})
    return out
