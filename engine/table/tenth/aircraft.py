"""AIRCRAFT: their normal move, starting in Reserves and Hover mode (10e-core 1786–1846).
"""

from __future__ import annotations

from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.table.state import Path, Table
from rulekb.engine.table.tenth.common import figure
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "aircraft_deployment",
    "aircraft_move",
]


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
    out.note(aircraft_move, f"moves {figure(float(d2) ** 0.5)}\" "
                            + ("(at least 20\")" if far_enough else "(less than 20\")")
                            + ("" if on_table else "; its base crosses the battlefield edge"))
    out.values.update({"to_strategic_reserves": to_reserves, "distance": float(d2) ** 0.5,
                       "ignores_engagement": True})
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
