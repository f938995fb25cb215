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
Bad input raises :class:`~engine.errors.ProfileError` naming the field and the fix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from engine.attack import AttackResult
from engine.dice import DiceExpr, parse_dice
from engine.editions import Edition, get_edition
from engine.errors import EngineError, ProfileError
from engine.limits import ATTACKERS_MAX, MODELS_MAX, WOUNDS_MAX, check_profile
from engine.profiles import Defender, Profile, Rerolls, Situation, Weapon, parse_abilities
from engine.rolls import parse_reroll

__all__ = ["CONTRACT_KEYS", "calculate", "parse_profile", "result_to_json"]

#: The ``expected`` keys every result carries (the JSON contract).
CONTRACT_KEYS = ("attacks", "hits", "critical_hits", "wounds", "critical_wounds", "unsaved", "mortal_wounds",
                 "damage", "models_destroyed")

_SECTIONS = ("edition", "attacker", "weapon", "defender", "situation", "modifiers", "rerolls", "options")
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


def parse_profile(data: Mapping[str, Any]) -> tuple[Edition, Profile]:
    """Validate a JSON profile and build the engine's objects."""
    if not isinstance(data, Mapping):
        raise ProfileError("profile", f"must be a JSON object, got {type(data).__name__}.")
    _keys(data, "profile", set(_SECTIONS))
    if "edition" not in data:
        raise ProfileError("edition", "is required: one of '10', '6', '7', 'kt' (or an alias like '10th').")
    try:
        edition = get_edition(data["edition"])
    except EngineError as exc:
        raise ProfileError("edition", str(exc)) from exc

    attacker = _section(data, "attacker")
    _keys(attacker, "attacker", _ATTACKER)
    weapon_in = _section(data, "weapon")
    _keys(weapon_in, "weapon", _WEAPON)
    defender_in = _section(data, "defender")
    _keys(defender_in, "defender", _DEFENDER)
    situation_in = _section(data, "situation")
    _keys(situation_in, "situation", _SITUATION)
    modifiers = _section(data, "modifiers")
    _keys(modifiers, "modifiers", _MODIFIERS)
    rerolls_in = _section(data, "rerolls")
    _keys(rerolls_in, "rerolls", _REROLLS)
    options = _section(data, "options")
    _keys(options, "options", _OPTIONS)

    w = {_WEAPON[k]: v for k, v in weapon_in.items()}
    a = {_ATTACKER[k]: v for k, v in attacker.items()}
    kind = w.pop("type", None)
    melee = w.pop("melee", None)
    if kind is not None and kind not in ("ranged", "melee"):
        raise ProfileError("weapon.type", f"{kind!r}: use 'ranged' or 'melee'.")
    is_melee = kind == "melee" or melee is True
    skill = w.get("skill", a.get("skill", 4 if edition.key == "10" else None))
    abilities_in = w.get("abilities", [])
    if not isinstance(abilities_in, list):
        raise ProfileError("weapon.abilities", f"must be a list of names, got {abilities_in!r}.")
    try:
        abilities = parse_abilities(abilities_in)
    except EngineError as exc:
        raise ProfileError("weapon.abilities", str(exc).split(": ", 1)[-1]) from exc
    attacks = _dice(w.get("attacks", 1), "weapon.attacks")
    if attacks.is_constant and attacks.plus < 1:
        raise ProfileError("weapon.attacks", f"{attacks.plus!r} attacks; give at least 1 (or a dice expression).")
    weapon = Weapon(
        name=str(w.get("name", "weapon")),
        melee=is_melee,
        attacks=attacks,
        skill=_int(skill, "weapon.skill", 0, 10, allow_none=True),
        strength=_int(w.get("strength", 4), "weapon.strength", 1, 30),
        ap=_int(w.get("ap", 0 if edition.key == "10" else None), "weapon.ap", -6, 6, allow_none=True),
        damage=_dice(w.get("damage", 1), "weapon.damage"),
        abilities=abilities,
    )
    d = {_DEFENDER[k]: v for k, v in defender_in.items()}
    keywords = d.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise ProfileError("defender.keywords", f"must be a list of strings, got {keywords!r}.")
    defender = Defender(
        models=_int(d.get("models", 1), "defender.models", 1, MODELS_MAX),
        toughness=_int(d.get("toughness", 4), "defender.toughness", 1, 30),
        save=_int(d.get("save", 4), "defender.save", 2, 7, allow_none=True),
        wounds=_int(d.get("wounds", 1), "defender.wounds", 1, WOUNDS_MAX),
        invulnerable=_int(d.get("invulnerable"), "defender.invulnerable", 2, 6, allow_none=True),
        fnp=_int(d.get("fnp"), "defender.fnp", 2, 6, allow_none=True),
        keywords=tuple(k.upper() for k in keywords),
        wounds_taken=_int(d.get("wounds_taken", 0), "defender.wounds_taken", 0, 99),
        weapon_skill=_int(d.get("weapon_skill"), "defender.weapon_skill", 0, 10, allow_none=True),
        cover_save=_int(d.get("cover_save"), "defender.cover_save", 2, 6, allow_none=True),
    )
    if defender.save == 7:
        defender = Defender(**{**defender.__dict__, "save": None})
    situation = Situation(**{k: _bool(v, f"situation.{k}") for k, v in situation_in.items()})
    try:
        rerolls = Rerolls(**{k: parse_reroll(v) for k, v in rerolls_in.items()})
    except EngineError as exc:
        raise ProfileError("rerolls", str(exc)) from exc
    profile = Profile(
        weapon=weapon,
        attackers=_int(a.get("models", 1), "attacker.models", 1, ATTACKERS_MAX),
        defender=defender,
        situation=situation,
        hit_modifier=_int(modifiers.get("hit", 0), "modifiers.hit", -6, 6),
        wound_modifier=_int(modifiers.get("wound", 0), "modifiers.wound", -6, 6),
        save_modifier=_int(modifiers.get("save", 0), "modifiers.save", -6, 6),
        damage_modifier=_int(modifiers.get("damage", 0), "modifiers.damage", -6, 6),
        rerolls=rerolls,
        devastating_spill=_bool(options.get("devastating_spill", False), "options.devastating_spill"),
    )
    check_profile(profile)  # the engine's limits (engine/limits.py), before any distribution is built
    return edition, profile


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


def calculate(data: Mapping[str, Any] | str) -> dict[str, Any]:
    """Resolve one profile (a mapping or a JSON string) into the JSON result."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ProfileError("profile", f"is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
                               "give an object like {\"edition\": \"10\", \"weapon\": {...}}.") from exc
    if not isinstance(data, Mapping):
        raise ProfileError("profile", f"must be a JSON object, got {type(data).__name__}.")
    edition, profile = parse_profile(data)
    result = edition.attack(profile)
    return result_to_json(edition, result, profile.defender.models)
