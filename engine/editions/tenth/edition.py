"""The 10th edition's class: its flags, its rolls and tests, and the attack sequence (``10e-core``).

The Strength-versus-Toughness table the text refers to («как показано ниже», 616) is not printed;
:meth:`Tenth.wound_target` implements the edition's table. Everything else follows the printed rules:
hit roll 604–612, wound roll 614–624, allocation 626–632, saves 634–657, mortal wounds 659–670,
damage 672–677, Feel No Pain 679–683, weapon abilities 712–963, cover 1629–1645.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from rulekb.engine.attack import AttackPlan, Step, Triple
from rulekb.engine.concepts import cite, rule
from rulekb.engine.dice import Dist
from rulekb.engine.editions.base import Edition
from rulekb.engine.editions.tenth.checks import check_profile
from rulekb.engine.editions.tenth.rules import (
    SRC,
    anti_threshold,
    blast_bonus,
    feel_no_pain,
    hazardous,
    indirect_fire,
    melta_damage,
    rapid_fire_attacks,
)
from rulekb.engine.profiles import Profile
from rulekb.engine.rolls import D6Test, Reroll, reroll_sum

__all__ = ["Tenth"]


def _cap(value: int, cap: int) -> int:
    return max(-cap, min(cap, value))


def _fr(p: Fraction) -> str:
    return str(p)


class Tenth(Edition):
    key: ClassVar[str] = "10"
    name: ClassVar[str] = "Warhammer 40,000, 10th edition"
    aliases: ClassVar[tuple[str, ...]] = ("10th", "10e", "tenth", "10 ed", "10th edition", "десятая", "десятка", "10-я")
    sources: ClassVar[tuple[str, ...]] = (SRC,)
    critical_results = True
    hit_modifier_cap: ClassVar[int] = 1
    save_improvement_cap: ClassVar[int] = 1
    leadership_roll_under = False
    engagement_horizontal = 1.0
    engagement_vertical = 5.0
    coherency_vertical = 5.0
    coherency_two_neighbours_from = 7

    # --- rolls -------------------------------------------------------------------------------------
    @rule("wound-roll", cite(SRC, 614, 624))
    def wound_target(self, strength: int, toughness: int) -> int:
        """S ≥ 2T: 2+; S > T: 3+; S = T: 4+; S ≤ T/2: 6+; S < T: 5+ (the edition's table; not printed at 616)."""
        if strength >= 2 * toughness:
            return 2
        if strength > toughness:
            return 3
        if strength == toughness:
            return 4
        if 2 * strength <= toughness:
            return 6
        return 5

    @rule("hit-roll", cite(SRC, 604, 612))
    def hit_test(
        self,
        skill: int | None,
        modifier: int = 0,
        reroll: Reroll = Reroll.NONE,
        critical_on: int = 6,
        indirect_unseen: bool = False,
        overwatch: bool = False,
    ) -> D6Test:
        """Hit on ``skill``+; unmodified 6 is a critical hit and always hits, unmodified 1 always fails;
        the roll is never modified by more than ±1. Indirect Fire at an unseen target: unmodified 1–3 fail
        (803). Fire Overwatch: only an unmodified 6 hits (1519–1521)."""
        return D6Test(
            target=None if overwatch else skill,
            modifier=0 if overwatch else _cap(modifier, self.hit_modifier_cap),
            critical_on=critical_on,
            fails_up_to=indirect_fire(target_visible=False)[1] if indirect_unseen else 1,
            reroll=reroll,
        )

    @rule("wound-roll", cite(SRC, 614, 624), cite(SRC, 943, 963))
    def wound_test(
        self, strength: int, toughness: int, modifier: int = 0, reroll: Reroll = Reroll.NONE, critical_on: int = 6
    ) -> D6Test:
        """Wound on the table's target; unmodified 6 (or Anti-X's ``x``+) is a critical wound and always
        wounds; unmodified 1 fails; never modified by more than ±1."""
        return D6Test(
            target=self.wound_target(strength, toughness),
            modifier=_cap(modifier, self.hit_modifier_cap),
            critical_on=critical_on,
            fails_up_to=1,
            reroll=reroll,
        )

    @rule("armour-save", cite(SRC, 634, 646), cite(SRC, 648, 657), cite(SRC, 1629, 1645))
    def save_test(
        self,
        save: int | None,
        ap: int = 0,
        invulnerable: int | None = None,
        cover: bool = False,
        modifier: int = 0,
        reroll: Reroll = Reroll.NONE,
    ) -> tuple[D6Test | None, str]:
        """The save the defender picks: the armour save modified by AP and cover (+1, never improved
        by more than +1; unmodified 1 fails) or the invulnerable save, which AP and cover never change."""
        armour = None
        if save is not None:
            armour = D6Test(target=save, modifier=min(ap + (1 if cover else 0) + modifier, self.save_improvement_cap),
                            reroll=reroll)
        invuln = None
        if invulnerable is not None:
            invuln = D6Test(target=invulnerable, modifier=min(modifier, self.save_improvement_cap), reroll=reroll)
        if invuln is not None and (armour is None or invuln.p_success > armour.p_success):
            return invuln, "invulnerable"
        return armour, "armour"

    @rule("benefit-of-cover", cite(SRC, 1629, 1645), cite(SRC, 742, 748), cite(SRC, 799, 818))
    def benefit_of_cover(
        self, save: int | None, ap: int, cover: bool, ranged: bool = True, ignores_cover: bool = False
    ) -> bool:
        """Whether the +1 of cover applies: only against ranged attacks, not with Ignores Cover, and a model
        with a 3+ save or better gets none against AP 0."""
        if not (cover and ranged) or ignores_cover:
            return False
        return not (save is not None and save <= 3 and ap == 0)

    # --- tests -------------------------------------------------------------------------------------
    @rule("battle-shock", cite(SRC, 306, 319), cite(SRC, 1219, 1221))
    def leadership_test(self, leadership: int, modifier: int = 0, reroll: Reroll = Reroll.NONE) -> Fraction:
        """Battle-shock and Leadership tests: roll 2D6, pass if the total is at least the unit's best Ld."""
        return reroll_sum(Dist.die(6).times(2) + modifier, leadership, reroll)

    @rule("charge", cite(SRC, 985, 997))
    def charge(self, needed: int, reroll: Reroll = Reroll.NONE, difficult_terrain: bool = False) -> Fraction:
        """P(2D6 ≥ ``needed``): the charge roll must let the unit end within Engagement Range of its targets."""
        return reroll_sum(self.charge_roll(), needed, reroll)

    @rule("overwatch", cite(SRC, 1493, 1521))
    def overwatch_hit(self, skill: int) -> Fraction:
        """Fire Overwatch: only an unmodified 6 hits, whatever the BS."""
        return self.hit_test(skill, overwatch=True).p_success

    @rule("hit-roll", cite(SRC, 604, 612))
    def normal_hit(self, skill: int) -> Fraction:
        return self.hit_test(skill).p_success

    @rule("advance", cite(SRC, 403, 409))
    def advance(self, move: int) -> Dist:
        """Advance: the unit moves up to M + D6 inches."""
        return Dist.die(6) + move

    # --- the attack sequence -----------------------------------------------------------------------
    def plan(self, profile: Profile) -> AttackPlan:
        """The attack sequence as distributions, with the trace of its steps: the number of attacks, the hit
        roll, the wound roll, the saving throw, then damage and Feel No Pain."""
        check_profile(profile)
        ab = profile.weapon.abilities
        steps: list[Step] = []
        attacks = self._attacks(profile, steps)
        hit, sustained = self._hit_roll(profile, steps)
        wound, wound_reroll = self._wound_roll(profile, steps)
        save_fail = self._saving_throw(profile, steps)
        damage, fnp, extra = self._damage(profile, steps)
        return AttackPlan(
            edition=self.key,
            attacks=attacks,
            hit=hit,
            wound=wound,
            save_fail=save_fail,
            damage=damage,
            target_models=profile.defender.models,
            target_wounds=profile.defender.wounds,
            auto_hit=ab.torrent,
            hit_single=profile.rerolls.hit is Reroll.SINGLE and not ab.torrent,
            wound_single=wound_reroll is Reroll.SINGLE,
            lethal=ab.lethal_hits,
            sustained=sustained,
            devastating=ab.devastating_wounds,
            devastating_spill=profile.devastating_spill,
            fnp=fnp,
            wounds_taken=profile.defender.wounds_taken,
            steps=tuple(steps),
            allocation_cites=(cite(SRC, 626, 632), cite(SRC, 672, 677)),
            extra=extra,
        )

    def _attacks(self, profile: Profile, steps: list[Step]) -> Dist:
        """Attacks: A (+ Rapid Fire X at half range) (+1 per five target models for Blast), per model."""
        w, ab, d, sit = profile.weapon, profile.weapon.abilities, profile.defender, profile.situation
        per_model = w.attacks.dist()
        notes = [f"A {w.attacks}"]
        if ab.rapid_fire is not None:
            per_model = rapid_fire_attacks(per_model, ab.rapid_fire.dist(), sit.half_range)
            if sit.half_range:
                notes.append(f"+{ab.rapid_fire} Rapid Fire (half range)")
        if ab.blast:
            bonus = blast_bonus(d.models)
            per_model = per_model + bonus
            notes.append(f"+{bonus} Blast ({d.models} models)")
        per_model = per_model.map(lambda a: max(a, 1))
        attacks = per_model.times(profile.attackers)
        cites = [cite(SRC, 552, 554), cite(SRC, 1223, 1225)]
        if ab.rapid_fire is not None:
            cites.append(cite(SRC, 728, 740))
        if ab.blast:
            cites.append(cite(SRC, 836, 847))
        steps.append(Step("attacks", "Number of attacks", f"{profile.attackers} model(s) × ({', '.join(notes)})",
                          tuple(cites), {"expected": _fr(attacks.mean())}))
        return attacks

    def _hit_roll(self, profile: Profile, steps: list[Step]) -> tuple[Triple, Dist | None]:
        """The hit roll (none with Torrent), then Sustained Hits and Lethal Hits. Returns the chances of a miss,
        a hit and a critical hit, and the extra hits a critical hit scores."""
        ab = profile.weapon.abilities
        if ab.torrent:
            hit = (Fraction(0), Fraction(1), Fraction(0))
            steps.append(Step("torrent", "Torrent: every attack hits automatically",
                              "No hit roll, so no critical hits (Lethal Hits and Sustained Hits never trigger).",
                              (cite(SRC, 775, 779),), {"p_hit": "1"}))
        else:
            hit = self._hit_test(profile, steps)
        sustained = None
        if ab.sustained_hits is not None and not ab.torrent:
            sustained = ab.sustained_hits.dist()
            steps.append(Step("sustained-hits", f"Sustained Hits {ab.sustained_hits}",
                              f"Each critical hit scores {ab.sustained_hits} extra hit(s); they roll to wound as normal "
                              "hits and are not critical hits.", (cite(SRC, 915, 931),)))
        if ab.lethal_hits and not ab.torrent:
            steps.append(Step("lethal-hits", "Lethal Hits",
                              "A critical hit wounds automatically; that wound is not a critical wound, so it is "
                              "saved as normal and never triggers Devastating Wounds.", (cite(SRC, 781, 787),)))
        return hit, sustained

    def _hit_test(self, profile: Profile, steps: list[Step]) -> Triple:
        """The hit roll's modifiers (Heavy, Stealth, Indirect Fire, Big Guns Never Tire), capped at ±1."""
        w, ab, sit = profile.weapon, profile.weapon.abilities, profile.situation
        ranged = not w.melee
        hit_reroll = profile.rerolls.hit
        unseen_indirect = _unseen_indirect(profile)
        mod, why = profile.hit_modifier, []
        if ab.heavy and sit.remained_stationary and ranged:
            mod += 1
            why.append("+1 Heavy")
        if sit.stealth and ranged:
            mod -= 1
            why.append("-1 Stealth")
        if unseen_indirect:
            mod += indirect_fire(target_visible=False)[0]
            why.append("-1 Indirect Fire")
        if sit.big_guns_in_engagement and ranged and not ab.pistol:
            mod -= 1
            why.append("-1 Big Guns Never Tire")
        test = self.hit_test(w.skill, mod, _per_die(hit_reroll), critical_on=profile.critical_hit_on,
                             indirect_unseen=unseen_indirect, overwatch=sit.overwatch)
        hit = test.probabilities()
        cites = [cite(SRC, 604, 612)]
        cites += [cite(SRC, 861, 871)] if ab.heavy else []
        cites += [cite(SRC, 566, 570)] if sit.stealth else []
        cites += [cite(SRC, 799, 818)] if unseen_indirect else []
        cites += [cite(SRC, 1493, 1521)] if sit.overwatch else []
        cites += [cite(SRC, 228, 235)] if hit_reroll is not Reroll.NONE else []
        target = "only an unmodified 6 (Fire Overwatch)" if sit.overwatch else f"{w.skill}+"
        detail = (f"Hit on {target}; modifier {test.modifier:+d} after the ±1 cap ({', '.join(why) or 'none'}); "
                  f"re-roll: {hit_reroll.value}.")
        if profile.critical_hit_on < 6:
            detail += f" Critical Hit on an unmodified {profile.critical_hit_on}+."
        steps.append(Step("hit-roll", "Hit roll", detail, tuple(cites),
                          {"p_fail": _fr(hit[0]), "p_hit": _fr(hit[1] + hit[2]), "p_critical_hit": _fr(hit[2])}))
        return hit

    def _wound_roll(self, profile: Profile, steps: list[Step]) -> tuple[Triple, Reroll]:
        """The wound roll (Lance, Anti-X, Twin-linked), then Devastating Wounds. Returns the chances of a fail, a
        wound and a critical wound, and the re-roll policy applied."""
        w, ab, d, sit = profile.weapon, profile.weapon.abilities, profile.defender, profile.situation
        wmod = profile.wound_modifier + (1 if ab.lance and sit.charged else 0)
        crit_on = anti_threshold(ab.anti, d.keywords, profile.critical_wound_on)
        wound_reroll = profile.rerolls.wound
        if ab.twin_linked and wound_reroll is Reroll.NONE:
            wound_reroll = Reroll.FAILED
        wtest = self.wound_test(w.strength, d.toughness, wmod, _per_die(wound_reroll), crit_on)
        wound = wtest.probabilities()
        cites = [cite(SRC, 614, 624)]
        cites += [cite(SRC, 943, 963)] if crit_on < 6 else []
        cites += [cite(SRC, 789, 797)] if ab.lance and sit.charged else []
        cites += [cite(SRC, 750, 756)] if ab.twin_linked else []
        steps.append(Step("wound-roll", "Wound roll",
                          f"S{w.strength} vs T{d.toughness}: {wtest.target}+; modifier {wtest.modifier:+d}; critical wound on "
                          f"an unmodified {crit_on}+; re-roll: {wound_reroll.value}.", tuple(cites),
                          {"p_fail": _fr(wound[0]), "p_wound": _fr(wound[1] + wound[2]), "p_critical_wound": _fr(wound[2])}))
        if ab.devastating_wounds:
            steps.append(Step("devastating-wounds", "Devastating Wounds",
                              "A critical wound allows no save of any kind and inflicts mortal wounds equal to the "
                              "Damage instead; they are allocated after the other attacks, and if the model is "
                              "destroyed the rest of that attack's mortal wounds are lost"
                              + (" (spill-over ruling switched on)." if profile.devastating_spill else "."),
                              (cite(SRC, 897, 913), cite(SRC, 661, 668))))
        return wound, wound_reroll

    def _saving_throw(self, profile: Profile, steps: list[Step]) -> Fraction:
        """The save the defender picks, with cover (Indirect Fire gives it, Ignores Cover takes it away).
        Returns the chance a wound is not saved."""
        w, ab, d, sit = profile.weapon, profile.weapon.abilities, profile.defender, profile.situation
        unseen_indirect = _unseen_indirect(profile)
        indirect_cover = unseen_indirect and indirect_fire(target_visible=False)[2]
        gets_cover = self.benefit_of_cover(d.save, w.ap or 0, sit.cover or indirect_cover, not w.melee,
                                           ab.ignores_cover)
        stest, kind = self.save_test(d.save, w.ap or 0, d.invulnerable, gets_cover, profile.save_modifier,
                                     _per_die(profile.rerolls.save))
        save_fail = Fraction(1) if stest is None else 1 - stest.p_success
        cites = [cite(SRC, 634, 646)]
        cites += [cite(SRC, 648, 657)] if d.invulnerable is not None else []
        cites += [cite(SRC, 1629, 1645)] if sit.cover or unseen_indirect else []
        cites += [cite(SRC, 742, 748)] if ab.ignores_cover else []
        if stest is None:
            sdetail = "The model has no save."
        else:
            sdetail = (f"{kind.capitalize()} save {stest.target}+ with modifier {stest.modifier:+d}"
                       f"{' (AP ' + str(w.ap) + ', cover +1)' if gets_cover and kind == 'armour' else ''}; "
                       "an unmodified 1 always fails.")
        steps.append(Step("invulnerable-save" if kind == "invulnerable" else "armour-save", "Saving throw", sdetail,
                          tuple(cites), {"p_unsaved": _fr(save_fail)}))
        return save_fail

    def _damage(self, profile: Profile, steps: list[Step]) -> tuple[Dist, Fraction, dict[str, Fraction]]:
        """Damage (Melta at half range), Feel No Pain, Hazardous, and the abilities that change none of these
        numbers. Returns the damage per unsaved wound, the chance a lost wound is ignored and the extra figures."""
        w, ab, d, sit = profile.weapon, profile.weapon.abilities, profile.defender, profile.situation
        damage = melta_damage(w.damage.dist(), ab.melta, sit.half_range)
        damage = (damage + profile.damage_modifier).map(lambda x: max(x, 1))
        fnp = feel_no_pain(d.fnp) if d.fnp is not None else Fraction(0)
        if d.fnp is not None:
            steps.append(Step("feel-no-pain", f"Feel No Pain {d.fnp}+",
                              "Roll one D6 for each wound the model would lose, mortal wounds included.",
                              (cite(SRC, 679, 683),), {"p_ignored": _fr(fnp)}))
        if ab.melta and sit.half_range:
            steps.append(Step("melta", f"Melta {ab.melta}", f"At half range the Damage is {w.damage}+{ab.melta}.",
                              (cite(SRC, 849, 859),)))
        extra: dict[str, Fraction] = {}
        if ab.hazardous:
            extra["hazardous_mortal_wounds"] = hazardous(profile.attackers).mean()
            steps.append(Step("hazardous", "Hazardous",
                              f"After attacking, one Hazardous test per weapon ({profile.attackers}): each 1 inflicts "
                              "3 mortal wounds on the attacking unit.", (cite(SRC, 873, 895),),
                              {"expected_mortal_wounds_to_attacker": _fr(extra["hazardous_mortal_wounds"])}))
        for flag, concept, lines in (("precision", "precision", (820, 834)), ("assault", "assault", (716, 726)),
                                     ("pistol", "pistol", (758, 773)), ("extra_attacks", "extra-attacks", (933, 941))):
            if getattr(ab, flag):
                steps.append(Step(concept, concept.replace("-", " ").capitalize(),
                                  "No effect on these numbers (it decides who may shoot or which model is hit).",
                                  (cite(SRC, *lines),)))
        return damage, fnp, extra


def _unseen_indirect(profile: Profile) -> bool:
    """A ranged Indirect Fire attack at a target no attacking model can see."""
    return profile.weapon.abilities.indirect_fire and not profile.situation.target_visible and not profile.weapon.melee


def _per_die(policy: Reroll) -> Reroll:
    """The policy for each die: a single re-roll is applied to the pool by the attack sequence, not per die."""
    return Reroll.NONE if policy is Reroll.SINGLE else policy
