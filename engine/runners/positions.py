"""What the table runners share: reading an example's positions, the inputs they take (lengths, unit names,
the moves drawn) and a verdict flattened into a runner's result."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulekb.engine.errors import ProfileError
from rulekb.engine.runners.base import Inputs, Result
from rulekb.engine.table.geometry import inches
from rulekb.engine.table.state import Path, Table, parse_table
from rulekb.engine.table.verdict import Verdict

__all__ = ["length_of", "moves_of", "read_table", "unit_names", "verdict_result"]


def read_table(i: Inputs) -> Table:
    """The example's positions (``inputs.table``) read strictly into a :class:`Table`."""
    return parse_table(i._get("table", None), "positions")


def verdict_result(v: Verdict) -> Result:
    """A verdict flattened for a worked example: ok, the failed conditions, the rules applied and the values."""
    out: Result = {"ok": v.ok, "failed": [r.text for r in v.failed], "rules": v.rules,
                   "reasons": [str(r) for r in v.reasons]}
    for key, value in v.values.items():
        out[key] = _plain(value)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def moves_of(table: Table, unit: str) -> dict[str, Path]:
    """The moves drawn for the models of ``unit`` (the diagram's arrows)."""
    ids = {m.id for m in table.unit(unit).models}
    return {k: v for k, v in table.moves.items() if k in ids}


def length_of(i: Inputs, key: str, default: Any) -> Fraction:
    """An input length in inches (``3``, ``4.5``, ``"4 1/2"``) as a :class:`Fraction`."""
    return inches(i._get(key, default), f"inputs.{key}")


def unit_names(i: Inputs, key: str) -> list[str]:
    """An input naming one unit or a list of them."""
    value = i._get(key, [])
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProfileError(f"inputs.{key}", "must be a unit name or a list of them.")
    return value
