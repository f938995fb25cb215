"""What every phase of the 10th edition's table rules shares: the edition, Engagement Range, the 2" free
climb, the phases, the enemy units a unit is engaged with, and squared gaps between bases.
"""

from __future__ import annotations

from fractions import Fraction

from rulekb.engine.editions import Tenth
from rulekb.engine.table.geometry import (
    Model,
    sqrt_at_most,
)
from rulekb.engine.table.measure import in_engagement_range
from rulekb.engine.table.state import Table, Unit

__all__ = [
    "ENGAGEMENT",
    "ENGAGEMENT_UP",
    "FREE_CLIMB",
    "PHASES",
    "TENTH",
    "engaged_with",
    "figure",
    "gap2",
    "reaches_contact",
]


TENTH = Tenth()
ENGAGEMENT = Fraction(1)
ENGAGEMENT_UP = Fraction(5)
FREE_CLIMB = Fraction(2)
PHASES = ("command", "movement", "shooting", "charge", "fight")


def figure(x: Fraction | int | float) -> float:
    """A length as the figure printed in a reason (a float to six places)."""
    return round(float(x), 6)


def engaged_with(table: Table, unit: Unit, ignore_aircraft: bool = False) -> list[Unit]:
    """The enemy units within Engagement Range of any model of ``unit``."""
    return [
        e for e in table.enemies_of(unit)
        if not (ignore_aircraft and e.has("AIRCRAFT"))
        and any(in_engagement_range(m, o) for m in unit.models for o in e.models)
    ]


def gap2(a: Model, b: Model) -> Fraction:
    """The squared horizontal distance between two models' centres."""
    return (a.x - b.x) ** 2 + (a.y - b.y) ** 2


def reaches_contact(a: Model, b: Model, inches_: int | Fraction) -> bool:
    """Whether ``a`` could move ``inches_`` into base contact with ``b`` on the same level."""
    return a.z == b.z and sqrt_at_most(gap2(a, b), Fraction(inches_) + a.base.rx + b.base.rx)
