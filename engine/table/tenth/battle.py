"""The battle round's sequence, mustering an army and the mission sequence (10e-core 256–277, 1916–2042).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulekb.engine.concepts import cite, rule
from rulekb.engine.table.tenth.common import PHASES
from rulekb.engine.table.verdict import Verdict

__all__ = [
    "BATTLE_SIZES",
    "MISSION_STEPS",
    "mission_sequence",
    "muster_army",
    "turn_sequence",
]


@rule("battle-round", cite("10e-core", 256, 277))
def turn_sequence(active: str, players: Sequence[str] = ("A", "B")) -> list[tuple[str, str]]:
    """A battle round: each player's turn in turn, each of five phases in order."""
    order = [active] + [p for p in players if p != active]
    return [(p, phase) for p in order for phase in PHASES]


BATTLE_SIZES = {"incursion": 1000, "strike-force": 2000, "onslaught": 3000}

MISSION_STEPS = ("muster armies", "read mission objectives", "create the battlefield",
                 "determine attacker and defender", "declare battle formations", "deploy armies",
                 "determine first turn", "resolve pre-battle rules", "begin the battle", "end the battle",
                 "determine the victor")


@rule("muster-army", cite("10e-core", 1916, 1972))
def muster_army(units: Sequence[Mapping[str, object]], points_limit: int, faction: str) -> Verdict:
    """Mustering an army: every unit has the army's Faction keyword; the points fit the battle size; at most three
    units of one datasheet (six of BATTLELINE or DEDICATED TRANSPORT); at least one CHARACTER; at most three
    Enhancements, each unique, on CHARACTERS that are not EPIC HEROES, one per unit; an EPIC HERO once; a
    DEDICATED TRANSPORT starts with a unit aboard; one CHARACTER is the Warlord."""
    out = Verdict()
    total = sum(int(str(u.get("points", 0))) for u in units)
    out.check(muster_army, total <= points_limit, f"{total} points of {points_limit}")
    for u in units:
        kws = {str(k).upper() for k in u.get("keywords", [])}  # type: ignore[attr-defined]
        if faction.upper() not in kws:
            out.check(muster_army, False, f"{u.get('name')} lacks the Faction keyword {faction}")
    counts: dict[str, int] = {}
    for u in units:
        counts[str(u.get("name"))] = counts.get(str(u.get("name")), 0) + 1
    for name, n in counts.items():
        kws = {str(k).upper() for u in units if u.get("name") == name for k in u.get("keywords", [])}  # type: ignore[attr-defined]
        limit = 6 if kws & {"BATTLELINE", "DEDICATED TRANSPORT"} else 3
        out.check(muster_army, n <= limit, f"{n} x {name} (at most {limit})")
    chars = [u for u in units if "CHARACTER" in {str(k).upper() for k in u.get("keywords", [])}]  # type: ignore[attr-defined]
    out.check(muster_army, bool(chars), "at least one CHARACTER")
    enh = [str(u["enhancement"]) for u in units if u.get("enhancement")]
    out.check(muster_army, len(enh) <= 3 and len(set(enh)) == len(enh), f"{len(enh)} Enhancement(s), each unique, at most 3")
    for u in units:
        if u.get("enhancement"):
            kws = {str(k).upper() for k in u.get("keywords", [])}  # type: ignore[attr-defined]
            out.check(muster_army, "CHARACTER" in kws and "EPIC HERO" not in kws,
                      f"{u.get('name')}'s Enhancement is on a CHARACTER that is not an EPIC HERO")
        if "DEDICATED TRANSPORT" in {str(k).upper() for k in u.get("keywords", [])}:  # type: ignore[attr-defined]
            out.check(muster_army, bool(u.get("aboard")), f"{u.get('name')} starts with a unit aboard")
    heroes = [str(u.get("name")) for u in units if "EPIC HERO" in {str(k).upper() for k in u.get("keywords", [])}]  # type: ignore[attr-defined]
    out.check(muster_army, len(set(heroes)) == len(heroes), "each EPIC HERO at most once")
    warlords = [u for u in units if u.get("warlord")]
    out.check(muster_army, len(warlords) == 1 and warlords[0] in chars, "one CHARACTER is the Warlord")
    out.values.update({"points": total, "limit": points_limit})
    return out


@rule("mission", cite("10e-core", 1976, 2042))
def mission_sequence(first_turn: str, players: Sequence[str] = ("A", "B")) -> Verdict:
    """The mission's steps in order; pre-battle rules are resolved in turn starting with the player who takes the
    first turn (as Scouts moves are)."""
    out = Verdict()
    out.note(mission_sequence, " → ".join(MISSION_STEPS))
    order = [first_turn] + [p for p in players if p != first_turn]
    out.values.update({"steps": list(MISSION_STEPS), "pre_battle_order": order})
    return out
