"""The table engine: models on bases at exact positions, units, terrain and objective markers, and the rules
that move, charge, fight, control and embark them (standard library only, exact ``Fraction`` inches).

- :mod:`engine.table.geometry` — bases (mm converted exactly), distances between closest points, within,
  wholly within, footprints, rational rim points for sight lines.
- :mod:`engine.table.measure` — range, engagement range and coherency by edition, base contact.
- :mod:`engine.table.state` — units, terrain, objectives, the battlefield; :func:`parse_table` for data.
- :mod:`engine.table.tenth` — the 10th edition's table rules returning :class:`Verdict` with reasons.
- :mod:`engine.table.older` — the 6th/7th-edition and Kill Team table rules.
- :mod:`engine.table.svg` — diagrams.
"""

from __future__ import annotations

from engine.table.geometry import Base, Model, inches, millimetres
from engine.table.measure import CoherencyReport, base_contact, coherency, in_engagement_range, in_range
from engine.table.state import Objective, Table, Terrain, Unit, parse_table
from engine.table.svg import render_svg
from engine.table.verdict import Reason, Verdict

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
