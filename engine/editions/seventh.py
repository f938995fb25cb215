"""The 7th edition where the corpus (``7e-pp58-67``, rulebook pp. 58–67) prints rules of its own.

Everything else is inherited from the 6th edition: the corpus holds no 7th-edition text for the
attack sequence, Leadership tests or charges, and those rules did not change in substance.
Printed here: falling back (2D6, or 3D6 for bikes, jetbikes, jump units, beasts and cavalry),
regrouping (a normal Leadership test at 25% strength or with an independent character, else only
«insane heroism» on a double 1; always a normal test when charged), jump units re-rolling the charge
distance, and bike riders each firing one weapon.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.editions.sixth import Sixth
from rulekb.engine.rolls import Reroll

__all__ = ["FALL_BACK_3D6", "Seventh"]

S = "7e-pp58-67"

#: Unit types that fall back 3D6" (7e-pp58-67 131, 211, 263, 279).
FALL_BACK_3D6 = frozenset({"bike", "jetbike", "jump", "beast", "beasts", "cavalry"})


class Seventh(Sixth):
    key: ClassVar[str] = "7"
    name: ClassVar[str] = "Warhammer 40,000, 7th edition"
    aliases: ClassVar[tuple[str, ...]] = ("7th", "7e", "seventh", "7 ed", "7th edition", "седьмая", "семерка", "7-я")
    sources: ClassVar[tuple[str, ...]] = (S, "6e-rules", "6e-assault")

    @rule("fall-back", cite(S, 129, 131), cite(S, 207, 211), cite(S, 261, 263), cite(S, 277, 279))
    def fall_back_distance(self, unit_type: str = "infantry") -> Dist:
        """Falling back: 2D6", or 3D6" for bikes and jetbikes, jump units, beasts and cavalry."""
        dice = 3 if unit_type.strip().lower() in FALL_BACK_3D6 else 2
        return Dist.die(6).times(dice)

    @rule("regroup", cite(S, 27, 53))
    def regroup_test(
        self,
        leadership: int,
        models_left: int,
        starting_models: int,
        independent_character: bool = False,
        charged: bool = False,
    ) -> Fraction:
        """P(a falling-back unit regroups). With at least 25% of its models alive, an independent
        character, or when it has been charged: a normal Leadership test. Otherwise it regroups only on
        «insane heroism», a double 1."""
        if charged or independent_character or 4 * models_left >= starting_models:
            return self.leadership_test(leadership)
        return Fraction(1, 36)

    @rule("charge", cite(S, 203, 205))
    def jump_charge(self, needed: int) -> Fraction:
        """A jump unit using its jump pack to charge may re-roll the charge distance."""
        return self.charge(needed, Reroll.FAILED)

    @rule("fall-back", cite(S, 7, 9), cite(S, 23))
    def trapped(self, fall_back_roll: int, free_distance: float) -> bool:
        """A unit that cannot make its full fall back move (blocked by terrain, or it would come within
        1" of the enemy) is destroyed."""
        return free_distance < fall_back_roll

    @rule("bikes", cite(S, 133, 135))
    def bike_weapons_fired(self, riders: int) -> int:
        """Each rider of a bike or jetbike fires one weapon (an attack bike's driver and sidecar gunner: two)."""
        return riders
