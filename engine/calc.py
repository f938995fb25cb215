"""One attack profile as JSON in, the exact result as JSON out: what ``rulekb calc`` and the web app call.

Input (every field but ``edition`` optional; short aliases accepted, e.g. ``bs``, ``s``, ``t``, ``sv``)::

    {"edition": "10",
     "attacker": {"models": 5},
     "weapon": {"type": "ranged", "attacks": "D6", "skill": 3, "strength": 4, "ap": -1, "damage": "D3",
                "abilities": ["lethal-hits", "sustained-hits 1", "anti-vehicle 4+", "melta 2"]},
     "defender": {"models": 5, "toughness": 4, "save": 3, "wounds": 2, "invulnerable": null, "fnp": null,
                  "keywords": ["INFANTRY"], "wounds_taken": 0, "weapon_skill": null, "cover_save": null},
     "situation": {"half_range": false, "remained_stationary": false, "charged": false,
                   "target_visible": true, "cover": false, "overwatch": false, "stealth": false,
                   "big_guns_in_engagement": false, "snap_shots": false, "two_weapons": false,
                   "disordered_charge": false},
     "modifiers": {"hit": 0, "wound": 0, "save": 0, "damage": 0},
     "rerolls": {"hit": "none", "wound": "none", "save": "none"},
     "options": {"devastating_spill": false}}

Output: ``{"edition", "expected": {...floats}, "expected_exact": {..."a/b"}, "distributions": {name:
[[k, "p"], ...]}, "distributions_decimal": {...}, "summary": {...}, "steps": [...], "concepts": [...]}``.
Bad input raises :class:`~rulekb.engine.errors.ProfileError` naming the field and the fix.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields, replace
from typing import Any

from rulekb.engine.attack import AttackResult
from rulekb.engine.dice import DiceExpr, parse_dice
from rulekb.engine.editions import Edition, get_edition
from rulekb.engine.errors import EngineError, ProfileError
from rulekb.engine.limits import ATTACKERS_MAX, MODELS_MAX, WORK_MAX, WOUNDS_MAX, check_profile
from rulekb.engine.profiles import Defender, Profile, Rerolls, Situation, Weapon, parse_abilities
from rulekb.engine.rolls import parse_reroll
from rulekb.engine.rolltests import run_test
from rulekb.engine.unit import resolve_unit

__all__ = ["CONTRACT_KEYS", "MAX_WEAPONS", "calculate", "calculate_lines", "parse_profile", "parse_profiles",
           "result_to_json"]

#: The ``expected`` keys every result carries (the JSON contract).
CONTRACT_KEYS = ("attacks", "hits", "critical_hits", "wounds", "critical_wounds", "unsaved", "mortal_wounds",
                 "damage", "models_destroyed")

_SECTIONS = ("edition", "attacker", "weapon", "weapons", "defender", "situation", "modifiers", "rerolls", "options",
             "criticals", "test")
_WEAPON = {
    "name": "name", "type": "type", "attacks": "attacks", "a": "attacks", "skill": "skill", "bs": "skill",
    "ws": "skill", "strength": "strength", "s": "strength", "ap": "ap", "damage": "damage", "d": "damage",
    "abilities": "abilities", "melee": "melee",
}
_DEFENDER = {
    "models": "models", "toughness": "toughness", "t": "toughness", "save": "save", "sv": "save",
    "wounds": "wounds", "w": "wounds", "invulnerable": "invulnerable", "invuln": "invulnerable",
    "inv": "invulnerable", "fnp": "fnp", "feel_no_pain": "fnp", "keywords": "keywords",
    "wounds_taken": "wounds_taken", "weapon_skill": "weapon_skill", "ws": "weapon_skill",
    "cover_save": "cover_save",
}
_ATTACKER = {"models": "models", "bs": "skill", "ws": "skill", "skill": "skill"}
_SITUATION = {f.name for f in fields(Situation)}
_MODIFIERS = {"hit", "wound", "save", "damage"}
_REROLLS = {"hit", "wound", "save"}
_OPTIONS = {"devastating_spill"}
_CRITICALS = {"hit", "wound"}
#: Fields one group of a mixed target unit may set (the rest are the unit's: toughness, keywords…).
_GROUP = {"models": "models", "save": "save", "sv": "save", "wounds": "wounds", "w": "wounds",
          "invulnerable": "invulnerable", "invuln": "invulnerable", "inv": "invulnerable", "fnp": "fnp",
          "feel_no_pain": "fnp"}
#: Most weapons (and most target groups) in one calculation.
MAX_WEAPONS = 8


def _section(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ProfileError(name, f"must be an object, got {type(value).__name__} {value!r}.")
    return value


def _keys(section: Mapping[str, Any], name: str, known: set[str] | dict[str, str]) -> None:
    for key in section:
        if key not in known:
            listed = ", ".join(sorted(known))
            raise ProfileError(f"{name}.{key}", f"unknown field; known fields of {name!r}: {listed}.")


def _int(value: Any, field: str, low: int | None = None, high: int | None = None, allow_none: bool = False) -> Any:
    if value is None and allow_none:
        return None
    if isinstance(value, str) and len(value) > 12:
        raise ProfileError(field, f"must be a whole number, got a string of {len(value)} characters.")
    if isinstance(value, str) and value.strip().rstrip("+").lstrip("-").isdigit():
        value = int(value.strip().rstrip("+"))
    if isinstance(value, bool) or not isinstance(value, int):
        hint = " or null" if allow_none else ""
        raise ProfileError(field, f"must be a whole number{hint}, got {value!r}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ProfileError(field, f"{value!r} is out of range {low}..{high}.")
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise ProfileError(field, f"must be true or false, got {value!r}.")
    return value


def _dice(value: Any, field: str) -> DiceExpr:
    try:
        dice = parse_dice(value)
    except (EngineError, TypeError) as exc:
        raise ProfileError(field, str(exc)) from exc
    return dice


def _edition(data: Mapping[str, Any]) -> Edition:
    if not isinstance(data, Mapping):
        raise ProfileError("profile", f"must be a JSON object, got {type(data).__name__}.")
    _keys(data, "profile", set(_SECTIONS))
    if "edition" not in data:
        raise ProfileError("edition", "is required: one of '10', '6', '7', 'kt' (or an alias like '10th').")
    try:
        return get_edition(data["edition"])
    except EngineError as exc:
        raise ProfileError("edition", str(exc)) from exc


def _weapon(edition: Edition, weapon_in: Mapping[str, Any], attacker: Mapping[str, Any], where: str) -> tuple[Weapon, int]:
    """One weapon and how many models use it (``models`` in a ``weapons`` item, else ``attacker.models``)."""
    w = {_WEAPON.get(k, k): v for k, v in weapon_in.items()}
    a = {_ATTACKER[k]: v for k, v in attacker.items()}
    users = w.pop("models", a.get("models", 1))
    kind = w.pop("type", None)
    melee = w.pop("melee", None)
    if kind is not None and kind not in ("ranged", "melee"):
        raise ProfileError(f"{where}.type", f"{kind!r}: use 'ranged' or 'melee'.")
    is_melee = kind == "melee" or melee is True
    skill = w.get("skill", a.get("skill", 4 if edition.key == "10" else None))
    abilities_in = w.get("abilities", [])
    if not isinstance(abilities_in, list):
        raise ProfileError(f"{where}.abilities", f"must be a list of names, got {abilities_in!r}.")
    try:
        abilities = parse_abilities(abilities_in)
    except EngineError as exc:
        raise ProfileError(f"{where}.abilities", str(exc).split(": ", 1)[-1]) from exc
    attacks = _dice(w.get("attacks", 1), f"{where}.attacks")
    if attacks.is_constant and attacks.plus < 1:
        raise ProfileError(f"{where}.attacks", f"{attacks.plus!r} attacks; give at least 1 (or a dice expression).")
    weapon = Weapon(
        name=str(w.get("name", "weapon")),
        melee=is_melee,
        attacks=attacks,
        skill=_int(skill, f"{where}.skill", 0, 10, allow_none=True),
        strength=_int(w.get("strength", 4), f"{where}.strength", 1, 30),
        ap=_int(w.get("ap", 0 if edition.key == "10" else None), f"{where}.ap", -6, 6, allow_none=True),
        damage=_dice(w.get("damage", 1), f"{where}.damage"),
        abilities=abilities,
    )
    field = f"{where}.models" if "models" in weapon_in else "attacker.models"
    return weapon, _int(users, field, 1, ATTACKERS_MAX)


def _defender(defender_in: Mapping[str, Any]) -> list[Defender]:
    """The target unit as groups of identical models, in allocation order (one group unless ``groups``)."""
    d = {_DEFENDER.get(k, k): v for k, v in defender_in.items()}
    groups_in = d.pop("groups", None)
    keywords = d.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise ProfileError("defender.keywords", f"must be a list of strings, got {keywords!r}.")
    if groups_in is None:
        groups: list[Mapping[str, Any]] = [d]
    else:
        if not isinstance(groups_in, list) or not 1 <= len(groups_in) <= MAX_WEAPONS:
            raise ProfileError("defender.groups", f"must be a list of 1 to {MAX_WEAPONS} objects like "
                               "{\"models\": 5, \"save\": 3, \"wounds\": 2}, allocated in that order.")
        both = sorted({_GROUP[k] for k, v in d.items() if k in _GROUP and v is not None})
        if both:
            raise ProfileError(f"defender.{both[0]}", "is given per group when the unit has groups; "
                               "remove it from the unit or from the groups.")
        groups = []
        for n, group in enumerate(groups_in):
            if not isinstance(group, Mapping):
                raise ProfileError(f"defender.groups[{n}]", f"must be an object, got {group!r}.")
            _keys(group, f"defender.groups[{n}]", _GROUP)
            groups.append({**d, **{_GROUP[k]: v for k, v in group.items()}})
    out: list[Defender] = []
    for n, g in enumerate(groups):
        where = "defender" if groups_in is None else f"defender.groups[{n}]"
        defender = Defender(
            models=_int(g.get("models", 1), f"{where}.models", 1, MODELS_MAX),
            toughness=_int(g.get("toughness", 4), "defender.toughness", 1, 30),
            save=_int(g.get("save", 4), f"{where}.save", 2, 7, allow_none=True),
            wounds=_int(g.get("wounds", 1), f"{where}.wounds", 1, WOUNDS_MAX),
            invulnerable=_int(g.get("invulnerable"), f"{where}.invulnerable", 2, 6, allow_none=True),
            fnp=_int(g.get("fnp"), f"{where}.fnp", 2, 6, allow_none=True),
            keywords=tuple(k.upper() for k in keywords),
            wounds_taken=_int(g.get("wounds_taken", 0) if n == 0 else 0, "defender.wounds_taken", 0, 99),
            weapon_skill=_int(g.get("weapon_skill"), "defender.weapon_skill", 0, 10, allow_none=True),
            cover_save=_int(g.get("cover_save"), "defender.cover_save", 2, 6, allow_none=True),
        )
        if defender.save == 7:
            defender = Defender(**{**defender.__dict__, "save": None})
        out.append(defender)
    return out


def parse_profiles(data: Mapping[str, Any]) -> tuple[Edition, list[list[Profile]]]:
    """Validate a JSON profile: one list per weapon (in firing order) of one profile per target group."""
    edition = _edition(data)
    attacker = _section(data, "attacker")
    _keys(attacker, "attacker", _ATTACKER)
    if "weapon" in data and "weapons" in data:
        raise ProfileError("weapons", "give either 'weapon' (one) or 'weapons' (a list), not both.")
    if "weapons" in data:
        items = data["weapons"]
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_WEAPONS:
            raise ProfileError("weapons", f"must be a list of 1 to {MAX_WEAPONS} weapon objects, fired in that order.")
        weapons_in = [(f"weapons[{n}]", item) for n, item in enumerate(items)]
    else:
        weapons_in = [("weapon", _section(data, "weapon"))]
    weapons: list[tuple[Weapon, int]] = []
    for where, item in weapons_in:
        if not isinstance(item, Mapping):
            raise ProfileError(where, f"must be an object, got {type(item).__name__}.")
        _keys(item, where, {**_WEAPON, **({"models": "models"} if where != "weapon" else {})})
        weapons.append(_weapon(edition, item, attacker, where))
    defender_in = _section(data, "defender")
    _keys(defender_in, "defender", {**_DEFENDER, "groups": "groups"})
    groups = _defender(defender_in)
    situation_in = _section(data, "situation")
    _keys(situation_in, "situation", _SITUATION)
    modifiers = _section(data, "modifiers")
    _keys(modifiers, "modifiers", _MODIFIERS)
    rerolls_in = _section(data, "rerolls")
    _keys(rerolls_in, "rerolls", _REROLLS)
    options = _section(data, "options")
    _keys(options, "options", _OPTIONS)
    criticals = _section(data, "criticals")
    _keys(criticals, "criticals", _CRITICALS)
    situation = Situation(**{k: _bool(v, f"situation.{k}") for k, v in situation_in.items()})
    try:
        rerolls = Rerolls(**{k: parse_reroll(v) for k, v in rerolls_in.items()})
    except EngineError as exc:
        raise ProfileError("rerolls", str(exc)) from exc
    common = {
        "situation": situation,
        "hit_modifier": _int(modifiers.get("hit", 0), "modifiers.hit", -6, 6),
        "wound_modifier": _int(modifiers.get("wound", 0), "modifiers.wound", -6, 6),
        "save_modifier": _int(modifiers.get("save", 0), "modifiers.save", -6, 6),
        "damage_modifier": _int(modifiers.get("damage", 0), "modifiers.damage", -6, 6),
        "rerolls": rerolls,
        "critical_hit_on": _int(criticals.get("hit", 6), "criticals.hit", 2, 6),
        "critical_wound_on": _int(criticals.get("wound", 6), "criticals.wound", 2, 6),
        "devastating_spill": _bool(options.get("devastating_spill", False), "options.devastating_spill"),
    }
    profiles = [[Profile(weapon=weapon, attackers=users, defender=defender, **common)
                 for defender in groups] for weapon, users in weapons]
    # The engine's limits (engine/limits.py), before any distribution is built: each weapon against each
    # group, and the weapons together.
    work = 0
    for row in profiles:
        work += max(check_profile(profile).operations for profile in row)
    if work > WORK_MAX:
        raise ProfileError("weapons", f"these {len(profiles)} weapons need about {work / 1e6:.0f} million steps of "
                           f"exact arithmetic together; the engine answers up to {WORK_MAX / 1e6:.0f} million. "
                           "Use fewer weapons or attacks.")
    return edition, profiles


def parse_profile(data: Mapping[str, Any]) -> tuple[Edition, Profile]:
    """Validate a JSON profile of one weapon against one kind of model and build the engine's objects."""
    edition, profiles = parse_profiles(data)
    if len(profiles) != 1 or len(profiles[0]) != 1:
        raise ProfileError("weapons", "this entry point takes one weapon against one kind of model.")
    return edition, profiles[0][0]


def result_to_json(edition: Edition, result: AttackResult, target_models: int) -> dict[str, Any]:
    """The JSON contract for one resolved profile."""
    exact = {k: result.expected[k] for k in CONTRACT_KEYS}
    exact.update({k: v for k, v in result.expected.items() if k not in exact})
    damage = result.distributions["damage"]
    destroyed = result.distributions["models_destroyed"]
    concepts: list[str] = []
    for step in result.steps:
        if step.concept not in concepts:
            concepts.append(step.concept)
    return {
        "edition": edition.key,
        "edition_name": edition.name,
        "expected": {k: float(v) for k, v in exact.items()},
        "expected_exact": {k: str(v) for k, v in exact.items()},
        "distributions": {k: v.to_json() for k, v in result.distributions.items()},
        "distributions_decimal": {k: [[x, float(p)] for x, p in v.items()] for k, v in result.distributions.items()},
        "summary": {
            "p_any_damage": str(1 - damage.prob(0)),
            "p_at_least_one_model_destroyed": str(destroyed.p_at_least(1)),
            "p_unit_destroyed": str(destroyed.prob(target_models)),
        },
        "steps": [step.to_json() for step in result.steps],
        "concepts": concepts,
    }


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError("profile", f"is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
                           "give an object like {\"edition\": \"10\", \"weapon\": {...}}.") from exc


def _resolve(edition: Edition, profiles: list[list[Profile]]) -> AttackResult:
    if len(profiles) == 1 and len(profiles[0]) == 1:
        return edition.attack(profiles[0][0])
    total = sum(p.defender.models for p in profiles[0])
    weapons = []
    for group_profiles in profiles:
        plans = []
        for profile in group_profiles:
            # Rules that count the target's models (Blast) see the whole unit, not one group.
            whole = profile.with_(defender=replace(profile.defender, models=total))
            plans.append(replace(edition.plan(whole), target_models=profile.defender.models))
        weapons.append(plans)
    return resolve_unit(weapons)


def calculate(data: Mapping[str, Any] | str) -> dict[str, Any]:
    """Resolve one profile (a mapping or a JSON string) into the JSON result.

    A profile with ``test`` resolves that test instead (:mod:`rulekb.engine.rolltests`); one with ``weapons``
    fires each weapon in turn; ``defender.groups`` makes a unit of mixed models (:mod:`rulekb.engine.unit`).
    """
    if isinstance(data, str):
        data = _loads(data)
    if not isinstance(data, Mapping):
        raise ProfileError("profile", f"must be a JSON object, got {type(data).__name__}.")
    if "test" in data:
        extra = sorted(set(data) - {"edition", "test"})
        if extra:
            raise ProfileError(extra[0], "a test takes only 'edition' and 'test'; remove it or drop 'test'.")
        return run_test(_edition(data), data["test"])
    edition, profiles = parse_profiles(data)
    result = _resolve(edition, profiles)
    out = result_to_json(edition, result, sum(p.defender.models for p in profiles[0]))
    if len(profiles) > 1 or len(profiles[0]) > 1:
        out["weapons"] = [{"name": p[0].weapon.name, "models": p[0].attackers} for p in profiles]
        out["groups"] = [{"models": p.defender.models, "wounds": p.defender.wounds} for p in profiles[0]]
    return out


def calculate_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """``rulekb calc --batch``: one JSON profile per line in, one object per line out.

    A line may carry an ``id`` (echoed back). Each output is ``{"id", "result"}`` or, for a bad
    profile, ``{"id", "error": {"field", "message"}}``: one bad line never stops the batch. Blank
    lines are skipped; ``line`` numbers the input line.
    """
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        out: dict[str, Any] = {"line": number, "id": None}
        try:
            data = _loads(line)
            if isinstance(data, dict) and "id" in data:
                out["id"] = data.pop("id")
            out["result"] = calculate(data)
        except ProfileError as exc:
            out["error"] = {"field": exc.field, "message": str(exc)}
        except EngineError as exc:
            out["error"] = {"field": "profile", "message": str(exc)}
        yield out
