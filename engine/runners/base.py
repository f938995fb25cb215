"""Named entry points into the engine: a mapping of inputs in, a mapping of results out.

Worked examples (``kb/examples/*.toml``) name the runner that computes them (``run = "tenth.blast"``),
and the web app can call the same names. Each runner reads its inputs strictly (a missing or
mistyped input raises :class:`~rulekb.engine.errors.ProfileError` naming ``inputs.<key>``) and returns plain
values: ``int``, ``bool``, ``str``, lists, and ``Fraction`` for probabilities.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulekb.engine.dice import DiceExpr, Dist, parse_dice
from rulekb.engine.errors import EngineError, ProfileError

__all__ = ["RUNNERS", "Inputs", "Result", "Runner", "range_of", "run", "runner"]

Result = dict[str, Any]
Runner = Callable[["Inputs"], Result]

#: runner name -> function.
RUNNERS: dict[str, Runner] = {}
_MISSING = object()


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
    if extra:
        raise ProfileError(f"inputs.{extra[0]}", f"is not read by runner {name!r}; remove it or fix its name.")
    return result


def range_of(dist: Dist) -> Result:
    """Minimum, maximum and mean of a distribution."""
    return {"min": dist.min(), "max": dist.max(), "mean": dist.mean()}
