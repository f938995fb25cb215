"""Named entry points into the engine: a mapping of inputs in, a mapping of results out.

Worked examples (``kb/examples/*.toml``) name the runner that computes them (``run = "tenth.blast"``),
and the web app can call the same names. Each runner reads its inputs strictly (a missing or
mistyped input raises :class:`~engine.errors.ProfileError` naming ``inputs.<key>``) and returns plain
values: ``int``, ``bool``, ``str``, lists, and ``Fraction`` for probabilities.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from engine import calc
from engine.attack import allocate_rolls
from engine.dice import DiceExpr, Dist, parse_dice
from engine.editions import KillTeam, Seventh, Sixth, Tenth
from engine.editions import tenth as t10
from engine.editions.killteam import MISSIONS
from engine.editions.sixth import random_selection, roll_off
from engine.errors import EngineError, ProfileError
from engine.geometry import Model, charge_needed, coherency, in_engagement_range, move_used
from engine.rolls import Outcome, parse_reroll

__all__ = ["RUNNERS", "Runner", "run"]

Result = dict[str, Any]
Runner = Callable[["Inputs"], Result]

#: runner name -> function.
RUNNERS: dict[str, Runner] = {}
_MISSING = object()

TENTH, SIXTH, SEVENTH, KT = Tenth(), Sixth(), Seventh(), KillTeam()


class Inputs:
    """Typed access to a runner's inputs; every error names ``inputs.<key>``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.used: set[str] = set()

    def _get(self, key: str, default: Any) -> Any:
        self.used.add(key)
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise ProfileError(f"inputs.{key}", "is required by this runner.")
        return default

    def integer(self, key: str, default: Any = _MISSING) -> Any:
        value = self._get(key, default)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ProfileError(f"inputs.{key}", f"must be a whole number, got {value!r}.")
        return value

    def number(self, key: str, default: Any = _MISSING) -> float:
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ProfileError(f"inputs.{key}", f"must be a number, got {value!r}.")
        return float(value)

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise ProfileError(f"inputs.{key}", f"must be true or false, got {value!r}.")
        return value

    def text(self, key: str, default: Any = _MISSING) -> Any:
        value = self._get(key, default)
        if value is not None and not isinstance(value, str):
            raise ProfileError(f"inputs.{key}", f"must be a string, got {value!r}.")
        return value

    def integers(self, key: str, default: Any = _MISSING) -> list[int]:
        value = self._get(key, default)
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ProfileError(f"inputs.{key}", f"must be a list of whole numbers, got {value!r}.")
        return list(value)

    def dice(self, key: str, default: Any = _MISSING) -> DiceExpr:
        value = self._get(key, default)
        try:
            return parse_dice(value)
        except EngineError as exc:
            raise ProfileError(f"inputs.{key}", str(exc)) from exc

    def unused(self) -> list[str]:
        return sorted(set(self.data) - self.used)


def runner(name: str) -> Callable[[Runner], Runner]:
    def register(fn: Runner) -> Runner:
        RUNNERS[name] = fn
        return fn

    return register


def run(name: str, inputs: Mapping[str, Any]) -> Result:
    """Run the named runner; unknown names and unused inputs are errors (a typo must not pass silently)."""
    if name not in RUNNERS:
        raise ProfileError("run", f"unknown runner {name!r}; known runners: {', '.join(sorted(RUNNERS))}.")
    reader = Inputs(inputs)
    result = RUNNERS[name](reader)
    extra = reader.unused()
    if extra and name != "calc.attack":
        raise ProfileError(f"inputs.{extra[0]}", f"is not read by runner {name!r}; remove it or fix its name.")
    return result


def _range(dist: Dist) -> Result:
    return {"min": dist.min(), "max": dist.max(), "mean": dist.mean()}


def _model(value: Any, key: str) -> Model:
    if not isinstance(value, list) or not 2 <= len(value) <= 4 or not all(isinstance(v, int | float) for v in value):
        raise ProfileError(key, f"a model is [x, y] or [x, y, z] or [x, y, z, base_mm], got {value!r}.")
    x, y, *rest = (float(v) for v in value)
    z = rest[0] if rest else 0.0
    base = rest[1] if len(rest) > 1 else 32.0
    return Model(x, y, z, base)


# --- the full attack sequence ----------------------------------------------------------------------


@runner("calc.attack")
def _calc_attack(i: Inputs) -> Result:
    out = calc.calculate(dict(i.data))
    flat: Result = {k: Fraction(v) for k, v in out["expected_exact"].items()}
    flat.update({k: Fraction(v) for k, v in out["summary"].items()})
    for name in ("hits", "wounds", "unsaved", "damage", "models_destroyed"):
        flat[f"p_{name}"] = {str(k): Fraction(p) for k, p in out["distributions"][name]}
    return flat


# --- 10th edition ----------------------------------------------------------------------------------


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
    keyword, x = i.text("keyword").upper(), i.integer("x")
    targets = {k.upper() for k in i._get("target_keywords", [])}
    face = i.integer("face")
    critical = face == 6 or (keyword in targets and face >= x)
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
    return {"attacks": attacks.min() if attacks.min() == attacks.max() else _range(attacks), "hit_rolls": attacks.max()}


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
    critical = face == 6
    out: Result = {"critical_hit": critical, "hits": (1 + x) if critical else None}
    if skill is not None:
        _fail, hit, crit = TENTH.hit_test(skill).probabilities()
        out["expected_hits_per_attack"] = hit + crit * (1 + x)
        out["hits"] = (1 + x) if critical else (1 if TENTH.hit_test(skill).face(face) is Outcome.SUCCESS else 0)
    return out


@runner("tenth.devastating_wounds")
def _devastating(i: Inputs) -> Result:
    critical = i.flag("critical_wound")
    damage = i.integer("damage")
    return {"mortal_wounds": damage if critical else 0, "save_allowed": not critical}


@runner("tenth.indirect_fire")
def _indirect(i: Inputs) -> Result:
    skill = i.integer("skill")
    unseen = not i.flag("target_visible")
    test = TENTH.hit_test(skill, -1 if unseen else 0, indirect_unseen=unseen)
    return {"modifier": test.modifier, "always_fail_up_to": test.fails_up_to, "cover": unseen,
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
    out: Result = {"p_trigger": Fraction(1, 6), "expected_per_unit": per_unit.mean(),
                   "rolls_per_unit": 0 if x.is_constant else 1}
    if roll is not None:
        out["triggered"] = roll == 6
        out["mortal_wound_rolls"] = units if roll == 6 and not x.is_constant else 0
        out["expected_total"] = x.mean() * units if roll == 6 else 0
    return out


@runner("tenth.destroyed_transport")
def _transport(i: Inputs) -> Result:
    rolls = i.integers("rolls")
    emergency = i.flag("emergency", False)
    bad = 3 if emergency else 1
    wounds = sum(1 for r in rolls if r <= bad)
    return {"mortal_wounds": wounds, "battle_shocked": True,
            "p_this_many": t10.destroyed_transport(len(rolls), emergency).prob(wounds)}


@runner("tenth.desperate_escape")
def _escape(i: Inputs) -> Result:
    tests = i.integer("tests")
    dist = t10.desperate_escape(tests)
    out: Result = {"p_per_test": Fraction(1, 3), "expected_destroyed": dist.mean()}
    rolls = i._get("rolls", None)
    if rolls is not None:
        out["destroyed"] = sum(1 for r in i.integers("rolls") if r <= 2)
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
    return {"vp": i.integer("vp_per_unit") * len(destroyed)}


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
    return _range(TENTH.advance(i.integer("move")))


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


@runner("tenth.coherency")
def _coherency(i: Inputs) -> Result:
    models = i._get("models", _MISSING)
    if not isinstance(models, list):
        raise ProfileError("inputs.models", "must be a list of [x, y, z, base_mm] positions.")
    report = coherency([_model(m, "inputs.models") for m in models], i.text("edition", "10"))
    return {"ok": report.ok, "needed": report.needed, "lacking": list(report.lacking), "groups": len(report.groups)}


@runner("tenth.engagement_range")
def _engagement(i: Inputs) -> Result:
    return {"in_engagement_range": in_engagement_range(_model(i._get("a", None), "inputs.a"),
                                                       _model(i._get("b", None), "inputs.b"))}


@runner("tenth.move")
def _move(i: Inputs) -> Result:
    segments = [float(s) for s in i._get("segments", [])]
    used = move_used(segments, i.number("pivot_value", 0.0), i.integer("pivots", 0))
    allowance = i.number("allowance")
    return {"used": used, "fits": used <= allowance, "left": allowance - used}


@runner("dice.expression")
def _dice_expr(i: Inputs) -> Result:
    expr = i.dice("expr")
    out = _range(expr.dist())
    out["expression"] = str(expr)
    faces = i._get("faces", None)
    if faces is not None and expr.count == 1 and expr.sides == 3:
        out["results"] = [(f + 1) // 2 for f in i.integers("faces")]
    return out


@runner("dice.roll_off")
def _roll_off(i: Inputs) -> Result:
    return {"p_a_wins": roll_off(i.integer("modifier_a", 0), i.integer("modifier_b", 0))}


@runner("dice.split")
def _split(i: Inputs) -> Result:
    faces = set(i.integers("faces_a"))
    return {"p_a": Fraction(len(faces & set(range(1, 7))), 6)}


# --- 6th/7th edition and Kill Team -------------------------------------------------------------------


@runner("sixth.modifiers")
def _modifiers(i: Inputs) -> Result:
    return {"result": SIXTH.apply_modifiers(i.integer("value"), i.integers("multiply", []), i.integers("add", []),
                                            i.integers("set", []))}


@runner("sixth.portion")
def _portion(i: Inputs) -> Result:
    return {"result": SIXTH.portion(i.integer("models"), i.integer("percent"))}


@runner("sixth.halve")
def _halve(i: Inputs) -> Result:
    value = i.integer("value")
    return {"result": -(-value // 2)}


@runner("sixth.random_selection")
def _random_selection(i: Inputs) -> Result:
    items = i.integer("items")
    dist = random_selection(items)
    return {"p_each": sorted({p for _, p in dist.items()}), "rerolled_faces": list(range(items + 1, 7))}


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
    from engine.rolls import D6Test, Reroll

    target = i.integer("target")
    return {"p": D6Test(target=target, fails_up_to=0).p_success,
            "p_with_reroll": D6Test(target=target, fails_up_to=0, reroll=Reroll.FAILED).p_success}


@runner("seventh.fall_back")
def _fall_back(i: Inputs) -> Result:
    dist = SEVENTH.fall_back_distance(i.text("unit_type"))
    return {"dice": f"{(dist.max()) // 6}D6", **_range(dist)}


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
    return {"mission": MISSIONS[roll - 1], "p_each": Fraction(1, 6)}


@runner("killteam.overwatch")
def _kt_overwatch(i: Inputs) -> Result:
    distances = [float(d) for d in i._get("friends_distances", [])]
    return {"shooters": KT.overwatch_shooters(distances)}
