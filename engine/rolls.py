"""One D6 rolled against a target, with critical results and an explicit re-roll policy.

A :class:`D6Test` says, for each face of the die, whether the roll fails, succeeds or is a critical
success, after the modifier. Criticals are a property of the *unmodified* face (after re-rolls, before
modifiers), so they are tracked as an outcome of their own, never inferred from the modified result.

Re-rolls happen before modifiers (10e-core 230–235; 6e-rules 190–196: a die is re-rolled at most once
and the second result stands). Which faces a player re-rolls is a policy, made explicit here:

``ones``               re-roll an unmodified 1.
``failed``             re-roll any die that will fail once modifiers are applied (the 10th edition lets
                       a player re-roll any die; re-rolling exactly the failures is the best plain play).
``failed-unmodified``  re-roll only dice below the unmodified target — how some calculators read
                       "re-roll failed" in earlier editions; a natural 5 needing 5+ at -1 is kept.
``noncrit``            re-roll everything that is not a critical (fishing for Lethal/Sustained Hits).
``single``             one die of the whole pool (e.g. the Command Re-roll stratagem); the attack
                       sequence applies it to one failed die of the pool, never per die here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from fractions import Fraction

from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.errors import DiceError

__all__ = ["D6Test", "Outcome", "Reroll", "parse_reroll", "reroll_sum"]

FACES = (1, 2, 3, 4, 5, 6)


class Reroll(StrEnum):
    NONE = "none"
    ONES = "ones"
    FAILED = "failed"
    FAILED_UNMODIFIED = "failed-unmodified"
    NONCRIT = "noncrit"
    SINGLE = "single"


_ALIASES: dict[str, Reroll] = {
    "": Reroll.NONE,
    "no": Reroll.NONE,
    "1": Reroll.ONES,
    "1s": Reroll.ONES,
    "one": Reroll.ONES,
    "fail": Reroll.FAILED,
    "fails": Reroll.FAILED,
    "failures": Reroll.FAILED,
    "all": Reroll.FAILED,
    "any": Reroll.FAILED,
    "unmodified": Reroll.FAILED_UNMODIFIED,
    "non-crit": Reroll.NONCRIT,
    "non-critical": Reroll.NONCRIT,
    "crit": Reroll.NONCRIT,
    "fish": Reroll.NONCRIT,
    "one-die": Reroll.SINGLE,
    "command": Reroll.SINGLE,
    "command-reroll": Reroll.SINGLE,
}


def parse_reroll(value: str | Reroll | None) -> Reroll:
    """A re-roll policy from its name or a common alias (``"1s"``, ``"fail"``, ``"non-crit"``…)."""
    if value is None:
        return Reroll.NONE
    if isinstance(value, Reroll):
        return value
    key = str(value).strip().lower().replace("_", "-").replace(" ", "-")
    try:
        return Reroll(key)
    except ValueError:
        pass
    if key in _ALIASES:
        return _ALIASES[key]
    names = ", ".join(r.value for r in Reroll)
    raise DiceError(f"Unknown re-roll policy {value!r}; use one of: {names}.")


class Outcome(IntEnum):
    FAIL = 0
    SUCCESS = 1
    CRITICAL = 2


@dataclass(frozen=True)
class D6Test:
    """Roll one D6; succeed when ``face + modifier >= target``.

    ``critical_on``: an unmodified face at or above it is a critical success (always succeeds);
    ``None`` means this roll has no criticals. ``fails_up_to``: unmodified faces at or below it always
    fail (1 for most 10th-edition rolls; 3 for Indirect Fire hit rolls; 0 for none). ``target=None``:
    only criticals can succeed (Fire Overwatch: «немодифицированный 6»).
    """

    target: int | None
    modifier: int = 0
    critical_on: int | None = None
    fails_up_to: int = 1
    reroll: Reroll = Reroll.NONE

    def face(self, face: int) -> Outcome:
        """The outcome of one unmodified face (after any re-roll)."""
        if face <= self.fails_up_to:
            return Outcome.FAIL
        if self.critical_on is not None and face >= self.critical_on:
            return Outcome.CRITICAL
        if self.target is not None and face + self.modifier >= self.target:
            return Outcome.SUCCESS
        return Outcome.FAIL

    def rerolled(self, face: int) -> bool:
        """Whether the policy re-rolls this face of the first roll."""
        policy = self.reroll
        outcome = self.face(face)
        if policy is Reroll.ONES:
            return face == 1
        if policy is Reroll.FAILED:
            return outcome is Outcome.FAIL
        if policy is Reroll.FAILED_UNMODIFIED:
            return outcome is not Outcome.CRITICAL and (
                face <= self.fails_up_to or self.target is None or face < self.target
            )
        if policy is Reroll.NONCRIT:
            return outcome is not Outcome.CRITICAL if self.critical_on is not None else outcome is Outcome.FAIL
        return False

    def first_roll(self) -> tuple[Fraction, Fraction, Fraction]:
        counts = [0, 0, 0]
        for f in FACES:
            counts[self.face(f)] += 1
        return (Fraction(counts[0], 6), Fraction(counts[1], 6), Fraction(counts[2], 6))

    def probabilities(self) -> tuple[Fraction, Fraction, Fraction]:
        """``(P(fail), P(success, not critical), P(critical))`` with the per-die re-roll policy applied."""
        first = self.first_roll()
        result = [Fraction(0), Fraction(0), Fraction(0)]
        for f in FACES:
            if self.rerolled(f):
                for i in range(3):
                    result[i] += first[i] / 6
            else:
                result[self.face(f)] += Fraction(1, 6)
        return (result[0], result[1], result[2])

    @property
    def p_success(self) -> Fraction:
        """P(success or critical)."""
        fail, _, _ = self.probabilities()
        return 1 - fail


@rule("re-roll", cite("10e-core", 228, 235), cite("6e-rules", 190, 196))
def reroll_sum(dice: Dist, keep: int, policy: Reroll = Reroll.FAILED, at_least: bool = True) -> Fraction:
    """P(a sum of several dice reaches ``keep``) when a failed total may be re-rolled once.

    Both editions say a re-roll of 2D6 or 3D6 re-rolls all the dice (10e-core 230/234, 6e-rules 196);
    so a failed total is rolled again and the second total stands. ``at_least=False`` is for roll-under
    tests (a 6th-edition Leadership test passes at or below the value).
    """
    p = dice.p_at_least(keep) if at_least else dice.p_at_most(keep)
    if policy is Reroll.NONE:
        return p
    if policy in (Reroll.FAILED, Reroll.SINGLE, Reroll.NONCRIT, Reroll.FAILED_UNMODIFIED):
        return p + (1 - p) * p
    raise DiceError(f"Re-roll policy {policy.value!r} does not apply to a sum of dice; use 'failed' or 'none'.")
