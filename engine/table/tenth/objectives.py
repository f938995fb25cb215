"""Objective markers: being in range of one and controlling it (10e-core 310, 2046–2058).
"""

from __future__ import annotations

from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import (
    Model,
    within,
)
from rulekb.engine.table.state import Table
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "objective_control",
    "objective_range",
]


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
