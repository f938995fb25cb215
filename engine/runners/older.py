"""Runners for the 6th and 7th editions and Kill Team (``sixth.*``, ``seventh.*``, ``killteam.*``)."""

from __future__ import annotations

from fractions import Fraction

from rulekb.engine.editions import KillTeam, Seventh, Sixth
from rulekb.engine.editions.killteam import MISSIONS
from rulekb.engine.editions.sixth import random_selection, random_selection_rerolls
from rulekb.engine.errors import ProfileError
from rulekb.engine.rolls import D6Test, Reroll
from rulekb.engine.runners.base import Inputs, Result, range_of, runner

SIXTH, SEVENTH, KT = Sixth(), Seventh(), KillTeam()


@runner("sixth.modifiers")
def _modifiers(i: Inputs) -> Result:
    return {"result": SIXTH.apply_modifiers(i.integer("value"), i.integers("multiply", []), i.integers("add", []),
                                            i.integers("set", []))}


@runner("sixth.portion")
def _portion(i: Inputs) -> Result:
    return {"result": SIXTH.portion(i.integer("models"), i.integer("percent"))}


@runner("sixth.halve")
def _halve(i: Inputs) -> Result:
    return {"result": SIXTH.halve(i.integer("value"))}


@runner("sixth.random_selection")
def _random_selection(i: Inputs) -> Result:
    items = i.integer("items")
    dist = random_selection(items)
    return {"p_each": sorted({p for _, p in dist.items()}), "rerolled_faces": random_selection_rerolls(items)}


@runner("sixth.charge")
def _charge6(i: Inputs) -> Result:
    difficult = i.flag("difficult_terrain", False)
    out: Result = {}
    rolls = i._get("rolls", None)
    if rolls is not None:
        values = i.integers("rolls")
        out["distance"] = sum(values) - (max(values) if difficult else 0)
    needed = i.integer("needed", None)
    if needed is not None:
        out["p"] = SIXTH.charge(needed, difficult_terrain=difficult)
    out["mean"] = SIXTH.charge_roll(difficult).mean()
    return out


@runner("sixth.attacks")
def _attacks6(i: Inputs) -> Result:
    per_model = SIXTH.attacks(i.integer("base"), i.flag("charged", False), i.flag("two_weapons", False),
                              i.flag("disordered", False))
    return {"per_model": per_model, "dice": per_model * i.integer("models")}


@runner("sixth.initiative")
def _initiative(i: Inputs) -> Result:
    models = i._get("models", [])
    steps = SIXTH.initiative_steps([(str(name), int(init)) for name, init in models])
    return {"order": [[step, names] for step, names in steps]}


@runner("sixth.majority")
def _majority(i: Inputs) -> Result:
    return {"value": SIXTH.majority(i.integers("values"))}


@runner("sixth.melee_hit")
def _melee_hit(i: Inputs) -> Result:
    target = SIXTH.melee_hit_target(i.integer("attacker_ws"), i.integer("defender_ws"))
    return {"target": target, "p_hit": Fraction(7 - target, 6)}


@runner("sixth.leadership")
def _leadership6(i: Inputs) -> Result:
    return {"p_pass": SIXTH.leadership_test(i.integer("leadership"), i.integer("modifier", 0))}


@runner("sixth.characteristic")
def _characteristic(i: Inputs) -> Result:
    return {"p_pass": SIXTH.characteristic_test(i.integer("value"), i.integer("modifier", 0))}


@runner("sixth.overwatch")
def _overwatch6(i: Inputs) -> Result:
    bs = i.integer("bs")
    return {"p_hit": SIXTH.overwatch_hit(bs), "p_hit_normally": SIXTH.normal_hit(bs)}


@runner("sixth.look_out_sir")
def _look_out(i: Inputs) -> Result:
    return {"p_success": SIXTH.look_out_sir()}


@runner("sixth.sweeping_advance")
def _sweep(i: Inputs) -> Result:
    return {"p_caught": SIXTH.sweeping_advance(i.integer("winner_initiative"), i.integer("loser_initiative"))}


@runner("sixth.combat_result")
def _combat(i: Inputs) -> Result:
    winner, margin = SIXTH.combat_result(i.integer("wounds_a"), i.integer("wounds_b"))
    return {"winner": winner, "margin": margin}


@runner("sixth.reroll")
def _reroll6(i: Inputs) -> Result:

    target = i.integer("target")
    return {"p": D6Test(target=target, fails_up_to=0).p_success,
            "p_with_reroll": D6Test(target=target, fails_up_to=0, reroll=Reroll.FAILED).p_success}


@runner("seventh.fall_back")
def _fall_back(i: Inputs) -> Result:
    dist = SEVENTH.fall_back_distance(i.text("unit_type"))
    return {"dice": f"{(dist.max()) // 6}D6", **range_of(dist)}


@runner("seventh.trapped")
def _trapped(i: Inputs) -> Result:
    return {"destroyed": SEVENTH.trapped(i.integer("fall_back_roll"), i.number("free_distance"))}


@runner("seventh.regroup")
def _regroup(i: Inputs) -> Result:
    return {"p_regroup": SEVENTH.regroup_test(i.integer("leadership"), i.integer("models_left"), i.integer("starting_models"),
                                              i.flag("independent_character", False), i.flag("charged", False))}


@runner("seventh.jump_charge")
def _jump(i: Inputs) -> Result:
    needed = i.integer("needed")
    return {"p": SEVENTH.jump_charge(needed), "p_without_reroll": SEVENTH.charge(needed)}


@runner("seventh.bike_weapons")
def _bike(i: Inputs) -> Result:
    return {"weapons": SEVENTH.bike_weapons_fired(i.integer("riders"))}


@runner("killteam.counter_charge")
def _counter(i: Inputs) -> Result:
    return {"p": KT.counter_charge(i.integer("leadership"), i.integer("modifier", 0))}


@runner("killteam.supporting_attacks")
def _support(i: Inputs) -> Result:
    return {"attacks": KT.supporting_attacks(i.integers("engaged_attacks"), i.integer("supporting_models"))}


@runner("killteam.combat_score")
def _score(i: Inputs) -> Result:
    return {"score": KT.combat_score(i.integer("unsaved_wounds"), i.flag("charged", False), i.flag("counter_charged", False),
                                     i.flag("banner", False), i.integer("models", 1), i.integer("enemy_models", 1))}


@runner("killteam.inspiring_presence")
def _inspiring(i: Inputs) -> Result:
    return {"leadership": KT.inspiring_presence(i.integer("own"), i.integer("leader"), i.flag("within_6"))}


@runner("killteam.mission")
def _mission(i: Inputs) -> Result:
    roll = i.integer("roll")
    if not 1 <= roll <= 6:
        raise ProfileError("inputs.roll", f"{roll} is not a D6 result.")
    return {"mission": MISSIONS[roll - 1], "p_each": KT.random_mission().prob(roll)}


@runner("killteam.overwatch")
def _kt_overwatch(i: Inputs) -> Result:
    distances = [float(d) for d in i._get("friends_distances", [])]
    return {"shooters": KT.overwatch_shooters(distances)}
