"""The base rule set: what every edition answers, and the flags where editions differ.

An edition is a declared variant (the python-chess ``VARIANTS`` pattern): rule differences are
``ClassVar`` flags and overridden hooks on a subclass, and :mod:`rulekb.engine.editions` keeps a registry with
alias lookup. Hooks an edition does not have raise :class:`~rulekb.engine.errors.RuleNotInEdition`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from rulekb.engine.attack import AttackPlan, AttackResult, resolve
from rulekb.engine.concepts import Citation
from rulekb.engine.dice import Dist
from rulekb.engine.errors import RuleNotInEdition
from rulekb.engine.profiles import Profile
from rulekb.engine.rolls import Reroll

__all__ = ["Edition"]


class Edition:
    """One edition's rules. Subclasses set the class variables and override the hooks."""

    key: ClassVar[str] = ""
    """Short id matching the corpus manifest's ``edition`` field: ``"10"``, ``"6"``, ``"7"``, ``"kt"``."""
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    sources: ClassVar[tuple[str, ...]] = ()
    """Corpus source ids whose text this edition follows."""

    # --- where editions differ -------------------------------------------------------------------
    critical_results: ClassVar[bool] = False
    """Unmodified 6s to hit and to wound are critical and trigger weapon abilities."""
    hit_modifier_cap: ClassVar[int | None] = None
    """The hit and wound rolls can never be modified by more than this (10th: 1)."""
    save_improvement_cap: ClassVar[int | None] = None
    """A saving throw can never be improved by more than this (10th: 1)."""
    leadership_roll_under: ClassVar[bool] = True
    """Leadership tests pass at or below Ld on 2D6 (6th/7th) rather than at or above it (10th)."""
    charge_dice: ClassVar[int] = 2
    engagement_horizontal: ClassVar[float | None] = None
    """Engagement Range across the table in inches (10th: 1); ``None`` where models fight in base contact."""
    engagement_vertical: ClassVar[float | None] = None
    """Engagement Range up or down in inches (10th: 5)."""
    coherency_horizontal: ClassVar[float] = 2.0
    """Inches across the table within which a model counts as a neighbour for coherency."""
    coherency_vertical: ClassVar[float | None] = None
    """Inches up or down within which a model counts as a neighbour (10th: 5); ``None``: no limit."""
    coherency_two_neighbours_from: ClassVar[int | None] = None
    """Unit size from which each model needs two neighbours (10th: 7)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    # --- the attack sequence -----------------------------------------------------------------------
    def plan(self, profile: Profile) -> AttackPlan:
        raise RuleNotInEdition(f"{self.name} has no attack sequence in this engine.")

    def attack(self, profile: Profile) -> AttackResult:
        """Resolve one weapon's attacks against one unit."""
        return resolve(self.plan(profile))

    def wound_target(self, strength: int, toughness: int) -> int | None:
        """The D6 result needed to wound, or ``None`` when the attack cannot wound («–»)."""
        raise RuleNotInEdition(f"{self.name} has no wound roll here.")

    # --- tests -------------------------------------------------------------------------------------
    def leadership_test(self, leadership: int, modifier: int = 0, reroll: Reroll = Reroll.NONE) -> Fraction:
        """P(pass) of the edition's Leadership test (battle-shock in the 10th)."""
        raise RuleNotInEdition(f"{self.name} has no Leadership test here.")

    def charge_roll(self) -> Dist:
        """The charge distance rolled, in inches."""
        return Dist.die(6).times(self.charge_dice)

    def charge(self, needed: int, reroll: Reroll = Reroll.NONE, difficult_terrain: bool = False) -> Fraction:
        """P(the charge roll reaches ``needed`` inches)."""
        raise RuleNotInEdition(f"{self.name} has no charge rule here.")

    def overwatch_hit(self, skill: int) -> Fraction:
        """P(one overwatch shot hits) for the attacker's skill."""
        raise RuleNotInEdition(f"{self.name} has no overwatch here.")

    def normal_hit(self, skill: int) -> Fraction:
        """P(one ordinary shot hits) for the attacker's skill, no modifiers."""
        raise RuleNotInEdition(f"{self.name} has no hit roll here.")

    @classmethod
    def citations(cls) -> tuple[Citation, ...]:
        return ()
