"""Seeing and shooting: visibility through ruins and woods, the Benefit of Cover, choosing a target and
auras (10e-core 197–220, 539–600, 1229, 1631–1752).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.table.geometry import (
    Model,
    distance_within,
    point_in_polygon,
    rim_points,
    segment_crosses_polygon,
    wholly_inside,
    within,
)
from rulekb.engine.table.measure import in_engagement_range
from rulekb.engine.table.state import Table, Terrain, Unit
from rulekb.engine.table.tenth.common import engaged_with
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "aura",
    "benefit_of_cover",
    "select_target",
    "visible",
]


def _blocking(table: Table, observer: Unit, o: Model, target: Unit, t: Model) -> list[Terrain]:
    found = []
    for terrain in table.terrain:
        if terrain.kind != "ruins":
            continue
        if observer.has("AIRCRAFT") or target.has("AIRCRAFT"):
            continue
        if wholly_inside(o, terrain.polygon) or (observer.has("TOWERING") and point_in_polygon(o.centre, terrain.polygon)):
            continue
        if point_in_polygon(t.centre, terrain.polygon) or wholly_inside(t, terrain.polygon):
            continue  # models see into ruins normally
        found.append(terrain)
    return found


@rule("determining-visibility", cite("10e-core", 197, 220), cite("10e-core", 1738, 1744), cite("10e-core", 1712, 1718))
def visible(table: Table, observer_model: str, target_model: str) -> Verdict:
    """Whether a model sees another (any part of it from any part of the observer) and sees it fully, with the
    ruins rule (no sight over or through a ruin, except into it, out of it when wholly within, and for AIRCRAFT
    or TOWERING) and the woods rule (wholly within or seen through woods: never fully visible). Sight lines run
    between exact points of the bases' rims and centres."""
    o, t = table.model(observer_model), table.model(target_model)
    ou, tu = table.unit_of(observer_model), table.unit_of(target_model)
    out = Verdict()
    ruins = _blocking(table, ou, o, tu, t)
    t_points = rim_points(t)
    seen = [q for q in t_points if any(not any(segment_crosses_polygon(p, q, r.polygon) for r in ruins)
                                       for p in rim_points(o))]
    any_seen = bool(seen)
    woods = [w for w in table.terrain if w.kind == "woods"]
    wholly_in_woods = any(wholly_inside(t, w.polygon) for w in woods)
    through_woods = any(not wholly_inside(o, w.polygon) and all(
        segment_crosses_polygon(p, q, w.polygon) for p in rim_points(o) for q in t_points) for w in woods
        if not wholly_inside(t, w.polygon))
    fully = len(seen) == len(t_points) and not wholly_in_woods and not through_woods
    out.check(visible, any_seen, f"{target_model} is {'visible' if any_seen else 'not visible'} to {observer_model}"
              + (f" ({len(seen)} of {len(t_points)} sight points clear)" if ruins else ""))
    out.values.update({"visible": any_seen, "fully_visible": fully and any_seen,
                       "through_woods": through_woods, "wholly_in_woods": wholly_in_woods})
    return out


@rule("benefit-of-cover", cite("10e-core", 1631, 1645), cite("10e-core", 1653, 1655), cite("10e-core", 1674),
      cite("10e-core", 1718), cite("10e-core", 1744, 1748))
def benefit_of_cover(table: Table, target_model: str, attackers: str) -> Verdict:
    """The Benefit of Cover against a ranged attack: wholly within a ruin, woods or (INFANTRY) a crater; or not
    fully visible to every model of the attacking unit because of a ruin, woods, barricade (INFANTRY wholly within
    3") or other obstacle."""
    t = table.model(target_model)
    tu = table.unit_of(target_model)
    out = Verdict()
    reasons = []
    for terrain in table.terrain:
        inside = wholly_inside(t, terrain.polygon)
        if inside and terrain.kind in ("ruins", "woods"):
            reasons.append(f"wholly within {terrain.name} ({terrain.kind})")
        if inside and terrain.kind == "crater" and tu.has("INFANTRY"):
            reasons.append(f"INFANTRY wholly within {terrain.name} (crater)")
    not_fully = [m.id for m in table.unit(attackers).models if not visible(table, m.id, target_model).values["fully_visible"]]
    if not_fully:
        reasons.append(f"not fully visible to {', '.join(not_fully)}")
    cover = bool(reasons)
    out.note(benefit_of_cover, "; ".join(reasons) if reasons else "in the open and fully visible: no cover")
    out.values["cover"] = cover
    return out


@rule("select-targets", cite("10e-core", 539, 544), cite("10e-core", 552, 564), cite("10e-core", 548),
      cite("10e-core", 574, 600), cite("10e-core", 718, 726), cite("10e-core", 760, 773))
def select_target(table: Table, unit_name: str, target_name: str, weapon_range: Fraction,
                  abilities: Sequence[str] = ()) -> Verdict:
    """Whether a unit may shoot a weapon at a target: at least one target model visible to and within range of an
    attacking model; the unit did not advance (unless Assault) or fall back; a unit within Engagement Range shoots
    only Pistols or if it is a MONSTER or VEHICLE (Big Guns Never Tire, -1 to hit), and only at units it is
    engaged with when using Pistols; a target within Engagement Range of friendly units cannot be chosen unless
    the attacker is a MONSTER/VEHICLE (-1 to hit); a Lone Operative only from within 12"."""
    unit, target = table.unit(unit_name), table.unit(target_name)
    out = Verdict()
    abil = {a.lower() for a in abilities}
    big = unit.has("MONSTER") or unit.has("VEHICLE")
    pistol = "pistol" in abil
    if unit.advanced:
        out.check(select_target, "assault" in abil, "the unit advanced: only Assault weapons may shoot")
    out.check(select_target, not unit.fell_back, "the unit did not fall back this turn")
    engaged = [e.name for e in engaged_with(table, unit)]
    if engaged:
        out.check(select_target, big or pistol, f"the unit is within Engagement Range of {', '.join(engaged)}: "
                                                "only a MONSTER, VEHICLE or a Pistol may shoot")
        if pistol and not big:
            out.check(select_target, target.name in engaged, "a Pistol in Engagement Range targets an engaged unit")
    friends_engaged = [f.name for f in table.friends_of(unit)
                       if any(in_engagement_range(m, o) for m in f.models for o in target.models)]
    if friends_engaged and not big:
        out.check(select_target, False, f"{target.name} is within Engagement Range of {', '.join(friends_engaged)}")
    shooters = []
    for m in unit.models:
        for o in target.models:
            if distance_within(m, o, weapon_range) and visible(table, m.id, o.id).values["visible"]:
                shooters.append(m.id)
                break
    out.check(select_target, bool(shooters), f"{len(shooters)} model(s) see a target model within {weapon_range}\"")
    if target.has("LONE OPERATIVE"):
        near = [m.id for m in unit.models if any(distance_within(m, o, Fraction(12)) for o in target.models)]
        out.check(select_target, bool(near), "a Lone Operative is targeted only from within 12\"")
    hit_modifier = -1 if big and (engaged or friends_engaged) and not pistol else 0
    out.values.update({"shooters": shooters, "hit_modifier": hit_modifier, "engaged": engaged})
    return out


@rule("aura", cite("10e-core", 1229))
def aura(table: Table, model_id: str, radius: Fraction) -> Verdict:
    """An Aura affects the units within its range; the model with it is always within range of its own aura."""
    source = table.model(model_id)
    owner = table.unit_of(model_id)
    out = Verdict()
    friends = sorted(u.name for u in table.on_table() if u.player == owner.player
                     and (u.name == owner.name or any(within(m, source, radius) for m in u.models)))
    enemies = sorted(u.name for u in table.enemies_of(owner) if any(within(m, source, radius) for m in u.models))
    out.note(aura, f"{len(friends)} friendly and {len(enemies)} enemy unit(s) within {radius}\" of {model_id}")
    out.values.update({"friendly": friends, "enemy": enemies})
    return out
