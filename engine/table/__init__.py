"""The table engine: models on bases at exact positions, units, terrain and objective markers, and the rules
that move, charge, fight, control and embark them (standard library only, exact ``Fraction`` inches).

- :mod:`rulekb.engine.table.geometry` — bases (mm converted exactly), distances between closest points, within,
  wholly within, footprints, rational rim points for sight lines.
- :mod:`rulekb.engine.table.measure` — range, engagement range and coherency by edition, base contact.
- :mod:`rulekb.engine.table.state` — units, terrain, objectives, the battlefield; :func:`parse_table` for data.
- :mod:`rulekb.engine.table.tenth` — the 10th edition's table rules returning :class:`Verdict` with reasons.
- :mod:`rulekb.engine.table.older` — the 6th/7th-edition and Kill Team table rules.
- :mod:`rulekb.engine.table.svg` — diagrams.
"""

from __future__ import annotations

from rulekb.engine.table.geometry import Base, Model, inches, millimetres
from rulekb.engine.table.measure import (
    CoherencyReport,
    base_contact,
    coherency,
    in_engagement_range,
    in_range,
)
from rulekb.engine.table.state import Objective, Table, Terrain, Unit, parse_table
from rulekb.engine.table.svg import render_svg
from rulekb.engine.table.verdict import Reason, Verdict

__all__ = [
    "Base",
    "CoherencyReport",
    "Model",
    "Objective",
    "Reason",
    "Table",
    "Terrain",
    "Unit",
    "Verdict",
    "base_contact",
    "coherency",
    "in_engagement_range",
    "in_range",
    "inches",
    "millimetres",
    "parse_table",
    "render_svg",
]
