"""The movement phase: normal moves, advances, falling back and remaining stationary, surge moves and the
pivot axis of a model without a base (10e-core 354–452, 373–377, 396, 411).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import (
    Model,
    horizontal_within,
    path_length,
    point_in_polygon,
    segment_hits_base,
    segment_near_polygon,
)
from rulekb.engine.table.measure import coherency, in_engagement_range
from rulekb.engine.table.state import Path, Table, Terrain, Unit
from rulekb.engine.table.tenth.aircraft import aircraft_move
from rulekb.engine.table.tenth.common import ENGAGEMENT, ENGAGEMENT_UP, FREE_CLIMB, engaged_with, figure
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "advance",
    "base_contact_ok",
    "centre_without_base",
    "desperate_escape",
    "fall_back",
    "fly",
    "move",
    "normal_move",
    "remain_stationary",
    "surge_move",
    "terrain_movement",
]


def _terrain_blocks(unit: Unit, terrain: Terrain, path: Path, radius: Fraction) -> bool:
    """A segment at ground level across a feature taller than 2" that the unit cannot move through."""
    if terrain.height <= FREE_CLIMB:
        return False
    if terrain.kind == "ruins" and unit.keywords & {"INFANTRY", "BEAST"}:
        return False
    for p, q in itertools.pairwise(path):
        if p[2] == q[2] and p[2] < terrain.height and segment_near_polygon(p[:2], q[:2], terrain.polygon, radius):
            inside_start = point_in_polygon(p[:2], terrain.polygon) and p[2] >= terrain.height
            if not inside_start:
                return True
    return False


_KINDS = ("normal", "advance", "fall-back", "stationary")


@rule("move", cite("10e-core", 354, 367), cite("10e-core", 385, 401))
def move(table: Table, unit_name: str, paths: Mapping[str, Path], kind: str = "normal",
         advance_roll: int | None = None, pivot_value: Fraction = Fraction(0),
         pivots: Mapping[str, int] | None = None) -> Verdict:
    """A normal move, an advance or a fall back (or remaining stationary) of one unit.

    Each model may move up to M (M + the advance roll) in straight lines; its first pivot costs the pivot
    value once; no part of its base may pass through an enemy model (except FLY, and falling back with
    Desperate Escape tests) or over the battlefield's edge; normal moves and advances may not enter
    Engagement Range, a fall back may not end in it; the unit ends in coherency."""
    unit = table.unit(unit_name)
    out = Verdict()
    if kind not in _KINDS:
        raise ProfileError("inputs.kind", f"must be one of {', '.join(_KINDS)}, got {kind!r}.")
    engaged = _check_start(table, unit, kind, out)
    if kind == "stationary":
        out.check(remain_stationary, not paths, "no model of a unit remaining stationary moves")
        out.values.update({"moved": [], "can_shoot": True, "can_charge": True})
        return out
    allowance = _allowance(unit, kind, advance_roll, out)
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    lengths: dict[str, float | Fraction] = {}
    escape_models: list[str] = []
    moved = {m.id: m for m in unit.models}
    for mid, path in paths.items():
        model = _model_at_start(unit, moved, mid, path)
        lengths[mid] = _check_length(kind, mid, path, allowance, pivot_value, (pivots or {}).get(mid, 0), out)
        if _check_over_enemies(unit, kind, mid, path, enemies, model.base.rx, out):
            escape_models.append(mid)
        _check_route(table, unit, kind, mid, path, enemies, model.base.rx, out)
        end = path[-1]
        moved[mid] = model.moved(end[0], end[1], end[2])
    final = list(moved.values())
    escape_models = _check_end(table, unit, kind, final, enemies, escape_models, out)
    tests = len(escape_models)
    out.values.update({
        "allowance": allowance, "lengths": lengths, "desperate_escape_tests": tests,
        "p_no_loss": desperate_escape(tests).prob(0), "expected_destroyed": desperate_escape(tests).mean(),
        "can_shoot": kind not in ("advance", "fall-back"), "can_charge": kind not in ("advance", "fall-back"),
        "ends": {m.id: (m.x, m.y, m.z) for m in final}, "engaged_at_start": [e.name for e in engaged],
    })
    return out


def _check_start(table: Table, unit: Unit, kind: str, out: Verdict) -> list[Unit]:
    """AIRCRAFT make only normal moves; a normal move or advance starts out of Engagement Range. Returns the
    enemy units (not AIRCRAFT) the unit starts engaged with."""
    engaged = [e for e in engaged_with(table, unit) if not e.has("AIRCRAFT")]
    if unit.has("AIRCRAFT"):
        out.check(aircraft_move, kind == "normal", "AIRCRAFT can only make normal moves")
    elif kind in ("normal", "advance"):
        out.check(move, not engaged, f"the unit starts outside Engagement Range of enemy models "
                                     f"({', '.join(e.name for e in engaged) or 'none'})")
    return engaged


def _allowance(unit: Unit, kind: str, advance_roll: int | None, out: Verdict) -> Fraction:
    """How far each model may move: M, or M + the D6 rolled for an advance."""
    if kind != "advance":
        return unit.move
    if advance_roll is None:
        out.values["advance"] = {"min": unit.move + 1, "max": unit.move + 6, "mean": unit.move + Fraction(7, 2)}
        raise ProfileError("inputs.advance_roll", "an advance needs the D6 rolled (1-6).")
    out.check(advance, 1 <= advance_roll <= 6, f"the advance roll is a D6: {advance_roll}")
    return unit.move + advance_roll


def _model_at_start(unit: Unit, moved: Mapping[str, Model], mid: str, path: Path) -> Model:
    """The model a path moves, which must start where it stands."""
    if mid not in moved:
        raise ProfileError(f"inputs.paths.{mid}", f"{mid!r} is not a model of {unit.name}.")
    model = moved[mid]
    if (path[0][0], path[0][1]) != (model.x, model.y):
        raise ProfileError(f"inputs.paths.{mid}", f"a move starts where the model stands ({model.x}, {model.y}).")
    return model


def _step_rule(kind: str) -> Callable[..., object]:
    return {"normal": normal_move, "advance": advance, "fall-back": fall_back}[kind]


def _check_length(kind: str, mid: str, path: Path, allowance: Fraction, pivot_value: Fraction, n_pivots: int,
                  out: Verdict) -> float | Fraction:
    """The path's length plus the pivot value (paid once) within the allowance; returns that total."""
    used = path_length(path)
    total = used + (pivot_value if n_pivots else 0)
    out.check(_step_rule(kind),
              float(total) <= float(allowance) + 1e-9 if isinstance(total, float) else total <= allowance,
              f"{mid} moves {figure(used)}\"" + (f" + pivot {pivot_value}\"" if n_pivots else "")
              + f" of {allowance}\" allowed")
    return total


def _check_over_enemies(unit: Unit, kind: str, mid: str, path: Path, enemies: Sequence[Model], radius: Fraction,
                        out: Verdict) -> bool:
    """No base passes through an enemy model unless it can FLY; a fall back may, with a Desperate Escape test
    (returns whether the model takes one)."""
    through = [o.id for o in enemies for p, q in itertools.pairwise(path)
               if segment_hits_base(p[:2], q[:2], radius, o)]
    if not through:
        return False
    if kind == "fall-back" and not unit.keywords & {"TITANIC", "FLY"}:
        out.note(desperate_escape, f"{mid} falls back over enemy models: a Desperate Escape test")
        return True
    flying = unit.has("FLY")
    out.check(fly if flying else move, flying, f"{mid} passes over enemy models {sorted(set(through))}"
              + (" (it can FLY)" if flying else ""))
    return False


def _check_route(table: Table, unit: Unit, kind: str, mid: str, path: Path, enemies: Sequence[Model],
                 radius: Fraction, out: Verdict) -> None:
    """The base stays on the battlefield, a normal move or advance never nears an enemy within Engagement
    Range (unless it can FLY), and no feature over 2" is passed through."""
    flying = unit.has("FLY")
    off = [p for p in path if not (radius <= p[0] <= table.width - radius and radius <= p[1] <= table.depth - radius)]
    if off:
        out.check(move, False, f"{mid}'s base would cross the battlefield edge at ({figure(off[0][0])}, {figure(off[0][1])})")
    if kind in ("normal", "advance") and not flying:
        entered = [o.id for o in enemies if not table.unit_of(o.id).has("AIRCRAFT")
                   for p, q in itertools.pairwise(path)
                   if segment_hits_base(p[:2], q[:2], radius + ENGAGEMENT, o)
                   and abs(p[2] - o.z) <= ENGAGEMENT_UP]
        out.check(_step_rule(kind), not entered, f"{mid} never moves within Engagement Range of enemy models"
                  + (f" (it would near {sorted(set(entered))})" if entered else ""))
    for terrain in table.terrain:
        if not flying and _terrain_blocks(unit, terrain, path, radius):
            out.check(terrain_movement, False, f"{mid} cannot move through {terrain.name} "
                                               f"({terrain.height}\" high): climb it instead")


def _check_end(table: Table, unit: Unit, kind: str, final: Sequence[Model], enemies: Sequence[Model],
               escape_models: list[str], out: Verdict) -> list[str]:
    """Where the unit ends: a fall back out of Engagement Range (a Battle-shocked unit tests for every model),
    no base on top of another, the unit in coherency. Returns the models taking Desperate Escape tests."""
    after = table.replace_unit(Unit(**{**unit.__dict__, "models": tuple(final)}))
    if kind == "fall-back":
        ends_engaged = [o.id for m in final for o in enemies if not table.unit_of(o.id).has("AIRCRAFT")
                        and in_engagement_range(m, o)]
        out.check(fall_back, not ends_engaged, "no model ends within Engagement Range of an enemy"
                  + (f" (ends near {sorted(set(ends_engaged))})" if ends_engaged else ""))
        if unit.battle_shocked:
            escape_models = [m.id for m in unit.models]
            out.note(desperate_escape, "the unit is Battle-shocked: a Desperate Escape test for every model")
    for m in final:
        for o in (x for u in after.on_table() for x in u.models if x.id != m.id):
            if horizontal_within(m, o, Fraction(0)) and not base_contact_ok(m, o):
                out.check(move, False, f"{m.id} ends on top of {o.id}")
    report = coherency(final)
    out.check(coherency, report.ok, f"the unit ends in coherency ({len(report.groups)} group(s), "
                                    f"each model within 2\" of {report.needed} other(s))")
    return escape_models


def base_contact_ok(a: Model, b: Model) -> bool:
    """Two bases may touch but not overlap."""
    d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2
    return d2 >= (a.base.rx + b.base.rx) ** 2 or abs(a.z - b.z) > 0


@rule("remain-stationary", cite("10e-core", 381))
def remain_stationary() -> None:
    """No model of the unit moves for the rest of the phase."""


@rule("normal-move", cite("10e-core", 385, 388))
def normal_move() -> None:
    """Up to M; never within Engagement Range of enemy models."""


@rule("advance", cite("10e-core", 405, 409))
def advance() -> None:
    """Up to M + D6; never within Engagement Range; no shooting or charging this turn."""


@rule("fall-back", cite("10e-core", 427, 436))
def fall_back() -> None:
    """Up to M, through Engagement Range but not ending in it; no shooting or charging this turn."""


@rule("desperate-escape", cite("10e-core", 430, 436), cite("10e-core", 311))
def desperate_escape(tests: int) -> Dist:
    """Models destroyed: one per test rolling 1-2 on a D6."""
    return Dist.binomial(tests, Fraction(1, 3))


@rule("terrain", cite("10e-core", 440, 443))
def terrain_movement() -> None:
    """Over features of 2" or less freely; taller ones only climbed, never passed through."""


@rule("fly", cite("10e-core", 447, 452), cite("10e-core", 1014, 1019))
def fly() -> None:
    """FLY models move over enemy models and measure through the air when they start or end on terrain."""


@rule("pivot", cite("10e-core", 396, 396), cite("10e-core", 411, 411))
def centre_without_base(outline: Sequence[tuple[Fraction, Fraction]]) -> Verdict:
    """The centre of a model without a base (its pivot axis): the crossing of the diagonals of the smallest
    four-sided figure around the model seen from above — here the rectangle along the model's own axes that
    encloses its outline."""
    out = Verdict()
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    corners = [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]
    (ax, ay), (cx, cy) = corners[0], corners[2]
    (bx, by), (dx, dy) = corners[1], corners[3]
    # the diagonals a-c and b-d cross where a + t (c - a) = b + s (d - b)
    den = (cx - ax) * (dy - by) - (cy - ay) * (dx - bx)
    t = ((bx - ax) * (dy - by) - (by - ay) * (dx - bx)) / den if den else Fraction(1, 2)
    centre = (ax + t * (cx - ax), ay + t * (cy - ay))
    out.note(centre_without_base, f"the enclosing figure {corners}; its diagonals cross at {centre}")
    out.values.update({"corners": [list(c) for c in corners], "centre": list(centre)})
    return out


@rule("surge-move", cite("10e-core", 373, 377))
def surge_move(table: Table, unit_name: str, surged_this_phase: bool = False) -> Verdict:
    """A surge move: at most one per unit per phase, never while Battle-shocked or within Engagement Range."""
    unit = table.unit(unit_name)
    out = Verdict()
    out.check(surge_move, not surged_this_phase, "the unit has not made a surge move this phase")
    out.check(surge_move, not unit.battle_shocked, "the unit is not Battle-shocked")
    engaged = [e.name for e in engaged_with(table, unit)]
    out.check(surge_move, not engaged, "the unit is not within Engagement Range of an enemy unit"
              + (f" ({', '.join(engaged)})" if engaged else ""))
    return out
