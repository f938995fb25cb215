"""Runners for the 10th edition's rules (``tenth.*``)."""

from __future__ import annotations

from fractions import Fraction

from rulekb.engine.attack import allocate_rolls
from rulekb.engine.dice import DiceExpr, Dist
from rulekb.engine.editions import Tenth
from rulekb.engine.editions import tenth as t10
from rulekb.engine.errors import ProfileError
from rulekb.engine.geometry import charge_needed
from rulekb.engine.rolls import D6Test, Outcome, parse_reroll
from rulekb.engine.runners.base import Inputs, Result, range_of, runner

TENTH = Tenth()


@runner("tenth.hit_roll")
def _hit_roll(i: Inputs) -> Result:
    test = TENTH.hit_test(i.integer("skill"), i.integer("modifier", 0), parse_reroll(i.text("reroll", "none")),
                          indirect_unseen=i.flag("indirect_unseen", False), overwatch=i.flag("overwatch", False))
    fail, hit, crit = test.probabilities()
    out: Result = {"modifier": test.modifier, "p_hit": hit + crit, "p_critical": crit, "p_fail": fail}
    face = i.integer("face", None)
    if face is not None:
        out["result"] = test.face(face).name.lower()
    return out


@runner("tenth.wound_roll")
def _wound_roll(i: Inputs) -> Result:
    anti = i.integer("anti", None)
    test = TENTH.wound_test(i.integer("strength"), i.integer("toughness"), i.integer("modifier", 0),
                            parse_reroll(i.text("reroll", "none")), anti or 6)
    _fail, wound, crit = test.probabilities()
    out: Result = {"target": test.target, "modifier": test.modifier, "p_wound": wound + crit, "p_critical": crit}
    face = i.integer("face", None)
    if face is not None:
        outcome = test.face(face)
        out["result"] = outcome.name.lower()
        out["critical_wound"] = outcome is Outcome.CRITICAL
    return out


@runner("tenth.anti")
def _anti(i: Inputs) -> Result:
    anti = ((i.text("keyword"), i.integer("x")),)
    threshold = t10.anti_threshold(anti, [str(k) for k in i._get("target_keywords", [])])
    critical = D6Test(target=None, critical_on=threshold).face(i.integer("face")) is Outcome.CRITICAL
    return {"critical_wound": critical, "wounds": critical or None}


@runner("tenth.save")
def _save(i: Inputs) -> Result:
    save, ap = i.integer("save", None), i.integer("ap", 0)
    cover = TENTH.benefit_of_cover(save, ap, i.flag("cover", False), not i.flag("melee", False),
                                   i.flag("ignores_cover", False))
    test, kind = TENTH.save_test(save, ap, i.integer("invulnerable", None), cover, i.integer("modifier", 0),
                                 parse_reroll(i.text("reroll", "none")))
    p = test.p_success if test else Fraction(0)
    return {"used": kind, "cover": cover, "modifier": test.modifier if test else 0, "p_save": p, "p_unsaved": 1 - p}


@runner("tenth.mortal_wounds")
def _mortal(i: Inputs) -> Result:
    count, wounds, models = i.integer("count"), i.integer("wounds"), i.integer("models")
    fnp = i.integer("fnp", None)
    lost = Dist.constant(count)
    if fnp is not None:
        lost = lost.thin(1 - t10.feel_no_pain(fnp))
    destroyed = lost.map(lambda n: min(n // wounds, models))
    out: Result = {"expected_destroyed": destroyed.mean()}
    if destroyed.min() == destroyed.max():
        out["destroyed"] = destroyed.min()
    return out


@runner("tenth.feel_no_pain")
def _fnp(i: Inputs) -> Result:
    p = t10.feel_no_pain(i.integer("x"))
    damage = i.integer("damage", 1)
    return {"p_ignored": p, "expected_lost": Dist.constant(damage).thin(1 - p).mean()}


@runner("tenth.rapid_fire")
def _rapid_fire(i: Inputs) -> Result:
    attacks = t10.rapid_fire_attacks(i.dice("attacks").dist(), i.dice("x").dist(), i.flag("half_range"))
    return {"attacks": attacks.min() if attacks.min() == attacks.max() else range_of(attacks), "hit_rolls": attacks.max()}


@runner("tenth.melta")
def _melta(i: Inputs) -> Result:
    damage, x = i.dice("damage"), i.integer("x")
    half = i.flag("half_range")
    expr = DiceExpr(damage.count, damage.sides, damage.plus + (x if half else 0), damage.multiplier)
    return {"damage": str(expr), "mean": t10.melta_damage(damage.dist(), x, half).mean()}


@runner("tenth.blast")
def _blast(i: Inputs) -> Result:
    bonus = t10.blast_bonus(i.integer("models"))
    out: Result = {"bonus": bonus}
    rolled = i.integer("rolled", None)
    attacks = i.dice("attacks")
    out["mean_attacks"] = attacks.mean() + bonus
    if rolled is not None:
        dist = attacks.dist()
        if not dist.min() <= rolled <= dist.max():
            raise ProfileError("inputs.rolled", f"{rolled} cannot be rolled on {attacks}.")
        out["attacks"] = rolled + bonus
    return out


@runner("tenth.sustained_hits")
def _sustained(i: Inputs) -> Result:
    x = i.integer("x")
    face = i.integer("face")
    skill = i.integer("skill", None)
    outcome = TENTH.hit_test(skill).face(face)
    critical = outcome is Outcome.CRITICAL
    out: Result = {"critical_hit": critical, "hits": t10.sustained_hits(True, x) if critical else None}
    if skill is not None:
        _fail, hit, crit = TENTH.hit_test(skill).probabilities()
        out["expected_hits_per_attack"] = hit * t10.sustained_hits(False, x) + crit * t10.sustained_hits(True, x)
        out["hits"] = t10.sustained_hits(critical, x) if outcome is not Outcome.FAIL else 0
    return out


@runner("tenth.devastating_wounds")
def _devastating(i: Inputs) -> Result:
    mortal, save_allowed = t10.devastating_wounds(i.flag("critical_wound"), i.integer("damage"))
    return {"mortal_wounds": mortal, "save_allowed": save_allowed}


@runner("tenth.indirect_fire")
def _indirect(i: Inputs) -> Result:
    skill = i.integer("skill")
    visible = i.flag("target_visible")
    modifier, _fails, cover = t10.indirect_fire(visible)
    test = TENTH.hit_test(skill, modifier, indirect_unseen=not visible)
    return {"modifier": test.modifier, "always_fail_up_to": test.fails_up_to, "cover": cover,
            "p_hit": test.p_success, "p_hit_if_visible": TENTH.hit_test(skill).p_success}


@runner("tenth.hazardous")
def _hazardous(i: Inputs) -> Result:
    weapons = i.integer("weapons")
    ones = i.integer("ones", None)
    dist = t10.hazardous(weapons)
    out: Result = {"tests": weapons, "expected_mortal_wounds": dist.mean()}
    if ones is not None:
        out["mortal_wounds"] = 3 * ones
        out["p_this_many"] = dist.prob(3 * ones)
    return out


@runner("tenth.deadly_demise")
def _deadly_demise(i: Inputs) -> Result:
    x = i.dice("x")
    units = i.integer("units")
    roll = i.integer("roll", None)
    per_unit = t10.deadly_demise(x.dist())
    out: Result = {"p_trigger": t10.deadly_demise(1).prob(1), "expected_per_unit": per_unit.mean(),
                   "rolls_per_unit": t10.deadly_demise_roll(6, x, 1)[1]}
    if roll is not None:
        triggered, rolls, total = t10.deadly_demise_roll(roll, x, units)
        out["triggered"] = triggered
        out["mortal_wound_rolls"] = rolls
        out["expected_total"] = total.mean()
    return out


@runner("tenth.destroyed_transport")
def _transport(i: Inputs) -> Result:
    rolls = i.integers("rolls")
    emergency = i.flag("emergency", False)
    wounds, shocked = t10.destroyed_transport_rolls(rolls, emergency)
    return {"mortal_wounds": wounds, "battle_shocked": shocked,
            "p_this_many": t10.destroyed_transport(len(rolls), emergency).prob(wounds)}


@runner("tenth.desperate_escape")
def _escape(i: Inputs) -> Result:
    tests = i.integer("tests")
    dist = t10.desperate_escape(tests)
    out: Result = {"p_per_test": t10.desperate_escape(1).prob(1), "expected_destroyed": dist.mean()}
    rolls = i._get("rolls", None)
    if rolls is not None:
        out["destroyed"] = t10.desperate_escape_rolls(i.integers("rolls"))
    return out


@runner("tenth.starting_strength")
def _starting(i: Inputs) -> Result:
    leader, bodyguard = i.integer("leader"), i.integer("bodyguard")
    destroyed = i.text("destroyed", None)
    out: Result = {"starting_strength": t10.attached_starting_strength(leader, bodyguard)}
    if destroyed is not None:
        out["after"] = {"bodyguard": leader, "leader": bodyguard}[destroyed]
    return out


@runner("tenth.destroyed_units")
def _destroyed_units(i: Inputs) -> Result:
    destroyed = i._get("destroyed", [])
    if not isinstance(destroyed, list) or not all(isinstance(d, str) for d in destroyed):
        raise ProfileError("inputs.destroyed", "must be a list of the destroyed units' names.")
    return {"vp": t10.attached_unit_victory_points(destroyed, i.integer("vp_per_unit"))}


@runner("tenth.below_half")
def _below_half(i: Inputs) -> Result:
    return {"below_half": t10.below_half_strength(i.integer("starting"), i.integer("models_left", 1), i.integer("wounds_left", 0),
                                                  i.integer("wounds", 1))}


@runner("tenth.battle_shock")
def _battle_shock(i: Inputs) -> Result:
    ld = i.integer("leadership")
    out: Result = {"p_pass": TENTH.leadership_test(ld, 0, parse_reroll(i.text("reroll", "none")))}
    rolls = i._get("rolls", None)
    if rolls is not None:
        out["passed"] = sum(i.integers("rolls")) >= ld
    return out


@runner("tenth.charge")
def _charge(i: Inputs) -> Result:
    needed = i.integer("needed", None)
    if needed is None:
        needed = charge_needed(i.number("horizontal"), i.number("climb", 0.0))
    return {"needed": needed, "p": TENTH.charge(needed, parse_reroll(i.text("reroll", "none")))}


@runner("tenth.advance")
def _advance(i: Inputs) -> Result:
    return range_of(TENTH.advance(i.integer("move")))


@runner("tenth.overwatch")
def _overwatch(i: Inputs) -> Result:
    skill = i.integer("skill")
    return {"p_hit": TENTH.overwatch_hit(skill), "p_hit_normally": TENTH.normal_hit(skill)}


@runner("tenth.grenade")
def _grenade(i: Inputs) -> Result:
    dist = t10.grenade()
    return {"expected": dist.mean(), "p_at_least_one": dist.p_at_least(1), "max": dist.max()}


@runner("tenth.tank_shock")
def _tank_shock(i: Inputs) -> Result:
    dist = t10.tank_shock(i.integer("toughness"))
    return {"expected": dist.mean(), "max": dist.max()}


@runner("tenth.command_points")
def _cp(i: Inputs) -> Result:
    rounds = i._get("rounds", [])
    if not isinstance(rounds, list) or not all(isinstance(r, list) for r in rounds):
        raise ProfileError("inputs.rounds", "must be a list of lists of CP gains (negative for CP spent).")
    return {"cp": t10.command_points(i.integer("start", 0), rounds)}


@runner("tenth.allocate_rolls")
def _allocate(i: Inputs) -> Result:
    destroyed, left = allocate_rolls(i.integers("rolls"), i.integer("wounds"), i.integer("models"))
    return {"destroyed": destroyed, "wounds_left_on_damaged_model": left}
