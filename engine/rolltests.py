"""Tests a player rolls outside the attack sequence, as JSON: what ``rulekb calc`` does with a ``test``.

Input: ``{"edition": "6", "test": {"kind": "leadership", "leadership": 8, "modifier": -1}}``. Kinds:

``leadership``         the edition's Leadership test (battle-shock in the 10th): ``leadership``,
                       ``modifier``, ``reroll``
``charge``             the charge roll reaching ``needed`` inches: ``needed``, ``reroll``,
                       ``difficult_terrain`` (6th/7th: 3D6, the highest discarded)
``sweeping-advance``   6th/7th: P(the winner catches the loser): ``winner_initiative``, ``loser_initiative``
``discard-highest``    roll ``dice`` D6 and drop the highest: the distribution, and P(≥ ``needed``) if given
``fall-back``          7th/Kill Team: the fall back distance for a ``unit_type`` (2D6 or 3D6)
``regroup``            7th/Kill Team: P(regroup): ``leadership``, ``models_left``, ``starting_models``,
                       ``independent_character``, ``charged``

Output: ``{"edition", "edition_name", "test", "p_pass" ("a/b" or null), "p_pass_decimal",
"distribution" ([[k, "p"]] or null), "steps": [{"concept", "title", "detail", "cites", "values"}],
"concepts"}``. Every rule function called names its concept and lines, so each step cites the text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from rulekb.engine.concepts import citations_of, concept_of
from rulekb.engine.dice import Dist
from rulekb.engine.editions import Edition
from rulekb.engine.editions.seventh import Seventh
from rulekb.engine.editions.sixth import Sixth, drop_highest
from rulekb.engine.errors import EngineError, ProfileError
from rulekb.engine.rolls import parse_reroll

__all__ = ["TEST_KINDS", "run_test"]

Outcome = tuple[Fraction | None, Dist | None, Callable[..., Any], str]


class _Fields:
    """Strict reading of the ``test`` object: every error names ``test.<field>``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.used = {"kind"}

    def integer(self, key: str, default: int | None = None, low: int = -100, high: int = 100) -> int:
        self.used.add(key)
        value = self.data.get(key, default)
        if value is None:
            raise ProfileError(f"test.{key}", "is required for this test.")
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProfileError(f"test.{key}", f"must be a whole number, got {value!r}.")
        if not low <= value <= high:
            raise ProfileError(f"test.{key}", f"{value!r} is out of range {low}..{high}.")
        return value

    def flag(self, key: str) -> bool:
        self.used.add(key)
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise ProfileError(f"test.{key}", f"must be true or false, got {value!r}.")
        return value

    def text(self, key: str, default: str) -> str:
        self.used.add(key)
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise ProfileError(f"test.{key}", f"must be a string, got {value!r}.")
        return value


def _older(edition: Edition, kind: str) -> Sixth:
    if not isinstance(edition, Sixth):
        raise ProfileError("test.kind", f"{kind!r} is a 6th/7th-edition rule; choose edition 6, 7 or kt.")
    return edition


def _leadership(edition: Edition, f: _Fields) -> Outcome:
    reroll = parse_reroll(f.text("reroll", "none"))
    p = edition.leadership_test(f.integer("leadership", low=0, high=20), f.integer("modifier", 0, -12, 12), reroll)
    return p, None, type(edition).leadership_test, "Leadership test"


def _charge(edition: Edition, f: _Fields) -> Outcome:
    needed = f.integer("needed", low=0, high=36)
    reroll = parse_reroll(f.text("reroll", "none"))
    terrain = f.flag("difficult_terrain")
    if terrain and not isinstance(edition, Sixth):
        raise ProfileError("test.difficult_terrain", "is a 6th/7th-edition charge rule (3D6, highest dropped); "
                           "the 10th edition adds climbing to the distance instead.")
    p = edition.charge(needed, reroll, difficult_terrain=terrain)
    roll = edition.charge_roll(terrain) if isinstance(edition, Sixth) else edition.charge_roll()
    return p, roll, type(edition).charge, "Charge roll"


def _sweeping(edition: Edition, f: _Fields) -> Outcome:
    older = _older(edition, "sweeping-advance")
    p = older.sweeping_advance(f.integer("winner_initiative", low=0, high=10), f.integer("loser_initiative", low=0, high=10))
    return p, None, Sixth.sweeping_advance, "Sweeping advance: the winner catches the loser"


def _discard_highest(edition: Edition, f: _Fields) -> Outcome:
    dist = drop_highest(f.integer("dice", 3, 2, 6))
    needed = f.data.get("needed")
    p = None if needed is None else dist.p_at_least(f.integer("needed", low=0, high=36))
    return p, dist, drop_highest, "Dice with the highest discarded"


def _fall_back(edition: Edition, f: _Fields) -> Outcome:
    if not isinstance(edition, Seventh):
        raise ProfileError("test.kind", "'fall-back' distances are printed in the 7th-edition text; choose 7 or kt.")
    dist = edition.fall_back_distance(f.text("unit_type", "infantry"))
    return None, dist, Seventh.fall_back_distance, "Fall back distance"


def _regroup(edition: Edition, f: _Fields) -> Outcome:
    if not isinstance(edition, Seventh):
        raise ProfileError("test.kind", "'regroup' is printed in the 7th-edition text; choose 7 or kt.")
    p = edition.regroup_test(f.integer("leadership", low=0, high=20), f.integer("models_left", low=0, high=500),
                             f.integer("starting_models", low=1, high=500), f.flag("independent_character"),
                             f.flag("charged"))
    return p, None, Seventh.regroup_test, "Regroup test"


TEST_KINDS: dict[str, Callable[[Edition, _Fields], Outcome]] = {
    "leadership": _leadership,
    "charge": _charge,
    "sweeping-advance": _sweeping,
    "discard-highest": _discard_highest,
    "fall-back": _fall_back,
    "regroup": _regroup,
}


def run_test(edition: Edition, data: Any) -> dict[str, Any]:
    """Resolve one ``test`` object for ``edition`` into the JSON result described above."""
    if not isinstance(data, Mapping):
        raise ProfileError("test", f"must be an object like {{\"kind\": \"leadership\", \"leadership\": 8}}, got {data!r}.")
    kind = str(data.get("kind", "")).strip().lower().replace("_", "-")
    if kind not in TEST_KINDS:
        raise ProfileError("test.kind", f"{data.get('kind')!r}; use one of: {', '.join(TEST_KINDS)}.")
    fields = _Fields(data)
    try:
        p, dist, fn, title = TEST_KINDS[kind](edition, fields)
    except ProfileError:
        raise
    except EngineError as exc:
        raise ProfileError("test", str(exc)) from exc
    unknown = sorted(set(data) - fields.used)
    if unknown:
        raise ProfileError(f"test.{unknown[0]}", f"is not read by the {kind!r} test; remove it or fix its name.")
    values = {} if p is None else {"p_pass": str(p)}
    if dist is not None:
        values["mean"] = str(dist.mean())
    step = {"concept": concept_of(fn), "title": title, "detail": " ".join((fn.__doc__ or "").split("\n\n")[0].split()),
            "cites": [c.to_json() for c in citations_of(fn)], "values": values}
    return {
        "edition": edition.key,
        "edition_name": edition.name,
        "test": kind,
        "p_pass": None if p is None else str(p),
        "p_pass_decimal": None if p is None else float(p),
        "distribution": None if dist is None else dist.to_json(),
        "steps": [step],
        "concepts": [step["concept"]] if step["concept"] else [],
    }
