"""What a 10th-edition attack profile must hold before the attack sequence runs, each failure naming the
field and the fix."""

from __future__ import annotations

from rulekb.engine.errors import ProfileError
from rulekb.engine.profiles import Profile
from rulekb.engine.rolls import Reroll

__all__ = ["check_profile"]


def check_profile(profile: Profile) -> None:
    """Raise :class:`ProfileError` for a profile the 10th edition cannot resolve (an older-edition rule, a
    characteristic out of range)."""
    w, d = profile.weapon, profile.defender
    if profile.attackers < 1:
        raise ProfileError("attacker.models", f"{profile.attackers!r} attacking models; give at least 1.")
    if w.skill is None and not w.abilities.torrent:
        raise ProfileError("weapon.skill", "needs a BS/WS target like 3 (for 3+), unless the weapon has Torrent.")
    if w.skill is not None and not 2 <= w.skill <= 6:
        raise ProfileError("weapon.skill", f"{w.skill!r} is not a 10th-edition BS/WS; use 2–6 (3 means 3+).")
    if w.ap is not None and w.ap > 0:
        raise ProfileError("weapon.ap", f"{w.ap!r}: 10th-edition AP is 0 or negative; did you mean {-w.ap}?")
    if w.strength < 1 or d.toughness < 1:
        raise ProfileError("weapon.strength" if w.strength < 1 else "defender.toughness", "must be at least 1.")
    for name, value in (("defender.save", d.save), ("defender.invulnerable", d.invulnerable), ("defender.fnp", d.fnp)):
        if value is not None and not 2 <= value <= 6:
            raise ProfileError(name, f"{value!r} is not a D6 target; use 2–6 (4 means 4+) or leave it out.")
    if w.abilities.exploding_hits is not None:
        raise ProfileError("weapon.abilities", "exploding-hits is an older-edition rule; in the 10th edition "
                           "write 'sustained-hits X'.")
    for name, value in (("criticals.hit", profile.critical_hit_on), ("criticals.wound", profile.critical_wound_on)):
        if not 2 <= value <= 6:
            raise ProfileError(name, f"{value!r}: a critical threshold is an unmodified 2+ to 6+.")
    if profile.rerolls.save is Reroll.SINGLE:
        raise ProfileError("rerolls.save", "a single re-roll of one save is not modelled; use none, ones or failed.")
    for name, value in (("situation.snap_shots", profile.situation.snap_shots),
                        ("situation.two_weapons", profile.situation.two_weapons)):
        if value:
            raise ProfileError(name, "is a 6th/7th-edition rule; choose edition 6 or 7, or drop it.")
