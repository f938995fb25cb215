"""The 6th edition, as the corpus texts ``6e-rules`` and ``6e-assault`` state it.

Printed and followed: the close-combat hit table by WS comparison (6e-assault 154–160), WS and
Toughness by majority (164–183), attacks (142–152), initiative steps (115–137), charges (59–92),
overwatch as snap shots (49–57), saves (194–201), Look Out Sir (209–212), combat results (214–226),
sweeping advance (231–241), Leadership and characteristic tests, modifiers, D3, re-rolls, roll-offs
and random selection (6e-rules). Referred to but not printed in the corpus (the shooting chapter):
the wound chart, the to-hit chart by BS, snap shots hitting on 6, AP ignoring armour of equal or
worse value, and the BS reduction of blast scatter; those hooks implement the edition's tables and
cite the lines that refer to them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from rulekb.engine.attack import AttackPlan, Step
from rulekb.engine.concepts import Citation, cite, rule
from rulekb.engine.dice import D3, Dist
from rulekb.engine.editions.base import Edition
from rulekb.engine.editions.sixth_rolls import (
    drop_highest,
    random_selection,
    random_selection_rerolls,
    roll_off,
    split_roll,
)
from rulekb.engine.errors import ProfileError
from rulekb.engine.profiles import Profile
from rulekb.engine.rolls import D6Test, Reroll, reroll_sum

__all__ = ["Sixth", "drop_highest", "random_selection", "random_selection_rerolls", "roll_off", "split_roll"]

R, A = "6e-rules", "6e-assault"
SIXTH_ABILITIES = {"twin_linked", "ignores_cover", "exploding_hits"}


class Sixth(Edition):
    key: ClassVar[str] = "6"
    name: ClassVar[str] = "Warhammer 40,000, 6th edition"
    aliases: ClassVar[tuple[str, ...]] = ("6th", "6e", "sixth", "6 ed", "6th edition", "шестая", "шестерка", "6-я")
    sources: ClassVar[tuple[str, ...]] = (R, A)
    leadership_roll_under = True

    # --- to hit ------------------------------------------------------------------------------------
    @rule("hit-roll", cite(A, 154, 160))
    def melee_hit_target(self, attacker_ws: int, defender_ws: int) -> int:
        """Close combat: attacker's WS higher → 3+; equal or lower → 4+; the target's WS more than twice
        the attacker's → 5+. A target with WS 0 is hit automatically (6e-rules 100): returns 1."""
        if defender_ws == 0:
            return 1
        if attacker_ws > defender_ws:
            return 3
        if defender_ws > 2 * attacker_ws:
            return 5
        return 4

    @rule("hit-roll", cite(R, 39, 41))
    def shooting_hit(self, ballistic_skill: int, reroll: Reroll = Reroll.NONE) -> Fraction:
        """The to-hit chart by BS (not printed in the corpus): BS 1–5 hit on (7 − BS)+; from BS 6 a shot
        hits on 2+ and a 1 may be re-rolled, hitting on (12 − BS)+. A die is re-rolled once at most."""
        if ballistic_skill <= 0:
            return Fraction(0)
        if ballistic_skill <= 5:
            return D6Test(target=7 - ballistic_skill, reroll=reroll).p_success
        if reroll is not Reroll.NONE:  # one re-roll only: the better one (at 2+) replaces the BS re-roll
            return D6Test(target=2, reroll=Reroll.FAILED).p_success
        return Fraction(5, 6) + Fraction(1, 6) * Fraction(min(ballistic_skill, 10) - 5, 6)

    def shooting_faces(self, ballistic_skill: int, reroll: Reroll = Reroll.NONE) -> tuple[Fraction, Fraction, Fraction]:
        """``(P(miss), P(hit on a face other than 6), P(hit on a 6))`` for a shot at BS ``ballistic_skill``;
        the 6s matter to rules that score extra hits on them."""
        p = self.shooting_hit(ballistic_skill, reroll)
        if ballistic_skill <= 0:
            return (Fraction(1), Fraction(0), Fraction(0))
        if ballistic_skill <= 5:
            return D6Test(target=7 - ballistic_skill, reroll=reroll, critical_on=6).probabilities()
        six = Fraction(1, 6) + Fraction(1, 36)  # a 6 first, or a 1 re-rolled into a 6
        return (1 - p, p - six, six)

    def snap_shot_faces(self, reroll: Reroll = Reroll.NONE) -> tuple[Fraction, Fraction, Fraction]:
        """Snap shots hit only on a 6, so every hit is on a 6."""
        p = self.snap_shot_hit(reroll)
        return (1 - p, Fraction(0), p)

    @rule("snap-shots", cite(A, 49, 57))
    def snap_shot_hit(self, reroll: Reroll = Reroll.NONE) -> Fraction:
        """Snap shots (all overwatch fire) hit only on a 6, whatever the BS (the rule is in the shooting
        chapter, not in the corpus; 6e-assault 54 requires overwatch to be snap shots)."""
        return D6Test(target=6, reroll=reroll).p_success

    @rule("overwatch", cite(A, 49, 57))
    def overwatch_hit(self, skill: int) -> Fraction:
        return self.snap_shot_hit()

    @rule("hit-roll", cite(R, 39, 41))
    def normal_hit(self, skill: int) -> Fraction:
        return self.shooting_hit(skill)

    # --- to wound and saves -----------------------------------------------------------------------
    @rule("wound-roll", cite(A, 171, 178))
    def wound_target(self, strength: int, toughness: int) -> int | None:
        """The wound chart (referred to at 6e-assault 174, not printed): S ≥ T+2: 2+; T+1: 3+; T: 4+;
        T−1: 5+; T−2 or T−3: 6+; lower: «–», cannot wound. Strength or Toughness 0 cannot wound/removes."""
        if strength <= 0:
            return None
        diff = strength - toughness
        if diff >= 2:
            return 2
        if diff >= -1:
            return 4 - diff
        if diff >= -3:
            return 6
        return None

    @rule("armour-save", cite(A, 194, 201), cite(R, 69, 71))
    def save_fail(
        self,
        save: int | None,
        ap: int | None,
        invulnerable: int | None = None,
        cover: int | None = None,
        melee: bool = False,
        reroll: Reroll = Reroll.NONE,
    ) -> tuple[Fraction, str]:
        """P(the wound is not saved), taking the single best save allowed: armour unless the AP is equal
        to or better than it, cover (never in close combat), invulnerable (always usable)."""
        options: list[tuple[int, str]] = []
        if save is not None and (ap is None or ap > save):
            options.append((save, "armour"))
        if cover is not None and not melee:
            options.append((cover, "cover"))
        if invulnerable is not None:
            options.append((invulnerable, "invulnerable"))
        if not options:
            return Fraction(1), "none"
        best, kind = min(options)
        return 1 - D6Test(target=best, reroll=reroll).p_success, kind

    # --- tests -------------------------------------------------------------------------------------
    @rule("leadership-test", cite(R, 293, 315))
    def leadership_test(self, leadership: int, modifier: int = 0, reroll: Reroll = Reroll.NONE) -> Fraction:
        """Roll 2D6: pass at or below Ld (after modifiers); a double 1 always passes."""
        roll = Dist.die(6).times(2)
        p = roll.p_at_most(leadership + modifier)
        if leadership + modifier < 2:
            p += Fraction(1, 36)  # double 1 passes whatever the modifiers
        if reroll is Reroll.NONE:
            return p
        return p + (1 - p) * p

    @rule("characteristic-test", cite(R, 269, 291))
    def characteristic_test(self, value: int, modifier: int = 0) -> Fraction:
        """Roll a D6: pass at or below the characteristic; a 6 always fails, a 1 always passes; a
        characteristic of 0 or «–» always fails."""
        if value <= 0:
            return Fraction(0)
        passes = sum(1 for face in range(1, 7) if face == 1 or (face != 6 and face <= value + modifier))
        return Fraction(passes, 6)

    @rule("charge", cite(A, 59, 62), cite(A, 84, 92))
    def charge_roll(self, difficult_terrain: bool = False) -> Dist:
        """2D6 inches; through difficult terrain roll 3D6 and discard the highest."""
        return drop_highest(3) if difficult_terrain else Dist.die(6).times(2)

    @rule("charge", cite(A, 59, 62), cite(A, 84, 98))
    def charge(self, needed: int, reroll: Reroll = Reroll.NONE, difficult_terrain: bool = False) -> Fraction:
        """P(the charge range reaches the enemy ``needed`` inches away)."""
        return reroll_sum(self.charge_roll(difficult_terrain), needed, reroll)

    # --- close combat ------------------------------------------------------------------------------
    @rule("attacks", cite(A, 142, 152), cite(A, 265, 266))
    def attacks(self, base: int, charged: bool = False, two_weapons: bool = False, disordered: bool = False) -> int:
        """Attacks in close combat: A, +1 for charging (not after a disordered charge), +1 for two
        one-handed weapons (never more, however many weapons)."""
        return base + (1 if charged and not disordered else 0) + (1 if two_weapons else 0)

    @rule("modifier", cite(R, 27, 33))
    def apply_modifiers(
        self, value: int, multiply: Sequence[int] = (), add: Sequence[int] = (), set_to: Sequence[int] = ()
    ) -> int:
        """Multiply first, then add and subtract, then set values; never below 0."""
        for m in multiply:
            value *= m
        value += sum(add)
        if set_to:
            value = set_to[-1]
        return max(value, 0)

    @rule("toughness", cite(A, 164, 169), cite(A, 180, 183))
    def majority(self, values: Sequence[int]) -> int:
        """The WS or Toughness of a mixed unit: the value most models have; on a tie, the higher one."""
        counts: dict[int, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        return max(counts, key=lambda v: (counts[v], v))

    @rule("initiative-step", cite(A, 115, 137))
    def initiative_steps(self, models: Sequence[tuple[str, int]]) -> list[tuple[int, list[str]]]:
        """Who strikes at which Initiative step, from 10 down to 1; models at the same step strike
        together, empty steps are skipped."""
        steps: dict[int, list[str]] = {}
        for name, initiative in models:
            steps.setdefault(max(1, min(10, initiative)), []).append(name)
        return [(step, steps[step]) for step in sorted(steps, reverse=True)]

    @rule("combat-result", cite(A, 214, 221))
    def combat_result(self, wounds_by_a: int, wounds_by_b: int, a_bonus: int = 0, b_bonus: int = 0) -> tuple[str, int]:
        """The side that inflicted more unsaved wounds wins; equal totals are a draw. Returns the winner
        (``"a"``, ``"b"`` or ``"draw"``) and the margin."""
        a, b = wounds_by_a + a_bonus, wounds_by_b + b_bonus
        if a == b:
            return "draw", 0
        return ("a", a - b) if a > b else ("b", b - a)

    @rule("morale-check", cite(A, 223, 226))
    def morale_check(self, leadership: int, lost_by: int) -> Fraction:
        """The loser's Morale check: a Leadership test with −1 per wound it lost the combat by (the
        modifier is on p. 29, which the corpus does not print)."""
        return self.leadership_test(leadership, -lost_by)

    @rule("sweeping-advance", cite(A, 231, 241))
    def sweeping_advance(self, winner_initiative: int, loser_initiative: int) -> Fraction:
        """P(the fleeing unit is caught): each side rolls D6 + its highest unmodified Initiative; the
        winner catches the loser when its total is equal or higher."""
        winner = Dist.die(6) + winner_initiative
        loser = Dist.die(6) + loser_initiative
        return sum((p * loser.p_at_most(v) for v, p in winner.items()), Fraction(0))

    @rule("look-out-sir", cite(A, 209, 212))
    def look_out_sir(self) -> Fraction:
        """P(Look Out, Sir succeeds): 4+ on a D6."""
        return D6Test(target=4).p_success

    @rule("consolidate", cite(A, 246, 249))
    def consolidation(self) -> Dist:
        return Dist.die(6)

    @rule("scatter", cite(R, 240, 261))
    def blast_scatter(self, ballistic_skill: int, hit_faces: int = 2) -> Dist:
        """Scatter distance of a blast marker: no scatter on a «Hit!», otherwise 2D6 inches less the
        firer's BS (never below 0). The scatter die's faces and the BS reduction are not printed in the
        corpus (6e-rules 248 gives 2D6); a standard scatter die has two «Hit!» faces."""
        miss = (Dist.die(6).times(2) - ballistic_skill).map(lambda v: max(v, 0))
        return Dist.mixture([(Fraction(hit_faces, 6), Dist.constant(0)), (Fraction(6 - hit_faces, 6), miss)])

    @rule("dividing-rolls", cite(R, 174, 182))
    def portion(self, models: int, percent: int) -> int:
        """A fraction of a unit, rounded up (10% of 21 models is 3)."""
        return math.ceil(Fraction(models * percent, 100))

    @rule("dividing-rolls", cite(R, 174, 182))
    def halve(self, value: int) -> int:
        """Half of a value, rounded up like every fraction (half of 3 is 2)."""
        return self.portion(value, 50)

    @rule("d3", cite(R, 166, 168))
    def d3(self) -> Dist:
        """A D3: a D6 halved, rounding up (the engine's one D3)."""
        return D3

    # --- the attack sequence ---------------------------------------------------------------------
    def plan(self, profile: Profile) -> AttackPlan:
        _validate6(self, profile)
        w, d, sit = profile.weapon, profile.defender, profile.situation
        melee = w.melee
        steps: list[Step] = []
        if melee:
            per_model = w.attacks.dist() + self.attacks(0, sit.charged, sit.two_weapons, sit.disordered_charge)
            steps.append(Step("attacks", "Number of attacks",
                              f"A {w.attacks}{' +1 charging' if sit.charged and not sit.disordered_charge else ''}"
                              f"{' +1 two weapons' if sit.two_weapons else ''} per model.", (cite(A, 142, 152),)))
        else:
            per_model = w.attacks.dist()
        attacks = per_model.times(profile.attackers)

        reroll = profile.rerolls.hit
        if w.abilities.twin_linked and reroll is Reroll.NONE:
            reroll = Reroll.FAILED
        if melee:
            assert d.weapon_skill is not None and w.skill is not None
            target = self.melee_hit_target(w.skill, d.weapon_skill)
            hit = D6Test(target=target, fails_up_to=0 if target == 1 else 1, reroll=reroll,
                         critical_on=6).probabilities()
            if w.skill == 0:  # a model with WS 0 cannot strike blows (6e-rules 100)
                hit = (Fraction(1), Fraction(0), Fraction(0))
            detail = f"WS {w.skill} against WS {d.weapon_skill}: hit on {target}+."
            cites: tuple[Citation, ...] = (cite(A, 154, 169),)
        elif sit.snap_shots or sit.overwatch:
            hit = self.snap_shot_faces(reroll)
            detail = "Snap shots (overwatch): hit only on a 6."
            cites = (cite(A, 49, 57),)
        else:
            assert w.skill is not None
            hit = self.shooting_faces(w.skill, reroll)
            detail = f"BS {w.skill} on the to-hit chart (not printed in the corpus)."
            cites = (cite(R, 39, 41),)
        p_hit = hit[1] + hit[2]
        exploding = w.abilities.exploding_hits
        if exploding is None:
            hit = (hit[0], p_hit, Fraction(0))  # no rule reads the 6s: every hit is an ordinary hit
        else:
            detail += f" Each 6 to hit scores {exploding} extra hit(s), not rolled to hit again."
        if reroll is not Reroll.NONE:
            detail += f" Re-roll: {reroll.value}."
            cites += (cite(R, 190, 196),)
        steps.append(Step("hit-roll", "Hit roll", detail, cites, {"p_hit": str(p_hit)}))

        to_wound = self.wound_target(w.strength, d.toughness)
        if to_wound is None:
            wound = (Fraction(1), Fraction(0), Fraction(0))
        else:
            p = D6Test(target=to_wound, reroll=profile.rerolls.wound).p_success
            wound = (1 - p, p, Fraction(0))
        needed = "«–», cannot wound" if to_wound is None else f"{to_wound}+"
        steps.append(Step("wound-roll", "Wound roll",
                          f"S{w.strength} against T{d.toughness}: {needed} "
                          "(wound chart, not printed in the corpus).", (cite(A, 171, 183),), {"p_wound": str(wound[1])}))

        cover = None if w.abilities.ignores_cover else d.cover_save
        save_fail, kind = self.save_fail(d.save, w.ap, d.invulnerable, cover, melee, profile.rerolls.save)
        steps.append(Step("armour-save" if kind in ("armour", "none") else f"{kind}-save", "Saving throw",
                          f"One save only, the best allowed: {kind}"
                          f"{' (AP ' + str(w.ap) + ' ignores the armour save)' if w.ap is not None and d.save is not None and w.ap <= d.save else ''}.",
                          (cite(A, 194, 201),), {"p_unsaved": str(save_fail)}))
        fnp = Fraction(7 - d.fnp, 6) if d.fnp is not None else Fraction(0)
        return AttackPlan(
            edition=self.key,
            attacks=attacks,
            hit=hit,
            sustained=exploding.dist() if exploding is not None else None,
            wound=wound,
            save_fail=save_fail,
            damage=Dist.constant(1),
            target_models=d.models,
            target_wounds=d.wounds,
            fnp=fnp,
            wounds_taken=d.wounds_taken,
            steps=tuple(steps),
            allocation_cites=(cite(A, 185, 192),),
        )


def _validate6(edition: Sixth, profile: Profile) -> None:
    w, d = profile.weapon, profile.defender
    if profile.attackers < 1:
        raise ProfileError("attacker.models", f"{profile.attackers!r} attacking models; give at least 1.")
    extra = [n for n in w.abilities.names()
             if not any(n.replace("-", "_").startswith(allowed) for allowed in SIXTH_ABILITIES)]
    if extra:
        raise ProfileError("weapon.abilities", f"{', '.join(extra)} are 10th-edition abilities; in the "
                           f"{edition.name} only twin-linked, ignores-cover and exploding-hits X apply here.")
    if profile.critical_hit_on != 6 or profile.critical_wound_on != 6:
        raise ProfileError("criticals", f"critical hits and wounds are 10th-edition rules; the {edition.name} "
                           "has none (for extra hits on 6s use 'exploding-hits X').")
    for stage, policy in (("hit", profile.rerolls.hit), ("wound", profile.rerolls.wound), ("save", profile.rerolls.save)):
        if policy is Reroll.SINGLE:
            raise ProfileError(f"rerolls.{stage}", "a single re-roll of one die is a 10th-edition stratagem; use "
                               "none, ones or failed.")
    if w.skill is None or not 0 <= w.skill <= 10:
        raise ProfileError("weapon.skill", "needs the attacker's BS (shooting) or WS (melee), 0–10.")
    if w.melee and d.weapon_skill is None:
        raise ProfileError("defender.weapon_skill", "close combat needs the target's WS (its majority's).")
    if w.ap is not None and not 1 <= w.ap <= 6:
        raise ProfileError("weapon.ap", f"{w.ap!r}: 6th/7th-edition AP is 1–6, or null for «–».")
    if not w.damage.is_constant or w.damage.plus != 1:
        raise ProfileError("weapon.damage", f"the {edition.name} has no Damage characteristic; leave it at 1.")
    if d.save is not None and not 2 <= d.save <= 6:
        raise ProfileError("defender.save", f"{d.save!r}: use 2–6 (3 means 3+) or null for «–».")
