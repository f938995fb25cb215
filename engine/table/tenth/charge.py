"""The charge phase: eligibility, the roll needed from the positions, its probability, the charge move, and
charging across a barricade (10e-core 967–1023, 1665–1670, 1874–1886).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.rolls import Reroll
from rulekb.engine.table.geometry import (
    Model,
    ceil_sqrt,
    distance_within,
    horizontal_within,
    path_length,
    point_in_polygon,
    segment_crosses_polygon,
    sqrt_at_most,
    vertical_gap,
)
from rulekb.engine.table.measure import base_contact, coherency, in_engagement_range
from rulekb.engine.table.state import Path, Table, Terrain
from rulekb.engine.table.tenth.common import (
    ENGAGEMENT,
    ENGAGEMENT_UP,
    FREE_CLIMB,
    TENTH,
    engaged_with,
    figure,
    gap2,
    reaches_contact,
)
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "across_barricade",
    "charge_eligible",
    "charge_move",
    "charge_needed",
    "charge_success",
]


@rule("charge", cite("10e-core", 967, 973), cite("10e-core", 1874))
def charge_eligible(table: Table, unit_name: str) -> Verdict:
    """Eligible to charge: within 12" of an enemy unit, and it did not advance or fall back this turn, is not
    within Engagement Range of an enemy and is not an AIRCRAFT."""
    unit = table.unit(unit_name)
    out = Verdict()
    near = [e.name for e in table.enemies_of(unit)
            if any(distance_within(m, o, Fraction(12)) for m in unit.models for o in e.models)]
    out.check(charge_eligible, bool(near), f"enemy units within 12\": {', '.join(near) or 'none'}")
    out.check(charge_eligible, not unit.advanced, "the unit did not advance this turn")
    out.check(charge_eligible, not unit.fell_back, "the unit did not fall back this turn")
    engaged = engaged_with(table, unit)
    out.check(charge_eligible, not engaged, "the unit is not within Engagement Range of an enemy unit")
    out.check(charge_eligible, not unit.has("AIRCRAFT"), "the unit is not an AIRCRAFT")
    out.values["targets_in_reach"] = near
    return out


def _on_terrain(table: Table, m: Model) -> Terrain | None:
    """The feature taller than 2" a model stands on top of (its base inside the footprint, raised)."""
    for t in table.terrain:
        if t.height > FREE_CLIMB and m.z >= t.height and point_in_polygon(m.centre, t.polygon):
            return t
    return None


def _pair_needed(table: Table, charger: Model, target: Model, flying: bool) -> int:
    """The least whole number of inches a charging model needs to end within Engagement Range of a target."""
    d2 = (charger.x - target.x) ** 2 + (charger.y - target.y) ** 2
    reach = charger.base.rx + target.base.rx + ENGAGEMENT
    v = vertical_gap(charger, target)
    terrain = _on_terrain(table, target) or _on_terrain(table, charger)
    climb = Fraction(0)
    if terrain is not None and v > 0:
        # a model at the foot of the feature is within 1" only if the target stands within 1" of the edge
        ground = charger.moved(charger.x, charger.y, Fraction(0))
        foot_ok = v <= ENGAGEMENT_UP and any(
            horizontal_within(ground.moved(x, y), target, ENGAGEMENT) and not point_in_polygon((x, y), terrain.polygon)
            for x, y in _foot_points(terrain, target, charger.base.rx))
        climb = Fraction(0) if foot_ok else v
    elif v > ENGAGEMENT_UP:
        climb = v - ENGAGEMENT_UP
    if flying and climb:
        n = ceil_sqrt(climb * climb)
        while not sqrt_at_most(d2, reach, Fraction(n * n) - climb * climb):
            n += 1
        return n
    n = 0
    while not sqrt_at_most(d2, n + reach - climb):
        n += 1
    return max(n, ceil_sqrt(climb * climb))


def _foot_points(terrain: Terrain, target: Model, radius: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Where a base of ``radius`` could stand against the footprint's edges nearest the target."""
    pts = []
    n = len(terrain.polygon)
    for i in range(n):
        a, b = terrain.polygon[i], terrain.polygon[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = ((target.x - a[0]) * dx + (target.y - a[1]) * dy) / length2
        t = min(Fraction(1), max(Fraction(0), t))
        foot = (a[0] + t * dx, a[1] + t * dy)
        # step outward by the radius along the axis the edge is aligned with (footprints are rectangles here)
        if dy == 0:
            side = 1 if target.y < foot[1] else -1
            pts.append((foot[0], foot[1] + side * radius))
        elif dx == 0:
            side = 1 if target.x < foot[0] else -1
            pts.append((foot[0] + side * radius, foot[1]))
    return pts


@rule("charge", cite("10e-core", 985, 997), cite("10e-core", 1001, 1010), cite("10e-core", 1014, 1023))
def charge_needed(table: Table, unit_name: str, targets: Sequence[str]) -> Verdict:
    """The charge roll needed: for each target, the shortest distance a model of the unit needs to end within
    Engagement Range of it — climbing a feature taller than 2" counts its height, FLY models measure through
    the air (the diagonal) — and the largest of those over the targets (all must be reached). Targets must be
    within 12"; they need not be visible."""
    unit = table.unit(unit_name)
    out = Verdict()
    flying = unit.has("FLY")
    per_target: dict[str, int] = {}
    for name in targets:
        target = table.unit(name)
        out.check(charge_needed, target.player != unit.player, f"{name} is an enemy unit")
        reach = any(distance_within(m, o, Fraction(12)) for m in unit.models for o in target.models)
        out.check(charge_needed, reach, f"{name} is within 12\" of {unit.name}")
        if target.has("AIRCRAFT"):
            out.check(charge_needed, flying, f"{name} is an AIRCRAFT: only units that can FLY may charge it")
        per_target[name] = min(_pair_needed(table, m, o, flying) for m in unit.models for o in target.models)
        out.note(charge_needed, f"to reach Engagement Range of {name}: {per_target[name]}\""
                 + (" measured through the air" if flying and any(_on_terrain(table, o) for o in target.models) else ""))
    needed = max(per_target.values()) if per_target else 0
    out.values.update({"per_target": per_target, "needed": needed})
    return out


@rule("charge", cite("10e-core", 985, 997))
def charge_success(needed: int, reroll: Reroll = Reroll.NONE) -> Fraction:
    """P(2D6 >= needed), with the re-roll policy (a re-roll re-rolls both dice)."""
    if needed <= 2:
        return Fraction(1)
    return TENTH.charge(needed, reroll)


@rule("charge-move", cite("10e-core", 985, 997), cite("10e-core", 977, 981))
def charge_move(table: Table, unit_name: str, targets: Sequence[str], roll: int, paths: Mapping[str, Path],
                pivot_value: Fraction = Fraction(0), pivots: Mapping[str, int] | None = None) -> Verdict:
    """A charge move: each model moves up to the charge roll and ends closer to a target; the unit ends within
    Engagement Range of every target, of no other enemy unit, and in coherency; a model that can reach base
    contact with a target must. A successful charge gives the unit Fights First until the end of the turn."""
    unit = table.unit(unit_name)
    out = Verdict()
    target_models = [o for t in targets for o in table.unit(t).models]
    moved = {m.id: m for m in unit.models}
    for mid, path in paths.items():
        model = moved[mid]
        used = path_length(path) + (pivot_value if (pivots or {}).get(mid, 0) else 0)
        out.check(charge_move, float(used) <= roll + 1e-9, f"{mid} moves {figure(used)}\" of the {roll}\" rolled")
        end = model.moved(path[-1][0], path[-1][1], path[-1][2])
        start_d = min(gap2(model, o) for o in target_models)
        end_d = min(gap2(end, o) for o in target_models)
        out.check(charge_move, end_d < start_d, f"{mid} ends closer to a target model")
        could = any(reaches_contact(model, o, roll) for o in target_models)
        touching = any(base_contact(end, o) for o in target_models)
        if could:
            out.check(charge_move, touching, f"{mid} can reach base contact and ends in base contact")
        moved[mid] = end
    final = list(moved.values())
    for t in targets:
        tu = table.unit(t)
        out.check(charge_move, any(in_engagement_range(m, o) for m in final for o in tu.models),
                  f"the unit ends within Engagement Range of {t}")
    others = [e.name for e in table.enemies_of(unit) if e.name not in targets
              and any(in_engagement_range(m, o) for m in final for o in e.models)]
    out.check(charge_move, not others, "no model ends within Engagement Range of a unit it did not charge"
              + (f" ({others})" if others else ""))
    report = coherency(final)
    out.check(coherency, report.ok, "the unit ends in coherency")
    out.values.update({"fights_first": out.ok, "ends": {m.id: (m.x, m.y, m.z) for m in final},
                       "base_contact": sorted(m.id for m in final if any(base_contact(m, o) for o in target_models))})
    return out


@rule("barricades-and-fuel-pipes", cite("10e-core", 1665, 1670))
def across_barricade(table: Table, unit_name: str, enemy_name: str) -> Verdict:
    """Across a barricade or fuel pipe: models on opposite sides within 2" of each other may charge (ending as
    close to it as possible) and fight as if in Engagement Range; no model may end a move on the feature."""
    unit, enemy = table.unit(unit_name), table.unit(enemy_name)
    out = Verdict()
    barricades = [t for t in table.terrain if t.kind == "barricade"]
    pairs = []
    for m in unit.models:
        for o in enemy.models:
            for b in barricades:
                if segment_crosses_polygon(m.centre, o.centre, b.polygon) and horizontal_within(m, o, Fraction(2)):
                    pairs.append(f"{m.id}~{o.id}")
    on_top = [m.id for u in (unit, enemy) for m in u.models for b in barricades if point_in_polygon(m.centre, b.polygon)]
    out.check(across_barricade, not on_top, "no model stands on the barricade")
    out.check(across_barricade, bool(pairs), f"{len(pairs)} pair(s) within 2\" across a barricade")
    out.values.update({"pairs": pairs, "engaged_normally": bool(engaged_with(table, unit))})
    return out
