"""The attack calculator: a GET form (so a result is a shareable URL) over ``rulekb.engine.calc.calculate``.

The form's fields are declared once in :data:`FIELDS`; :func:`profile_from_args` turns the query
parameters into the engine's profile (the ``rulekb calc --json`` input), the page shows the
expected values, the steps and the exact distributions as SVG charts, for one edition or two side
by side. ``/api/calc`` takes the same parameters.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, current_app, render_template, request

from rulekb.corpus.editions import display_order, family_of, labels
from rulekb.corpus.errors import QueryError, RulebaseError
from rulekb.engine.limits import ATTACKERS_MAX, MODELS_MAX, WOUNDS_MAX
from rulekb.webapp.data import edition_label
from rulekb.webapp.guard import request_budget, time_budget

__all__ = ["FIELDS", "Field", "bp", "calculate", "profile_from_args"]

bp = Blueprint("calc", __name__)

EDITION_CHOICES = tuple((edition, labels()[edition]) for edition in display_order())
#: The editions that use the engine's 10th-edition profile, and those that use its 6th-edition one.
_TENTH = family_of("10")
_CLASSIC = family_of("6")
REROLL_CHOICES = (
    ("none", "нет"),
    ("ones", "единицы"),
    ("failed", "проваленные"),
    ("noncrit", "всё, кроме критов (ловля 6)"),
    ("single", "один кубик (командный)"),
)


@dataclass(frozen=True)
class Field:
    """One input of the calculator: name in the URL, label, type and bounds."""

    name: str
    label: str
    kind: str  # integer, dice, choice, boolean, string
    default: Any
    group: str
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    #: editions where the field means something (empty: all)
    editions: tuple[str, ...] = ()
    blank: bool = False  # an empty value means «none» (no invulnerable save…)

    def schema_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.kind == "integer":
            if self.minimum is not None:
                extra["minimum"] = self.minimum
            if self.maximum is not None:
                extra["maximum"] = self.maximum
        if self.choices:
            extra["enum"] = [value for value, _ in self.choices]
        if self.kind == "dice":
            extra["pattern"] = r"^\d*[DdДд]?\d+(\s*[+]\s*\d+)?$"
        if self.default not in (None, ""):
            extra["default"] = self.default
        return extra


ABILITY_FLAGS: tuple[tuple[str, str], ...] = (
    ("lethal-hits", "Смертельные попадания"),
    ("devastating-wounds", "Сокрушительные раны"),
    ("twin-linked", "Спаренное"),
    ("torrent", "Торрент (попадает всегда)"),
    ("lance", "Копьё (+1 к ранению на чардже)"),
    ("heavy", "Тяжёлое (+1 к попаданию, если стоял)"),
    ("blast", "Взрыв"),
    ("ignores-cover", "Игнорирует укрытие"),
    ("assault", "Штурмовое"),
    ("pistol", "Пистолет"),
    ("precision", "Точность"),
    ("indirect-fire", "Непрямой огонь"),
    ("hazardous", "Опасное"),
)

FIELDS: tuple[Field, ...] = (
    Field("edition", "Редакция", "choice", "10", "edition", "Edition of the rules.", choices=EDITION_CHOICES),
    Field(
        "compare", "Сравнить с редакцией", "choice", "", "edition", "A second edition shown side by side.",
        choices=(("", "—"), *EDITION_CHOICES), blank=True,
    ),
    Field("attackers", "Атакующих моделей", "integer", 5, "attacker", "Attacking models.", 1, ATTACKERS_MAX),
    Field("melee", "Ближний бой", "boolean", False, "weapon", "A melee weapon (else shooting)."),
    Field("attacks", "Атаки (A)", "dice", "2", "weapon", "Attacks per model: 2, D6, D3+1…"),
    Field(
        "skill", "Попадает на X+ (BS/WS)", "integer", 3, "weapon",
        "10th: the weapon's BS/WS target (3 means 3+).", 2, 6, editions=_TENTH,
    ),
    Field(
        "skill_old", "BS/WS модели", "integer", 4, "weapon",
        "6th/7th/Kill Team: the attacker's BS (shooting) or WS (close combat), 1-10.", 1, 10,
        editions=_CLASSIC,
    ),
    Field("strength", "Сила (S)", "integer", 4, "weapon", "Strength.", 1, 20),
    Field("ap", "Бронебойность (AP)", "integer", 0, "weapon", "10th: 0 to -6.", -6, 0, editions=_TENTH),
    Field(
        "ap_old", "Бронебойность (AP)", "integer", None, "weapon",
        "6th/7th/Kill Team: 1-6 (lower is better); empty for «–».", 1, 6, editions=_CLASSIC, blank=True,
    ),
    Field("damage", "Урон (D)", "dice", "1", "weapon", "Damage per unsaved wound: 1, D3, D6+1… (10th).",
          editions=_TENTH),
    Field("sustained", "Устойчивые попадания X", "dice", "", "weapon", "Sustained Hits X (10th).",
          editions=_TENTH, blank=True),
    Field("rapid_fire", "Быстрый огонь X", "dice", "", "weapon", "Rapid Fire X at half range (10th).",
          editions=_TENTH, blank=True),
    Field("melta", "Мелта X", "integer", None, "weapon", "Melta X at half range (10th).", 1, 6,
          editions=_TENTH, blank=True),
    Field("anti", "Анти-КЛЮЧЕВОЕ СЛОВО X+", "string", "", "weapon",
          "Anti-KEYWORD X+ as «VEHICLE 4» (10th).", editions=_TENTH, blank=True),
    Field("models", "Моделей в цели", "integer", 5, "defender", "Models in the target unit.", 1, MODELS_MAX),
    Field("toughness", "Стойкость (T)", "integer", 4, "defender", "Toughness.", 1, 20),
    Field("save", "Спасбросок (Sv)", "integer", 3, "defender", "Armour save target (3 means 3+); empty: none.",
          2, 7, blank=True),
    Field("wounds", "Раны (W)", "integer", 2, "defender", "Wounds per model.", 1, WOUNDS_MAX),
    Field("invulnerable", "Неуязвимый спасбросок", "integer", None, "defender",
          "Invulnerable save target; empty: none.", 2, 6, blank=True),
    Field("fnp", "Не чувствовать боли", "integer", None, "defender", "Feel No Pain target (10th); empty: none.",
          2, 6, editions=_TENTH, blank=True),
    Field("keywords", "Ключевые слова цели", "string", "", "defender", "Target keywords for Anti-X, e.g. «VEHICLE».",
          editions=_TENTH, blank=True),
    Field("defender_ws", "WS цели", "integer", 4, "defender", "6th/7th/Kill Team close combat: the target's WS.",
          1, 10, editions=_CLASSIC),
    Field("cover", "Укрытие (спасбросок)", "integer", None, "defender",
          "6th/7th/Kill Team: the cover save (4 means 4+); empty: none.", 2, 6, editions=_CLASSIC, blank=True),
    Field("hit_mod", "Модификатор попадания", "integer", 0, "modifiers", "Hit roll modifier.", -3, 3),
    Field("wound_mod", "Модификатор ранения", "integer", 0, "modifiers", "Wound roll modifier.", -3, 3),
    Field("reroll_hit", "Переброс попаданий", "choice", "none", "modifiers", "Hit re-rolls.", choices=REROLL_CHOICES),
    Field("reroll_wound", "Переброс ранений", "choice", "none", "modifiers", "Wound re-rolls.",
          choices=REROLL_CHOICES),
    Field("half_range", "В половине дальности", "boolean", False, "situation", "Target within half range."),
    Field("stationary", "Стоял на месте", "boolean", False, "situation", "The attacker remained stationary."),
    Field("charged", "Совершил чардж", "boolean", False, "situation", "The attacker charged this turn."),
    Field("in_cover", "Цель в укрытии", "boolean", False, "situation", "The target has the Benefit of Cover (10th).",
          editions=_TENTH),
)

#: ability checkboxes travel as repeated ``ability=`` parameters
ABILITY_PARAM = "ability"


def _value(f: Field, raw: str | None) -> Any:
    """One parameter checked and converted; a wrong value raises QueryError naming the field."""
    if f.kind == "boolean":
        return (raw or "").strip().lower() in ("1", "on", "true", "yes", "да")
    text = (raw if raw is not None else "").strip()
    if text == "":
        if f.blank:
            return None
        return f.default
    if len(text) > 40:
        raise QueryError(f"«{f.label}»: value is too long.")
    if f.kind == "integer":
        try:
            number = int(text.replace("−", "-").rstrip("+"))
        except ValueError as exc:
            raise QueryError(f"«{f.label}» ({f.name}) must be a whole number, got {text!r}.") from exc
        if (f.minimum is not None and number < f.minimum) or (f.maximum is not None and number > f.maximum):
            raise QueryError(f"«{f.label}» ({f.name}) must be between {f.minimum} and {f.maximum}, got {number}.")
        return number
    if f.kind == "choice":
        allowed = [value for value, _ in f.choices]
        if text not in allowed:
            raise QueryError(f"«{f.label}» ({f.name}) must be one of {', '.join(a or '«»' for a in allowed)}.")
        return text
    if f.kind == "dice":
        normalised = text.upper().replace("Д", "D").replace(" ", "")
        if not re.fullmatch(r"\d{0,2}D?\d{1,3}(\+\d{1,2})?", normalised):
            raise QueryError(f"«{f.label}» ({f.name}) must be dice like 2, D6, 2D6 or D3+1, got {text!r}.")
        return normalised
    return text


def read_form(args: Mapping[str, str] | Any) -> tuple[dict[str, Any], list[str]]:
    """The calculator's inputs (checked) and the abilities ticked."""
    values = {f.name: _value(f, args.get(f.name)) for f in FIELDS}
    getlist = getattr(args, "getlist", None)
    ticked = list(getlist(ABILITY_PARAM)) if callable(getlist) else []
    known = {name for name, _ in ABILITY_FLAGS}
    unknown = [t for t in ticked if t not in known]
    if unknown:
        raise QueryError(f"Unknown weapon ability {unknown[0][:40]!r}; known: {', '.join(sorted(known))}.")
    return values, ticked


def profile(values: Mapping[str, Any], abilities: list[str], edition: str) -> dict[str, Any]:
    """The engine's profile (the ``rulekb calc --json`` input of ``rulekb.engine.calc``) for one edition."""
    tenth = edition == "10"
    weapon: dict[str, Any] = {
        "type": "melee" if values["melee"] else "ranged",
        "attacks": values["attacks"],
        "skill": values["skill"] if tenth else values["skill_old"],
        "strength": values["strength"],
        "ap": values["ap"] if tenth else values["ap_old"],
    }
    defender: dict[str, Any] = {
        "models": values["models"],
        "toughness": values["toughness"],
        "save": values["save"],
        "wounds": values["wounds"],
        "invulnerable": values["invulnerable"],
    }
    situation = {
        "half_range": values["half_range"],
        "remained_stationary": values["stationary"],
        "charged": values["charged"],
    }
    if tenth:
        ability_list = list(abilities)
        if values["sustained"]:
            ability_list.append(f"sustained-hits {values['sustained']}")
        if values["rapid_fire"]:
            ability_list.append(f"rapid-fire {values['rapid_fire']}")
        if values["melta"]:
            ability_list.append(f"melta {values['melta']}")
        if values["anti"]:
            parts = str(values["anti"]).replace("+", " ").split()
            if len(parts) != 2 or not parts[1].isdigit():
                raise QueryError(f"«Анти» must look like «VEHICLE 4», got {values['anti']!r}.")
            ability_list.append(f"anti-{parts[0].lower()} {parts[1]}+")
        weapon["damage"] = values["damage"]
        weapon["abilities"] = ability_list
        defender["fnp"] = values["fnp"]
        if values["keywords"]:
            defender["keywords"] = [k.upper() for k in str(values["keywords"]).replace(",", " ").split()]
        situation["cover"] = values["in_cover"]
    else:
        defender["weapon_skill"] = values["defender_ws"]
        defender["cover_save"] = values["cover"]
    return {
        "edition": edition,
        "attacker": {"models": values["attackers"]},
        "weapon": weapon,
        "defender": defender,
        "situation": situation,
        "modifiers": {"hit": values["hit_mod"], "wound": values["wound_mod"]},
        "rerolls": {"hit": values["reroll_hit"], "wound": values["reroll_wound"]},
    }


def profile_from_args(args: Mapping[str, str] | Any) -> dict[str, Any]:
    values, abilities = read_form(args)
    return profile(values, abilities, values["edition"])


def calculate(profile_data: dict[str, Any]) -> dict[str, Any]:
    """``rulekb.engine.calc.calculate``; engine errors (a ValueError naming the field) become 400s."""
    try:
        module = importlib.import_module("rulekb.engine.calc")
    except ImportError:
        abort(503, description="Калькулятор недоступен: в этой установке нет движка (rulekb.engine.calc).")

    try:
        budget = float(current_app.config.get("CALC_TIME_BUDGET") or 0)
        with time_budget(request_budget(budget), "The calculation", budget):
            result: dict[str, Any] = module.calculate(profile_data)
    except ValueError as exc:
        if isinstance(exc, RulebaseError):
            raise

        where = edition_label(str(profile_data.get("edition")))
        raise QueryError(f"Профиль не подходит ({where}): {exc}") from exc
    return result


RESULT_LABELS = (
    ("attacks", "Атаки"),
    ("hits", "Попадания"),
    ("critical_hits", "Крит. попадания"),
    ("wounds", "Ранения"),
    ("critical_wounds", "Крит. ранения"),
    ("unsaved", "Не спасено"),
    ("mortal_wounds", "Смертельные раны"),
    ("damage", "Урон"),
    ("models_destroyed", "Убито моделей"),
)
#: the distributions the page draws, in order
DIST_LABELS = {"hits": "Попадания", "wounds": "Ранения", "damage": "Урон", "models_destroyed": "Убито моделей"}


@bp.route("/calc")
def calc() -> str | tuple[str, int]:
    error = None
    results: list[dict[str, Any]] = []
    values: dict[str, Any] = {f.name: f.default for f in FIELDS}
    ticked: list[str] = []
    submitted = bool(request.args)
    try:
        values, ticked = read_form(request.args)
        if submitted:
            editions = [values["edition"]]
            if values["compare"] and values["compare"] != values["edition"]:
                editions.append(values["compare"])
            for edition in editions:
                results.append(calculate(profile(values, ticked, edition)))
    except QueryError as exc:
        error = exc.message
    page = render_template(
        "calc.html",
        fields=FIELDS,
        values=values,
        ticked=ticked,
        abilities=ABILITY_FLAGS,
        abilities_editions=_TENTH,
        results=results,
        error=error,
        result_labels=RESULT_LABELS,
        dist_labels=DIST_LABELS,
        ability_param=ABILITY_PARAM,
    )
    return (page, 400) if error else page

