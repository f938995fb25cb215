"""Runners shared by the editions: the whole attack (``calc.attack``), dice expressions, roll-offs, geometry."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulekb.engine import calc
from rulekb.engine.editions.sixth import roll_off, split_roll
from rulekb.engine.errors import ProfileError
from rulekb.engine.geometry import Model, coherency, in_engagement_range, move_used
from rulekb.engine.runners.base import _MISSING, Inputs, Result, range_of, runner


def _model(value: Any, key: str) -> Model:
    if not isinstance(value, list) or not 2 <= len(value) <= 4 or not all(isinstance(v, int | float) for v in value):
        raise ProfileError(key, f"a model is [x, y] or [x, y, z] or [x, y, z, base_mm], got {value!r}.")
    x, y, *rest = (float(v) for v in value)
    z = rest[0] if rest else 0.0
    base = rest[1] if len(rest) > 1 else 32.0
    return Model(x, y, z, base)


@runner("calc.attack")
def _calc_attack(i: Inputs) -> Result:
    i.used.update(i.data)  # the whole mapping is the profile; calc.calculate rejects keys it does not know
    out = calc.calculate(dict(i.data))
    flat: Result = {k: Fraction(v) for k, v in out["expected_exact"].items()}
    flat.update({k: Fraction(v) for k, v in out["summary"].items()})
    for name in ("hits", "wounds", "unsaved", "damage", "models_destroyed"):
        flat[f"p_{name}"] = {str(k): Fraction(p) for k, p in out["distributions"][name]}
    return flat


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
    out = range_of(expr.dist())
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
    return {"p_a": split_roll(set(i.integers("faces_a")))}
