"""Arriving on the battlefield: Reserves, Strategic Reserves, Scouts and Infiltrators
(10e-core 456–465, 1239–1266, 1571–1621).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import (
    Model,
    horizontal_within,
    path_length,
    point_in_polygon,
    segment_point_d2,
)
from rulekb.engine.table.state import Path, Table
from rulekb.engine.table.tenth.common import figure
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "infiltrators_set_up",
    "reserves_set_up",
    "scouts_move",
    "strategic_reserves_allowed",
    "strategic_reserves_arrive",
]


def _wholly_near_edge(table: Table, m: Model, d: Fraction) -> bool:
    r = m.base.rx
    return m.x + r <= d or m.y + r <= d or table.width - m.x + r <= d or table.depth - m.y + r <= d


@rule("reserves", cite("10e-core", 458, 465), cite("10e-core", 1239, 1244))
def reserves_set_up(table: Table, unit_name: str, battle_round: int, kind: str = "deep-strike",
                    distance: Fraction = Fraction(9)) -> Verdict:
    """Setting up a Reserves unit: more than ``distance`` (9") horizontally from every enemy model; Strategic
    Reserves from the second round, wholly within 6" of a battlefield edge (in round 2 not in the enemy's
    deployment zone). Setting up counts as a normal move."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    for m in unit.models:
        close = [o.id for o in enemies if horizontal_within(m, o, distance)]
        out.check(reserves_set_up, not close, f"{m.id} is more than {distance}\" horizontally from every enemy model"
                  + (f" (not from {close})" if close else ""))
    if kind == "strategic":
        out.check(strategic_reserves_arrive, battle_round >= 2, f"battle round {battle_round}: Strategic Reserves "
                                                                "arrive from the second round")
        for m in unit.models:
            out.check(strategic_reserves_arrive, _wholly_near_edge(table, m, Fraction(6)),
                      f"{m.id} is wholly within 6\" of a battlefield edge")
        if battle_round == 2:
            zones = [z for p, z in table.zones.items() if p != unit.player]
            inside = [m.id for m in unit.models for z in zones if point_in_polygon(m.centre, z)
                      or any(point_in_polygon(q, z) for q in _corners(m))]
            out.check(strategic_reserves_arrive, not inside, "no model is in the enemy's deployment zone in round 2"
                      + (f" ({inside})" if inside else ""))
    elif kind != "deep-strike":
        raise ProfileError("inputs.kind", f"'deep-strike' or 'strategic', got {kind!r}.")
    out.values["counts_as_normal_move"] = True
    return out


def _corners(m: Model) -> list[tuple[Fraction, Fraction]]:
    r = m.base.rx
    return [(m.x + r, m.y), (m.x - r, m.y), (m.x, m.y + r), (m.x, m.y - r)]


@rule("strategic-reserves", cite("10e-core", 1595, 1621))
def strategic_reserves_arrive() -> None:
    """From the second round, wholly within 6" of an edge, more than 9" from enemy models."""


@rule("strategic-reserves", cite("10e-core", 1579, 1591))
def strategic_reserves_allowed(points: Sequence[int], points_limit: int, fortifications: int = 0) -> Verdict:
    """The units placed in Strategic Reserves may cost at most 25% of the battle size's points limit, and
    no Fortification may be placed there."""
    out = Verdict()
    total = sum(points)
    out.check(strategic_reserves_allowed, 4 * total <= points_limit,
              f"{total} points in reserve of at most {Fraction(points_limit, 4)} (25% of {points_limit})")
    out.check(strategic_reserves_allowed, fortifications == 0, "no FORTIFICATIONS in Strategic Reserves")
    out.values.update({"points": total, "limit": Fraction(points_limit, 4)})
    return out


@rule("scouts", cite("10e-core", 1248, 1262))
def scouts_move(table: Table, unit_name: str, x: Fraction, paths: Mapping[str, Path]) -> Verdict:
    """Scouts x": before the first turn a normal move of up to x", ending more than 9" horizontally from every
    enemy model."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    for m in unit.models:
        path = paths.get(m.id)
        end = m
        if path is not None:
            used = path_length(path)
            out.check(scouts_move, float(used) <= float(x) + 1e-9, f"{m.id} moves {figure(used)}\" of Scouts {x}\"")
            end = m.moved(path[-1][0], path[-1][1], path[-1][2])
        close = [o.id for o in enemies if horizontal_within(end, o, Fraction(9))]
        out.check(scouts_move, not close, f"{m.id} ends more than 9\" horizontally from every enemy model")
    return out


@rule("infiltrators", cite("10e-core", 1266))
def infiltrators_set_up(table: Table, unit_name: str) -> Verdict:
    """Infiltrators: set up anywhere more than 9" horizontally from the enemy's deployment zone and every enemy model."""
    unit = table.unit(unit_name)
    out = Verdict()
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    zones = [z for p, z in table.zones.items() if p != unit.player]
    for m in unit.models:
        close = [o.id for o in enemies if horizontal_within(m, o, Fraction(9))]
        out.check(infiltrators_set_up, not close, f"{m.id} is more than 9\" from every enemy model")
        near_zone = any(_base_near_polygon(m, z, Fraction(9)) for z in zones)
        out.check(infiltrators_set_up, not near_zone, f"{m.id} is more than 9\" from the enemy deployment zone")
    return out


def _base_near_polygon(m: Model, polygon: Sequence[tuple[Fraction, Fraction]], d: Fraction) -> bool:
    if point_in_polygon(m.centre, tuple(polygon)):
        return True
    n = len(polygon)
    reach = (d + m.base.rx) ** 2
    return any(segment_point_d2(polygon[i], polygon[(i + 1) % n], m.centre) <= reach for i in range(n))
