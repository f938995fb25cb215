"""The 10th edition's table rules as functions over a :class:`~rulekb.engine.table.state.Table`.

Each function returns a :class:`~rulekb.engine.table.verdict.Verdict` whose reasons name the rule (concept
and lines of ``10e-core``) they apply. Lines follow the text; where the text prints no number (the
pivot values' table is lost in the translation, 398–399) the caller gives it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.editions import Tenth
from rulekb.engine.errors import ProfileError
from rulekb.engine.rolls import Reroll
from rulekb.engine.table.geometry import (
    Model,
    ceil_sqrt,
    distance_within,
    horizontal_within,
    path_length,
    point_in_polygon,
    segment_crosses_polygon,
    segment_hits_base,
    segment_near_polygon,
    sqrt_at_most,
    vertical_gap,
    wholly_inside,
    wholly_within,
    within,
)
from rulekb.engine.table.measure import base_contact, coherency, in_engagement_range
from rulekb.engine.table.state import Path, Table, Terrain, Unit
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "PHASES",
    "aircraft_move",
    "battle_shock_step",
    "benefit_of_cover",
    "charge_eligible",
    "charge_move",
    "charge_needed",
    "charge_success",
    "command_phase",
    "consolidate",
    "destroyed_transport",
    "disembark",
    "embark",
    "engaged_with",
    "fight_eligible",
    "fight_order",
    "fighting_models",
    "gain_command_points",
    "move",
    "objective_control",
    "pile_in",
    "reserves_set_up",
    "strategic_reserves_allowed",
    "use_stratagem",
    "visible",
]

TENTH = Tenth()
ENGAGEMENT = Fraction(1)
ENGAGEMENT_UP = Fraction(5)
FREE_CLIMB = Fraction(2)
PHASES = ("command", "movement", "shooting", "charge", "fight")


def _f(x: Fraction | int | float) -> float:
    return round(float(x), 6)


def engaged_with(table: Table, unit: Unit, ignore_aircraft: bool = False) -> list[Unit]:
    """The enemy units within Engagement Range of any model of ``unit``."""
    return [
        e for e in table.enemies_of(unit)
        if not (ignore_aircraft and e.has("AIRCRAFT"))
        and any(in_engagement_range(m, o) for m in unit.models for o in e.models)
    ]


# --- the battle round -------------------------------------------------------------------------------


@rule("battle-round", cite("10e-core", 256, 277))
def turn_sequence(active: str, players: Sequence[str] = ("A", "B")) -> list[tuple[str, str]]:
    """A battle round: each player's turn in turn, each of five phases in order."""
    order = [active] + [p for p in players if p != active]
    return [(p, phase) for p in order for phase in PHASES]


# --- the command phase ---------------------------------------------------------------------------------


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


@rule("stratagem", cite("10e-core", 1296, 1299), cite("10e-core", 312))
def use_stratagem(cp: int, cost: int, name: str, used_this_phase: Sequence[str] = (),
                  target_battle_shocked: bool = False) -> Verdict:
    """A stratagem costs its CP (not usable without enough), once per phase, never on a Battle-shocked unit."""
    out = Verdict()
    out.check(use_stratagem, cp >= cost, f"{cp} CP for a {cost} CP stratagem")
    out.check(use_stratagem, name not in used_this_phase, f"{name!r} not used yet in this phase")
    out.check(use_stratagem, not target_battle_shocked, "its target is not Battle-shocked")
    out.values["cp_left"] = cp - cost if out.ok else cp
    return out


# --- movement --------------------------------------------------------------------------------------


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
    kinds = ("normal", "advance", "fall-back", "stationary")
    if kind not in kinds:
        raise ProfileError("inputs.kind", f"must be one of {', '.join(kinds)}, got {kind!r}.")
    engaged = [e for e in engaged_with(table, unit) if not e.has("AIRCRAFT")]
    if unit.has("AIRCRAFT"):
        out.check(aircraft_move, kind == "normal", "AIRCRAFT can only make normal moves")
    elif kind in ("normal", "advance"):
        out.check(move, not engaged, f"the unit starts outside Engagement Range of enemy models "
                                     f"({', '.join(e.name for e in engaged) or 'none'})")
    if kind == "stationary":
        out.check(remain_stationary, not paths, "no model of a unit remaining stationary moves")
        out.values.update({"moved": [], "can_shoot": True, "can_charge": True})
        return out
    allowance = unit.move
    if kind == "advance":
        if advance_roll is None:
            out.values["advance"] = {"min": unit.move + 1, "max": unit.move + 6, "mean": unit.move + Fraction(7, 2)}
            raise ProfileError("inputs.advance_roll", "an advance needs the D6 rolled (1-6).")
        out.check(advance, 1 <= advance_roll <= 6, f"the advance roll is a D6: {advance_roll}")
        allowance = unit.move + advance_roll
    lengths: dict[str, float | Fraction] = {}
    enemies = [o for e in table.enemies_of(unit) for o in e.models]
    table.enemies_of(unit)
    flying = unit.has("FLY")
    escape_models: list[str] = []
    moved = {m.id: m for m in unit.models}
    for mid, path in paths.items():
        if mid not in moved:
            raise ProfileError(f"inputs.paths.{mid}", f"{mid!r} is not a model of {unit.name}.")
        model = moved[mid]
        if (path[0][0], path[0][1]) != (model.x, model.y):
            raise ProfileError(f"inputs.paths.{mid}", f"a move starts where the model stands ({model.x}, {model.y}).")
        used = path_length(path)
        n_pivots = (pivots or {}).get(mid, 0)
        total = used + (pivot_value if n_pivots else 0)
        lengths[mid] = total
        rule_fn = {"normal": normal_move, "advance": advance, "fall-back": fall_back}[kind]
        out.check(rule_fn, float(total) <= float(allowance) + 1e-9 if isinstance(total, float) else total <= allowance,
                  f"{mid} moves {_f(used)}\"" + (f" + pivot {pivot_value}\"" if n_pivots else "")
                  + f" of {allowance}\" allowed")
        radius = model.base.rx
        through = [o.id for o in enemies for p, q in itertools.pairwise(path)
                   if segment_hits_base(p[:2], q[:2], radius, o)]
        if through:
            if kind == "fall-back" and not unit.keywords & {"TITANIC", "FLY"}:
                escape_models.append(mid)
                out.note(desperate_escape, f"{mid} falls back over enemy models: a Desperate Escape test")
            else:
                out.check(fly if flying else move, flying, f"{mid} passes over enemy models {sorted(set(through))}"
                          + (" (it can FLY)" if flying else ""))
        off = [p for p in path if not (radius <= p[0] <= table.width - radius and radius <= p[1] <= table.depth - radius)]
        if off:
            out.check(move, False, f"{mid}'s base would cross the battlefield edge at ({_f(off[0][0])}, {_f(off[0][1])})")
        if kind in ("normal", "advance") and not flying:
            entered = [o.id for o in enemies if not table.unit_of(o.id).has("AIRCRAFT")
                       for p, q in itertools.pairwise(path)
                       if segment_hits_base(p[:2], q[:2], radius + ENGAGEMENT, o)
                       and abs(p[2] - o.z) <= ENGAGEMENT_UP]
            rule_fn2 = normal_move if kind == "normal" else advance
            out.check(rule_fn2, not entered, f"{mid} never moves within Engagement Range of enemy models"
                      + (f" (it would near {sorted(set(entered))})" if entered else ""))
        for terrain in table.terrain:
            if not flying and _terrain_blocks(unit, terrain, path, radius):
                out.check(terrain_movement, False, f"{mid} cannot move through {terrain.name} "
                                                   f"({terrain.height}\" high): climb it instead")
        end = path[-1]
        moved[mid] = model.moved(end[0], end[1], end[2])
    final = list(moved.values())
    after = table.replace_unit(Unit(**{**unit.__dict__, "models": tuple(final)}))
    ends_engaged = [o.id for m in final for o in enemies if not table.unit_of(o.id).has("AIRCRAFT")
                    and in_engagement_range(m, o)]
    if kind == "fall-back":
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
    tests = len(escape_models)
    out.values.update({
        "allowance": allowance, "lengths": lengths, "desperate_escape_tests": tests,
        "p_no_loss": desperate_escape(tests).prob(0), "expected_destroyed": desperate_escape(tests).mean(),
        "can_shoot": kind not in ("advance", "fall-back"), "can_charge": kind not in ("advance", "fall-back"),
        "ends": {m.id: (m.x, m.y, m.z) for m in final}, "engaged_at_start": [e.name for e in engaged],
    })
    return out


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


# --- reinforcements and strategic reserves --------------------------------------------------------


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


# --- transports ----------------------------------------------------------------------------------------


@rule("embark", cite("10e-core", 473, 479), cite("10e-core", 485, 490))
def embark(table: Table, unit_name: str, transport_name: str, moved: str = "normal",
           disembarked_this_phase: bool = False, aboard: int = 0) -> Verdict:
    """A unit that ends a normal move, advance or fall back with every model within 3" of a friendly
    TRANSPORT may embark, within its capacity, unless it disembarked this phase."""
    unit, transport = table.unit(unit_name), table.unit(transport_name)
    out = Verdict()
    out.check(embark, transport.player == unit.player and transport.has("TRANSPORT"), f"{transport.name} is a friendly TRANSPORT")
    out.check(embark, moved in ("normal", "advance", "fall-back"), f"the unit made a move ({moved})")
    hull = transport.models[0]
    for m in unit.models:
        out.check(embark, within(m, hull, Fraction(3)), f"{m.id} ends within 3\" of {transport.name}")
    out.check(embark, not disembarked_this_phase, "the unit did not disembark this phase")
    out.check(embark, aboard + len(unit.models) <= transport.capacity,
              f"{aboard} + {len(unit.models)} models within the capacity of {transport.capacity}")
    return out


@rule("disembark", cite("10e-core", 494, 504))
def disembark(table: Table, unit_name: str, transport_name: str, transport_moved: str = "none") -> Verdict:
    """Disembarking: set up wholly within 3" of the TRANSPORT and not within Engagement Range of enemy models;
    not after the transport advanced or fell back; after its normal move the unit counts as having made a
    normal move (no further move, no charge); a unit that disembarked cannot remain stationary."""
    unit, transport = table.unit(unit_name), table.unit(transport_name)
    out = Verdict()
    hull = transport.models[0]
    out.check(disembark, transport_moved in ("none", "normal", "stationary"),
              f"the transport did not advance or fall back ({transport_moved})")
    for m in unit.models:
        out.check(disembark, wholly_within(m, hull, Fraction(3)), f"{m.id} is set up wholly within 3\" of {transport.name}")
        near = [o.id for e in table.enemies_of(unit) for o in e.models if in_engagement_range(m, o)]
        out.check(disembark, not near, f"{m.id} is not within Engagement Range of enemy models")
    after_move = transport_moved == "normal"
    out.values.update({"can_move": not after_move, "can_charge": not after_move, "can_remain_stationary": False,
                       "counts_as_normal_move": after_move})
    return out


@rule("emergency-disembarkation", cite("10e-core", 508, 525))
def destroyed_transport(table: Table, unit_name: str, transport_name: str, rolls: Sequence[int] | None = None) -> Verdict:
    """A destroyed TRANSPORT's passengers disembark wholly within 3" (not in Engagement Range); if they cannot,
    an Emergency Disembarkation wholly within 6", where a model that cannot be set up is destroyed. One D6 per
    model: each 1 (each 1-3 in an emergency) is a mortal wound. The unit is Battle-shocked and counts as having
    made a normal move (it cannot charge)."""
    unit, transport = table.unit(unit_name), table.unit(transport_name)
    out = Verdict()
    hull = transport.models[0]

    def placed(m: Model, d: Fraction) -> bool:
        return wholly_within(m, hull, d) and not any(
            in_engagement_range(m, o) for e in table.enemies_of(unit) for o in e.models)

    normal = all(placed(m, Fraction(3)) for m in unit.models)
    emergency = not normal
    if normal:
        out.note(destroyed_transport, "every model is set up wholly within 3\" of the destroyed transport")
    else:
        out.note(destroyed_transport, "not every model fits wholly within 3\": Emergency Disembarkation within 6\"")
    lost = [m.id for m in unit.models if not placed(m, Fraction(6 if emergency else 3))]
    if emergency:
        out.values["destroyed_models"] = lost
    else:
        out.values["destroyed_models"] = []
    survivors = len(unit.models) - len(out.values["destroyed_models"])
    bad = 3 if emergency else 1
    dist = Dist.binomial(survivors, Fraction(bad, 6))
    out.values.update({"emergency": emergency, "tests": survivors, "p_per_model": Fraction(bad, 6),
                       "expected_mortal_wounds": dist.mean(), "battle_shocked": True, "can_charge": False})
    if rolls is not None:
        if len(rolls) != survivors:
            raise ProfileError("inputs.rolls", f"one D6 per disembarked model: {survivors} rolls, got {len(rolls)}.")
        wounds = sum(1 for r in rolls if r <= bad)
        out.values["mortal_wounds"] = wounds
        out.values["p_this_many"] = dist.prob(wounds)
    return out


# --- aircraft ------------------------------------------------------------------------------------------


@rule("aircraft", cite("10e-core", 1816, 1846))
def aircraft_move(table: Table, unit_name: str, path: Path, turn_degrees: int = 0) -> Verdict:
    """An AIRCRAFT model's normal move: straight forward at least 20" (every part of its base at least that far
    from where it started), then one pivot of up to 90°; crossing the edge or falling short puts it into
    Strategic Reserves. It may move even within Engagement Range."""
    unit = table.unit(unit_name)
    out = Verdict()
    out.check(aircraft_move, unit.has("AIRCRAFT"), f"{unit.name} is an AIRCRAFT")
    straight = len(path) == 2
    out.check(aircraft_move, straight, "it moves in one straight line")
    a, b = path[0], path[-1]
    d2 = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    far_enough = d2 >= 400
    model = unit.models[0]
    r = model.base.rx
    on_table = r <= b[0] <= table.width - r and r <= b[1] <= table.depth - r
    out.check(aircraft_move, 0 <= turn_degrees <= 90, f"one pivot of {turn_degrees}° (at most 90°)")
    to_reserves = not far_enough or not on_table
    out.note(aircraft_move, f"moves {_f(float(d2) ** 0.5)}\" "
                            + ("(at least 20\")" if far_enough else "(less than 20\")")
                            + ("" if on_table else "; its base crosses the battlefield edge"))
    out.values.update({"to_strategic_reserves": to_reserves, "distance": float(d2) ** 0.5,
                       "ignores_engagement": True})
    return out


# --- the charge phase ----------------------------------------------------------------------------------


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
        out.check(charge_move, float(used) <= roll + 1e-9, f"{mid} moves {_f(used)}\" of the {roll}\" rolled")
        end = model.moved(path[-1][0], path[-1][1], path[-1][2])
        start_d = min(_gap2(model, o) for o in target_models)
        end_d = min(_gap2(end, o) for o in target_models)
        out.check(charge_move, end_d < start_d, f"{mid} ends closer to a target model")
        could = any(_pair_contact_reach(model, o, roll) for o in target_models)
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


def _gap2(a: Model, b: Model) -> Fraction:
    return (a.x - b.x) ** 2 + (a.y - b.y) ** 2


def _pair_contact_reach(a: Model, b: Model, inches_: int | Fraction) -> bool:
    return a.z == b.z and sqrt_at_most(_gap2(a, b), Fraction(inches_) + a.base.rx + b.base.rx)


# --- the fight phase -----------------------------------------------------------------------------------


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
    return min(enemies, key=lambda o: (float(_gap2(m, o)) ** 0.5 - float(o.base.rx), o.id))


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
        out.check(fn, float(used) <= 3 + 1e-9, f"{mid} moves {_f(used)}\" of 3\"")  # type: ignore[arg-type]
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
        out.check(fn, _gap2(m, target) < _gap2(s, target),  # type: ignore[arg-type]
                  f"{m.id} ends closer to the closest enemy model {target.id}")
        if _pair_contact_reach(s, target, 3):
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
        objective = min(table.objectives, key=lambda o: min(_gap2(m, o.marker) for m in unit.models), default=None)
        out.check(consolidate, objective is not None, "no enemy in reach: towards the closest objective marker")
        if objective is not None:
            for m, s in zip(final, unit.models, strict=True):
                if (m.x, m.y) != (s.x, s.y):
                    out.check(consolidate, _gap2(m, objective.marker) < _gap2(s, objective.marker),
                              f"{m.id} ends closer to {objective.name}")
            inside = any(objective_range(m, objective.marker) for m in final)
            out.check(consolidate, inside, f"the unit ends within range of {objective.name}")
            out.values["towards"] = objective.name
    out.check(coherency, coherency(final).ok, "the unit ends in coherency")
    out.values["ends"] = {m.id: (m.x, m.y, m.z) for m in final}
    return out


# --- objectives ----------------------------------------------------------------------------------------


@rule("objective-marker", cite("10e-core", 2046, 2048))
def objective_range(model: Model, marker: Model) -> bool:
    """In range of an objective marker: within 3" horizontally and 5" vertically of its closest part."""
    return within(model, marker, Fraction(3), Fraction(5))


@rule("objective-control", cite("10e-core", 2048, 2051), cite("10e-core", 310))
def objective_control(table: Table, objective: str) -> Verdict:
    """Each player's Level of Control over a marker is the OC of his models in range of it summed (a
    Battle-shocked unit's models have OC 0); the player with the higher level controls it; a tie contests it."""
    marker = next((o for o in table.objectives if o.name == objective), None)
    if marker is None:
        raise ProfileError("inputs.objective", f"no objective named {objective!r}.")
    out = Verdict()
    levels: dict[str, int] = {}
    for unit in table.on_table():
        levels.setdefault(unit.player, 0)
        count = sum(1 for m in unit.models if objective_range(m, marker.marker))
        oc = 0 if unit.battle_shocked else unit.oc
        if count:
            out.note(objective_control, f"{unit.name}: {count} model(s) in range x OC {oc}"
                     + (" (Battle-shocked)" if unit.battle_shocked else ""))
        levels[unit.player] += count * oc
    best = max(levels.values(), default=0)
    leaders = [p for p, v in levels.items() if v == best]
    controller = leaders[0] if best > 0 and len(leaders) == 1 else None
    out.values.update({"levels": levels, "controlled_by": controller if controller else "contested" if best else "none"})
    return out


# --- visibility and cover ------------------------------------------------------------------------------


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
    from rulekb.engine.table.geometry import rim_points

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


# --- shooting: choosing targets ----------------------------------------------------------------------


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


# --- deployment abilities -----------------------------------------------------------------------------


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
            out.check(scouts_move, float(used) <= float(x) + 1e-9, f"{m.id} moves {_f(used)}\" of Scouts {x}\"")
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
    from rulekb.engine.table.geometry import _segment_point_d2

    n = len(polygon)
    reach = (d + m.base.rx) ** 2
    return any(_segment_point_d2(polygon[i], polygon[(i + 1) % n], m.centre) <= reach for i in range(n))


# --- core stratagems ------------------------------------------------------------------------------------

CORE_STRATAGEMS: dict[str, int] = {
    "command-re-roll": 1, "counter-offensive": 2, "epic-challenge": 1, "insane-bravery": 1, "grenade": 1,
    "tank-shock": 1, "rapid-ingress": 1, "fire-overwatch": 1, "go-to-ground": 1, "smokescreen": 1,
    "heroic-intervention": 1,
}


@rule("core-stratagem", cite("10e-core", 1377, 1567), cite("10e-core", 1296, 1299))
def core_stratagem(table: Table, name: str, cp: int, unit_name: str, enemy_name: str | None = None,
                   phase: str = "", active: str = "", used_this_phase: Sequence[str] = (),
                   used_this_battle: Sequence[str] = (), fought: bool = False) -> Verdict:
    """A core stratagem's cost, WHEN and TARGET checked against the table: Heroic Intervention (within 6" of an
    enemy unit that just charged, eligible to charge it; a VEHICLE only if a WALKER), Fire Overwatch (within 24"
    of the enemy unit, which must be visible; hits on unmodified 6s; not against TITANIC), Counter-offensive
    (in Engagement Range, not yet fought: fights next), Rapid Ingress (end of the opponent's movement phase, a
    unit in Reserves), Insane Bravery (once per battle), Go to Ground (INFANTRY), Smokescreen (SMOKE), Epic
    Challenge (a CHARACTER of an Attached unit in Engagement Range)."""
    if name not in CORE_STRATAGEMS:
        raise ProfileError("inputs.name", f"a core stratagem: {', '.join(CORE_STRATAGEMS)}; got {name!r}.")
    unit = table.unit(unit_name)
    cost = CORE_STRATAGEMS[name]
    out = use_stratagem(cp, cost, name, used_this_phase, unit.battle_shocked)
    enemy = table.unit(enemy_name) if enemy_name else None
    theirs = active != "" and active != unit.player
    effect = ""
    if name == "heroic-intervention":
        out.check(core_stratagem, phase == "charge" and theirs, "in the opponent's charge phase")
        assert enemy is not None
        near = any(distance_within(m, o, Fraction(6)) for m in unit.models for o in enemy.models)
        out.check(core_stratagem, near, f"{unit.name} is within 6\" of {enemy.name}")
        out.check(core_stratagem, not engaged_with(table, unit) and not unit.has("AIRCRAFT"),
                  "the unit could declare a charge (not engaged, not AIRCRAFT)")
        if unit.has("VEHICLE"):
            out.check(core_stratagem, unit.has("WALKER"), "a VEHICLE only if it is a WALKER")
        effect = "declares a charge against that unit only; no Charge Bonus"
    elif name == "fire-overwatch":
        out.check(core_stratagem, phase in ("movement", "charge") and theirs, "in the opponent's movement or charge phase")
        assert enemy is not None
        near = any(distance_within(m, o, Fraction(24)) for m in unit.models for o in enemy.models)
        out.check(core_stratagem, near, f"{unit.name} is within 24\" of {enemy.name}")
        seen = any(visible(table, m.id, o.id).values["visible"] for m in unit.models for o in enemy.models)
        out.check(core_stratagem, seen, f"{enemy.name} is visible to {unit.name}")
        out.check(core_stratagem, not enemy.has("TITANIC"), "the enemy is not TITANIC")
        out.values["p_hit"] = Fraction(1, 6)
        effect = "shoots as in its shooting phase; only unmodified 6s hit"
    elif name == "counter-offensive":
        out.check(core_stratagem, phase == "fight", "in the fight phase, after an enemy unit fought")
        out.check(core_stratagem, bool(engaged_with(table, unit)) and not fought,
                  "the unit is within Engagement Range and has not fought")
        effect = "fights next"
    elif name == "rapid-ingress":
        out.check(core_stratagem, phase == "end-of-movement" and theirs, "at the end of the opponent's movement phase")
        effect = "arrives as in the reinforcements step of its own movement phase"
    elif name == "insane-bravery":
        out.check(core_stratagem, name not in used_this_battle, "not used before in this battle")
        effect = "passes the Battle-shock test automatically"
    elif name == "go-to-ground":
        out.check(core_stratagem, unit.has("INFANTRY"), "an INFANTRY unit")
        effect = "6+ invulnerable save and the Benefit of Cover"
    elif name == "smokescreen":
        out.check(core_stratagem, unit.has("SMOKE"), "a SMOKE unit")
        effect = "the Benefit of Cover and Stealth"
    elif name == "epic-challenge":
        out.check(core_stratagem, unit.has("CHARACTER") and bool(engaged_with(table, unit)),
                  "a CHARACTER in an Attached unit within Engagement Range")
        effect = "its melee attacks have [PRECISION]"
    else:
        effect = "as the stratagem says"
    out.values["effect"] = effect
    return out


# --- mustering an army and the mission sequence ------------------------------------------------------

BATTLE_SIZES = {"incursion": 1000, "strike-force": 2000, "onslaught": 3000}

MISSION_STEPS = ("muster armies", "read mission objectives", "create the battlefield",
                 "determine attacker and defender", "declare battle formations", "deploy armies",
                 "determine first turn", "resolve pre-battle rules", "begin the battle", "end the battle",
                 "determine the victor")


@rule("muster-army", cite("10e-core", 1916, 1972))
def muster_army(units: Sequence[Mapping[str, object]], points_limit: int, faction: str) -> Verdict:
    """Mustering an army: every unit has the army's Faction keyword; the points fit the battle size; at most three
    units of one datasheet (six of BATTLELINE or DEDICATED TRANSPORT); at least one CHARACTER; at most three
    Enhancements, each unique, on CHARACTERS that are not EPIC HEROES, one per unit; an EPIC HERO once; a
    DEDICATED TRANSPORT starts with a unit aboard; one CHARACTER is the Warlord."""
    out = Verdict()
    total = sum(int(str(u.get("points", 0))) for u in units)
    out.check(muster_army, total <= points_limit, f"{total} points of {points_limit}")
    for u in units:
        kws = {str(k).upper() for k in u.get("keywords", [])}  # type: ignore[attr-defined]
        if faction.upper() not in kws:
            out.check(muster_army, False, f"{u.get('name')} lacks the Faction keyword {faction}")
    counts: dict[str, int] = {}
    for u in units:
        counts[str(u.get("name"))] = counts.get(str(u.get("name")), 0) + 1
    for name, n in counts.items():
        kws = {str(k).upper() for u in units if u.get("name") == name for k in u.get("keywords", [])}  # type: ignore[attr-defined]
        limit = 6 if kws & {"BATTLELINE", "DEDICATED TRANSPORT"} else 3
        out.check(muster_army, n <= limit, f"{n} x {name} (at most {limit})")
    chars = [u for u in units if "CHARACTER" in {str(k).upper() for k in u.get("keywords", [])}]  # type: ignore[attr-defined]
    out.check(muster_army, bool(chars), "at least one CHARACTER")
    enh = [str(u["enhancement"]) for u in units if u.get("enhancement")]
    out.check(muster_army, len(enh) <= 3 and len(set(enh)) == len(enh), f"{len(enh)} Enhancement(s), each unique, at most 3")
    for u in units:
        if u.get("enhancement"):
            kws = {str(k).upper() for k in u.get("keywords", [])}  # type: ignore[attr-defined]
            out.check(muster_army, "CHARACTER" in kws and "EPIC HERO" not in kws,
                      f"{u.get('name')}'s Enhancement is on a CHARACTER that is not an EPIC HERO")
        if "DEDICATED TRANSPORT" in {str(k).upper() for k in u.get("keywords", [])}:  # type: ignore[attr-defined]
            out.check(muster_army, bool(u.get("aboard")), f"{u.get('name')} starts with a unit aboard")
    heroes = [str(u.get("name")) for u in units if "EPIC HERO" in {str(k).upper() for k in u.get("keywords", [])}]  # type: ignore[attr-defined]
    out.check(muster_army, len(set(heroes)) == len(heroes), "each EPIC HERO at most once")
    warlords = [u for u in units if u.get("warlord")]
    out.check(muster_army, len(warlords) == 1 and warlords[0] in chars, "one CHARACTER is the Warlord")
    out.values.update({"points": total, "limit": points_limit})
    return out


@rule("mission", cite("10e-core", 1976, 2042))
def mission_sequence(first_turn: str, players: Sequence[str] = ("A", "B")) -> Verdict:
    """The mission's steps in order; pre-battle rules are resolved in turn starting with the player who takes the
    first turn (as Scouts moves are)."""
    out = Verdict()
    out.note(mission_sequence, " → ".join(MISSION_STEPS))
    order = [first_turn] + [p for p in players if p != first_turn]
    out.values.update({"steps": list(MISSION_STEPS), "pre_battle_order": order})
    return out


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


# --- further rules: surge moves, Firing Deck, Attached units, Hover, barricades ------------------------


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


@rule("firing-deck", cite("10e-core", 473, 481))
def firing_deck(table: Table, transport_name: str, x: int, chosen: Sequence[str],
                shot_already: Sequence[str] = ()) -> Verdict:
    """Firing Deck x: when the TRANSPORT shoots, up to x models embarked in it, from units that have not shot,
    lend it one weapon each; those units cannot shoot for the rest of the phase."""
    transport = table.unit(transport_name)
    out = Verdict()
    aboard = {m.id: u for u in table.units if u.embarked_in == transport.name for m in u.models}
    out.check(firing_deck, len(chosen) <= x, f"{len(chosen)} model(s) chosen of Firing Deck {x}")
    for mid in chosen:
        out.check(firing_deck, mid in aboard, f"{mid} is embarked in {transport.name}")
        if mid in aboard:
            out.check(firing_deck, aboard[mid].name not in shot_already, f"{aboard[mid].name} has not shot yet")
    out.values["cannot_shoot"] = sorted({aboard[m].name for m in chosen if m in aboard})
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


@rule("hover", cite("10e-core", 1786, 1812))
def aircraft_deployment(table: Table, unit_name: str, hover: bool = False, in_reserves: bool = True) -> Verdict:
    """AIRCRAFT start the battle in Reserves (as Strategic Reserves); in Hover mode a model's Move becomes 20",
    it loses the AIRCRAFT keyword and its rules and need not start in Reserves."""
    unit = table.unit(unit_name)
    out = Verdict()
    aircraft = unit.has("AIRCRAFT") and not hover
    if aircraft:
        out.check(aircraft_deployment, in_reserves, "an AIRCRAFT starts the battle in Reserves")
    out.values.update({"move": Fraction(20) if hover else unit.move, "aircraft": aircraft,
                       "strategic_reserves": aircraft})
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
