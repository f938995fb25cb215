"""The 10th edition's table rules as functions over a :class:`~rulekb.engine.table.state.Table`, by phase.

Each function returns a :class:`~rulekb.engine.table.verdict.Verdict` whose reasons name the rule (concept
and lines of ``10e-core``) they apply. Lines follow the text; where the text prints no number (the
pivot values' table is lost in the translation, 398–399) the caller gives it.

- :mod:`.battle` — the battle round, mustering an army, the mission sequence;
- :mod:`.command` — command points, Battle-shock, Below Half-strength;
- :mod:`.stratagems` — a stratagem's cost and the core stratagems on the table;
- :mod:`.movement` — moves, advances, falling back, surge moves, the pivot axis;
- :mod:`.arrivals` — Reserves, Strategic Reserves, Scouts and Infiltrators;
- :mod:`.transports` — embarking, disembarking, destroyed transports, Firing Deck;
- :mod:`.aircraft` — AIRCRAFT moves and deployment, Hover;
- :mod:`.charge` — charge eligibility, the roll needed, the charge move, barricades;
- :mod:`.fight` — fight eligibility and order, the models that fight, pile in, consolidate, Attached units;
- :mod:`.objectives` — objective range and control;
- :mod:`.shooting` — visibility, cover, choosing targets, auras;
- :mod:`.common` — Engagement Range and what the phases share.

Every rule is importable from this package: ``from rulekb.engine.table.tenth import move``.
"""

from __future__ import annotations

from rulekb.engine.table.tenth.aircraft import (
    aircraft_deployment,
    aircraft_move,
)
from rulekb.engine.table.tenth.arrivals import (
    infiltrators_set_up,
    reserves_set_up,
    scouts_move,
    strategic_reserves_allowed,
    strategic_reserves_arrive,
)
from rulekb.engine.table.tenth.battle import (
    BATTLE_SIZES,
    MISSION_STEPS,
    mission_sequence,
    muster_army,
    turn_sequence,
)
from rulekb.engine.table.tenth.charge import (
    across_barricade,
    charge_eligible,
    charge_move,
    charge_needed,
    charge_success,
)
from rulekb.engine.table.tenth.command import (
    battle_shock_step,
    below_half_strength,
    command_phase,
    gain_command_points,
)
from rulekb.engine.table.tenth.common import (
    ENGAGEMENT,
    ENGAGEMENT_UP,
    FREE_CLIMB,
    PHASES,
    TENTH,
    engaged_with,
    figure,
    gap2,
    reaches_contact,
)
from rulekb.engine.table.tenth.fight import (
    attached_unit,
    consolidate,
    fight_eligible,
    fight_order,
    fighting_models,
    pile_in,
)
from rulekb.engine.table.tenth.movement import (
    advance,
    base_contact_ok,
    centre_without_base,
    desperate_escape,
    fall_back,
    fly,
    move,
    normal_move,
    remain_stationary,
    surge_move,
    terrain_movement,
)
from rulekb.engine.table.tenth.objectives import (
    objective_control,
    objective_range,
)
from rulekb.engine.table.tenth.shooting import (
    aura,
    benefit_of_cover,
    select_target,
    visible,
)
from rulekb.engine.table.tenth.stratagems import (
    CORE_STRATAGEMS,
    core_stratagem,
    use_stratagem,
)
from rulekb.engine.table.tenth.transports import (
    destroyed_transport,
    disembark,
    embark,
    firing_deck,
)

__all__ = [
    "BATTLE_SIZES",
    "CORE_STRATAGEMS",
    "ENGAGEMENT",
    "ENGAGEMENT_UP",
    "FREE_CLIMB",
    "MISSION_STEPS",
    "PHASES",
    "TENTH",
    "across_barricade",
    "advance",
    "aircraft_deployment",
    "aircraft_move",
    "attached_unit",
    "aura",
    "base_contact_ok",
    "battle_shock_step",
    "below_half_strength",
    "benefit_of_cover",
    "centre_without_base",
    "charge_eligible",
    "charge_move",
    "charge_needed",
    "charge_success",
    "command_phase",
    "consolidate",
    "core_stratagem",
    "desperate_escape",
    "destroyed_transport",
    "disembark",
    "embark",
    "engaged_with",
    "fall_back",
    "fight_eligible",
    "fight_order",
    "fighting_models",
    "figure",
    "firing_deck",
    "fly",
    "gain_command_points",
    "gap2",
    "infiltrators_set_up",
    "mission_sequence",
    "move",
    "muster_army",
    "normal_move",
    "objective_control",
    "objective_range",
    "pile_in",
    "reaches_contact",
    "remain_stationary",
    "reserves_set_up",
    "scouts_move",
    "select_target",
    "strategic_reserves_allowed",
    "strategic_reserves_arrive",
    "surge_move",
    "terrain_movement",
    "turn_sequence",
    "use_stratagem",
    "visible",
]
