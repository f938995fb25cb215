"""Stratagems: their cost and once-per-phase limit, and each core stratagem's WHEN and TARGET on the table
(10e-core 1296–1299, 1377–1567).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import (
    distance_within,
)
from rulekb.engine.table.state import Table
from rulekb.engine.table.tenth.common import engaged_with
from rulekb.engine.table.tenth.shooting import visible
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "CORE_STRATAGEMS",
    "core_stratagem",
    "use_stratagem",
]


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
