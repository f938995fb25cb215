"""Transports: embarking, disembarking, a destroyed transport and Firing Deck (10e-core 469–531).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.errors import ProfileError
from rulekb.engine.table.geometry import (
    Model,
    wholly_within,
    within,
)
from rulekb.engine.table.measure import in_engagement_range
from rulekb.engine.table.state import Table
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "destroyed_transport",
    "disembark",
    "embark",
    "firing_deck",
]


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
