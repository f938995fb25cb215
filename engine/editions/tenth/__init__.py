"""The 10th edition, as the corpus text ``10e-core`` states it (line numbers cite that text).

The Strength-versus-Toughness table the text refers to («как показано ниже», 616) is not printed;
:meth:`Tenth.wound_target` implements the edition's table. Everything else follows the printed rules:
hit roll 604–612, wound roll 614–624, allocation 626–632, saves 634–657, mortal wounds 659–670,
damage 672–677, Feel No Pain 679–683, weapon abilities 712–963, cover 1629–1645.

- :mod:`.edition` — :class:`Tenth`: flags, rolls and tests, the attack sequence step by step;
- :mod:`.rules` — the edition's other rules as plain functions (abilities, Desperate Escape, Deadly Demise…);
- :mod:`.checks` — what a profile must hold before the attack sequence runs.
"""

from __future__ import annotations

from rulekb.engine.editions.tenth.edition import Tenth
from rulekb.engine.editions.tenth.rules import (
    SRC,
    anti_threshold,
    attached_starting_strength,
    attached_unit_victory_points,
    below_half_strength,
    blast_bonus,
    command_points,
    deadly_demise,
    deadly_demise_roll,
    desperate_escape,
    desperate_escape_rolls,
    destroyed_transport,
    destroyed_transport_rolls,
    devastating_wounds,
    feel_no_pain,
    grenade,
    hazardous,
    indirect_fire,
    melta_damage,
    rapid_fire_attacks,
    sustained_hits,
    tank_shock,
)

__all__ = [
    "SRC",
    "Tenth",
    "anti_threshold",
    "attached_starting_strength",
    "attached_unit_victory_points",
    "below_half_strength",
    "blast_bonus",
    "command_points",
    "deadly_demise",
    "deadly_demise_roll",
    "desperate_escape",
    "desperate_escape_rolls",
    "destroyed_transport",
    "destroyed_transport_rolls",
    "devastating_wounds",
    "feel_no_pain",
    "grenade",
    "hazardous",
    "indirect_fire",
    "melta_damage",
    "rapid_fire_attacks",
    "sustained_hits",
    "tank_shock",
]
