"""The table state: units of models, terrain features, objective markers and the battlefield's edges.

:func:`parse_table` reads the ``positions`` of a worked example (plain TOML/JSON data) strictly: an
error names the path of the bad value (``positions.units[1].models[0].x``) and the fix.

```
{"battlefield": [44, 60],                       # width and depth in inches (optional)
 "units": [{"name": "Intercessors", "player": "A", "move": 6, "oc": 2, "leadership": 6,
            "keywords": ["INFANTRY"], "starting_strength": 5, "base": 32,
            "models": [[0, 0], [1.5, 0, 0], {"id": "sgt", "x": 3, "y": 0, "z": 0, "base": 40}]}],
 "terrain": [{"name": "ruin", "kind": "ruins", "height": 3, "polygon": [[10, 10], [16, 10], [16, 16]]}],
 "objectives": [[22, 30]],
 "zones": {"A": [[0, 0], [44, 0], [44, 12], [0, 12]]},
 "moves": {"Intercessors/1": [[0, 0], [3, 4]]},  # paths drawn as arrows; runners read them
 "rings": [{"around": "Intercessors/1", "radius": 12}]}
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import Base, Model, Point, Polygon, inches

__all__ = ["Objective", "Path", "Table", "Terrain", "Unit", "parse_path", "parse_table"]

Path = tuple[tuple[Fraction, Fraction, Fraction], ...]

TERRAIN_KINDS = ("ruins", "woods", "crater", "barricade", "debris", "hill", "building", "area")


@dataclass(frozen=True)
class Unit:
    name: str
    player: str
    models: tuple[Model, ...]
    move: Fraction = Fraction(6)
    oc: int = 1
    leadership: int = 7
    keywords: frozenset[str] = frozenset()
    starting_strength: int | None = None
    wounds: int = 1
    battle_shocked: bool = False
    advanced: bool = False
    fell_back: bool = False
    charged: bool = False
    fights_first: bool = False
    initiative: int = 0
    embarked_in: str | None = None
    capacity: int = 0
    points: int = 0

    def has(self, keyword: str) -> bool:
        return keyword.upper() in self.keywords

    @property
    def strength(self) -> int:
        return self.starting_strength if self.starting_strength is not None else len(self.models)


@dataclass(frozen=True)
class Terrain:
    name: str
    kind: str
    polygon: Polygon
    height: Fraction = Fraction(0)


@dataclass(frozen=True)
class Objective:
    name: str
    marker: Model


@dataclass(frozen=True)
class Table:
    units: tuple[Unit, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    objectives: tuple[Objective, ...] = ()
    width: Fraction = Fraction(44)
    depth: Fraction = Fraction(60)
    zones: Mapping[str, Polygon] = field(default_factory=dict)
    moves: Mapping[str, Path] = field(default_factory=dict)
    rings: tuple[tuple[str, Fraction], ...] = ()

    def unit(self, name: str) -> Unit:
        for u in self.units:
            if u.name == name:
                return u
        raise ProfileError("positions.units", f"no unit named {name!r}; units: {', '.join(u.name for u in self.units)}.")

    def model(self, model_id: str) -> Model:
        for u in self.units:
            for m in u.models:
                if m.id == model_id:
                    return m
        for o in self.objectives:
            if o.name == model_id:
                return o.marker
        raise ProfileError("positions", f"no model {model_id!r}; model ids look like 'Unit/1'.")

    def unit_of(self, model_id: str) -> Unit:
        for u in self.units:
            if any(m.id == model_id for m in u.models):
                return u
        raise ProfileError("positions", f"no model {model_id!r} in any unit.")

    def enemies_of(self, unit: Unit) -> list[Unit]:
        return [u for u in self.units if u.player != unit.player and u.embarked_in is None]

    def friends_of(self, unit: Unit) -> list[Unit]:
        return [u for u in self.units if u.player == unit.player and u.name != unit.name and u.embarked_in is None]

    def on_table(self) -> list[Unit]:
        return [u for u in self.units if u.embarked_in is None and u.models]

    def terrain_named(self, name: str) -> Terrain:
        for t in self.terrain:
            if t.name == name:
                return t
        raise ProfileError("positions.terrain", f"no terrain feature named {name!r}.")

    def replace_unit(self, unit: Unit) -> Table:
        return Table(tuple(unit if u.name == unit.name else u for u in self.units), self.terrain, self.objectives,
                     self.width, self.depth, self.zones, self.moves, self.rings)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ProfileError(where, f"must be a table, got {value!r}.")
    return value


def _list(value: Any, where: str) -> Sequence[Any]:
    if not isinstance(value, list | tuple):
        raise ProfileError(where, f"must be a list, got {value!r}.")
    return value


def _point(value: Any, where: str) -> Point:
    seq = _list(value, where)
    if len(seq) != 2:
        raise ProfileError(where, f"a point is [x, y] in inches, got {value!r}.")
    return (inches(seq[0], f"{where}[0]"), inches(seq[1], f"{where}[1]"))


def _polygon(value: Any, where: str) -> Polygon:
    pts = tuple(_point(p, f"{where}[{i}]") for i, p in enumerate(_list(value, where)))
    if len(pts) < 3:
        raise ProfileError(where, "a footprint needs at least three corners [[x, y], ...].")
    return pts


def parse_path(value: Any, where: str) -> Path:
    """A move as a list of points ``[x, y]`` or ``[x, y, z]`` (the first is where the model starts)."""
    out: list[tuple[Fraction, Fraction, Fraction]] = []
    for i, p in enumerate(_list(value, where)):
        seq = _list(p, f"{where}[{i}]")
        if len(seq) not in (2, 3):
            raise ProfileError(f"{where}[{i}]", f"a point of a move is [x, y] or [x, y, z], got {p!r}.")
        z = inches(seq[2], f"{where}[{i}][2]") if len(seq) == 3 else (out[-1][2] if out else Fraction(0))
        out.append((inches(seq[0], f"{where}[{i}][0]"), inches(seq[1], f"{where}[{i}][1]"), z))
    if len(out) < 2:
        raise ProfileError(where, "a move needs a start and at least one more point.")
    return tuple(out)


_UNIT_FIELDS = {"name", "player", "models", "move", "oc", "leadership", "keywords", "starting_strength", "base",
                "height", "wounds", "battle_shocked", "advanced", "fell_back", "charged", "fights_first",
                "initiative", "embarked_in", "capacity", "points"}


def _unit(raw: Any, where: str) -> Unit:
    data = _mapping(raw, where)
    unknown = set(data) - _UNIT_FIELDS
    if unknown:
        raise ProfileError(f"{where}.{sorted(unknown)[0]}", f"unknown field; known: {', '.join(sorted(_UNIT_FIELDS))}.")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ProfileError(f"{where}.name", "every unit needs a name.")
    player = str(data.get("player", "A"))
    base = Base.parse(data.get("base", 32), f"{where}.base")
    height = inches(data.get("height", 0), f"{where}.height")
    models = []
    for i, m in enumerate(_list(data.get("models", []), f"{where}.models")):
        w = f"{where}.models[{i}]"
        if isinstance(m, Mapping):
            mid = str(m.get("id", f"{name}/{i + 1}"))
            models.append(Model(mid, inches(m.get("x"), f"{w}.x"), inches(m.get("y"), f"{w}.y"),
                                inches(m.get("z", 0), f"{w}.z"), Base.parse(m.get("base", base.length_mm) if "base" in m
                                                                              else [base.length_mm, base.width_mm], f"{w}.base"),
                                inches(m.get("height", height), f"{w}.height")))
        else:
            seq = _list(m, w)
            if len(seq) not in (2, 3):
                raise ProfileError(w, f"a model is [x, y], [x, y, z] or a table {{id, x, y, z, base}}, got {m!r}.")
            z = inches(seq[2], f"{w}[2]") if len(seq) == 3 else Fraction(0)
            models.append(Model(f"{name}/{i + 1}", inches(seq[0], f"{w}[0]"), inches(seq[1], f"{w}[1]"), z, base, height))

    def integer(key: str, default: int | None) -> Any:
        value = data.get(key, default)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ProfileError(f"{where}.{key}", f"must be a whole number, got {value!r}.")
        return value

    def flag(key: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise ProfileError(f"{where}.{key}", f"must be true or false, got {value!r}.")
        return value

    keywords = data.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise ProfileError(f"{where}.keywords", "must be a list of keywords like [\"INFANTRY\", \"FLY\"].")
    embarked = data.get("embarked_in")
    return Unit(name, player, tuple(models), inches(data.get("move", 6), f"{where}.move"), integer("oc", 1),
                integer("leadership", 7), frozenset(k.upper() for k in keywords),
                integer("starting_strength", None), integer("wounds", 1), flag("battle_shocked"), flag("advanced"),
                flag("fell_back"), flag("charged"), flag("fights_first"), integer("initiative", 0),
                str(embarked) if embarked is not None else None, integer("capacity", 0), integer("points", 0))


def parse_table(raw: Any, where: str = "positions") -> Table:
    """A :class:`Table` from plain data (see the module docstring)."""
    data = _mapping(raw, where)
    known = {"battlefield", "units", "terrain", "objectives", "zones", "moves", "rings"}
    unknown = set(data) - known
    if unknown:
        raise ProfileError(f"{where}.{sorted(unknown)[0]}", f"unknown field; known: {', '.join(sorted(known))}.")
    width, depth = Fraction(44), Fraction(60)
    if "battlefield" in data:
        width, depth = _point(data["battlefield"], f"{where}.battlefield")
    units = tuple(_unit(u, f"{where}.units[{i}]") for i, u in enumerate(_list(data.get("units", []), f"{where}.units")))
    names = [u.name for u in units]
    if len(set(names)) != len(names):
        raise ProfileError(f"{where}.units", "unit names must be unique.")
    terrain = []
    for i, t in enumerate(_list(data.get("terrain", []), f"{where}.terrain")):
        w = f"{where}.terrain[{i}]"
        td = _mapping(t, w)
        kind = str(td.get("kind", "area"))
        if kind not in TERRAIN_KINDS:
            raise ProfileError(f"{w}.kind", f"unknown kind {kind!r}; known: {', '.join(TERRAIN_KINDS)}.")
        terrain.append(Terrain(str(td.get("name", f"{kind}-{i + 1}")), kind, _polygon(td.get("polygon"), f"{w}.polygon"),
                               inches(td.get("height", 0), f"{w}.height")))
    objectives = []
    for i, o in enumerate(_list(data.get("objectives", []), f"{where}.objectives")):
        w = f"{where}.objectives[{i}]"
        if isinstance(o, Mapping):
            x, y, z = inches(o.get("x"), f"{w}.x"), inches(o.get("y"), f"{w}.y"), inches(o.get("z", 0), f"{w}.z")
            name = str(o.get("name", f"objective-{i + 1}"))
        else:
            (x, y), z, name = _point(o, w), Fraction(0), f"objective-{i + 1}"
        objectives.append(Objective(name, Model(name, x, y, z, Base(Fraction(40), Fraction(40)))))
    zones = {str(k): _polygon(v, f"{where}.zones.{k}") for k, v in _mapping(data.get("zones", {}), f"{where}.zones").items()}
    moves = {str(k): parse_path(v, f"{where}.moves.{k}") for k, v in _mapping(data.get("moves", {}), f"{where}.moves").items()}
    rings = []
    for i, r in enumerate(_list(data.get("rings", []), f"{where}.rings")):
        rd = _mapping(r, f"{where}.rings[{i}]")
        rings.append((str(rd.get("around")), inches(rd.get("radius"), f"{where}.rings[{i}].radius")))
    table = Table(units, tuple(terrain), tuple(objectives), width, depth, zones, moves, tuple(rings))
    ids = [m.id for u in units for m in u.models]
    if len(set(ids)) != len(ids):
        raise ProfileError(f"{where}.units", "model ids must be unique.")
    for key in moves:
        table.model(key)
    for around, _r in rings:
        table.model(around)
    return table
