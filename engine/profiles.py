"""Weapon, attacker, defender and situation profiles for the attack sequence (frozen dataclasses).

One :class:`Profile` serves every edition; each edition reads the fields it knows and
:func:`rulekb.engine.calc.calculate` rejects fields an edition does not have. Numbers follow each edition's
own notation: in the 10th edition skills and saves are targets (``skill=3`` means 3+) and AP is 0 or
negative; in the 6th/7th editions WS and BS are characteristics (1–10) and AP is 1–6 or ``None`` («–»).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace

from rulekb.engine.dice import DiceExpr, parse_dice
from rulekb.engine.errors import ProfileError
from rulekb.engine.rolls import Reroll

__all__ = [
    "ABILITY_NAMES",
    "Abilities",
    "Defender",
    "Profile",
    "Rerolls",
    "Situation",
    "Weapon",
    "parse_abilities",
]


@dataclass(frozen=True)
class Abilities:
    """Weapon abilities (10e-core 712–963). Values default to «absent»."""

    assault: bool = False
    rapid_fire: DiceExpr | None = None
    ignores_cover: bool = False
    twin_linked: bool = False
    pistol: bool = False
    torrent: bool = False
    lethal_hits: bool = False
    lance: bool = False
    indirect_fire: bool = False
    precision: bool = False
    blast: bool = False
    melta: int = 0
    heavy: bool = False
    hazardous: bool = False
    devastating_wounds: bool = False
    sustained_hits: DiceExpr | None = None
    extra_attacks: bool = False
    anti: tuple[tuple[str, int], ...] = ()
    exploding_hits: DiceExpr | None = None
    """6th/7th-edition special rules of the «each 6 to hit scores X more hits» kind (what the 10th
    edition calls Sustained Hits); the extra hits are not rolled to hit again."""

    def names(self) -> list[str]:
        """The abilities present, in the canonical spelling :func:`parse_abilities` reads."""
        out: list[str] = []
        for f in fields(self):
            value = getattr(self, f.name)
            slug = f.name.replace("_", "-")
            if value is True:
                out.append(slug)
            elif f.name == "anti":
                out.extend(f"anti-{kw.lower()}-{x}+" for kw, x in value)
            elif isinstance(value, DiceExpr) or (isinstance(value, int) and not isinstance(value, bool) and value):
                out.append(f"{slug}-{value}")
        return out


#: Canonical ability names (the ``X`` of parametrised ones is written after a dash).
ABILITY_NAMES = (
    "assault", "rapid-fire-X", "ignores-cover", "twin-linked", "pistol", "torrent", "lethal-hits", "lance",
    "indirect-fire", "precision", "blast", "melta-X", "heavy", "hazardous", "devastating-wounds",
    "sustained-hits-X", "extra-attacks", "anti-KEYWORD-X+", "exploding-hits-X",
)

#: Russian names as the 10th-edition text prints them (several renderings per ability), and English aliases.
_ALIASES = {
    "атаковать": "assault", "штурмовое": "assault", "штурм": "assault",
    "быстрый-огонь": "rapid-fire", "быстрый-стрелок": "rapid-fire", "скорострельное": "rapid-fire",
    "игнорирует-укрытие": "ignores-cover", "игнорирует-обложку": "ignores-cover",
    "двойное-соединение": "twin-linked", "двойной": "twin-linked", "спаренное": "twin-linked", "twin": "twin-linked",
    "пистолет": "pistol", "торрент": "torrent",
    "смертельные-попадания": "lethal-hits", "смертельные-удары": "lethal-hits", "lethal": "lethal-hits",
    "ланс": "lance", "копьё": "lance", "копье": "lance",
    "непрямой-огонь": "indirect-fire", "косвенный-огонь": "indirect-fire", "indirect": "indirect-fire",
    "точность": "precision", "взрыв": "blast", "мелта": "melta", "мельта": "melta",
    "тяжелый": "heavy", "тяжёлый": "heavy", "опасно": "hazardous", "опасный": "hazardous",
    "ужасные-раны": "devastating-wounds", "сокрушительные-раны": "devastating-wounds",
    "тяжёлые-раны": "devastating-wounds", "devastating": "devastating-wounds", "dev-wounds": "devastating-wounds",
    "устойчивые-хиты": "sustained-hits", "длительные-попадания": "sustained-hits", "sustained": "sustained-hits",
    "дополнительные-атаки": "extra-attacks",
    "exploding": "exploding-hits", "exploding-6s": "exploding-hits", "exploding-sixes": "exploding-hits",
}

_FLAGS = {
    "assault", "ignores-cover", "twin-linked", "pistol", "torrent", "lethal-hits", "lance", "indirect-fire",
    "precision", "blast", "heavy", "hazardous", "devastating-wounds", "extra-attacks",
}
_WITH_X = {"rapid-fire", "melta", "sustained-hits", "exploding-hits"}
_ANTI = re.compile(r"^(?:anti|анти|противо)-?(?P<kw>[^\s]+?)-(?P<x>[2-6])\+?$")


def _slug(text: str) -> str:
    text = text.strip().strip("[]").lower().replace("_", "-")
    return re.sub(r"[\s\-]+", "-", text)


def parse_abilities(items: list[str] | tuple[str, ...], where: str = "weapon.abilities") -> Abilities:
    """Read abilities like ``["lethal-hits", "sustained-hits 1", "anti-vehicle 4+", "melta 2", "rapid fire 1"]``.

    Spelling is forgiving (case, spaces, underscores, square brackets, the Russian names the 10th
    edition text uses); an unknown name raises :class:`ProfileError` listing the known ones.
    """
    values: dict[str, object] = {}
    anti: list[tuple[str, int]] = []
    for raw in items:
        if not isinstance(raw, str):
            raise ProfileError(where, f"ability {raw!r} is not a string; write e.g. 'lethal-hits' or 'melta 2'.")
        slug = _slug(raw)
        anti_match = _ANTI.match(slug)
        if anti_match:
            anti.append((anti_match["kw"].upper(), int(anti_match["x"])))
            continue
        name, x = slug, ""
        m = re.match(r"^(?P<name>.+?)-(?P<x>d?\d+(?:\+\d+)?|d\d+)$", slug)
        if m and _ALIASES.get(m["name"], m["name"]) in _WITH_X:
            name, x = m["name"], m["x"]
        name = _ALIASES.get(name, name)
        if name in _FLAGS:
            values[name.replace("-", "_")] = True
        elif name in _WITH_X:
            if not x:
                raise ProfileError(where, f"ability {raw!r} needs its value X, e.g. '{name} 1'.")
            try:
                dice = parse_dice(x.upper())
            except ValueError as exc:
                raise ProfileError(where, f"ability {raw!r}: {exc}") from exc
            if name == "melta":
                if not dice.is_constant:
                    raise ProfileError(where, f"ability {raw!r}: Melta X takes a number, e.g. 'melta 2'.")
                values["melta"] = dice.plus
            else:
                values[name.replace("-", "_")] = dice
        else:
            known = ", ".join(ABILITY_NAMES)
            raise ProfileError(where, f"unknown ability {raw!r}; known abilities: {known}.")
    return Abilities(anti=tuple(anti), **values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Weapon:
    """One weapon profile used by every attacking model."""

    name: str = "weapon"
    melee: bool = False
    attacks: DiceExpr = field(default_factory=lambda: DiceExpr.const(1))
    skill: int | None = 4
    """10th: the BS/WS target (3 means 3+). 6th/7th: the attacker's BS (shooting) or WS (melee)."""
    strength: int = 4
    ap: int | None = 0
    """10th: 0 or negative. 6th/7th: 1–6, or None for «–»."""
    damage: DiceExpr = field(default_factory=lambda: DiceExpr.const(1))
    abilities: Abilities = field(default_factory=Abilities)


@dataclass(frozen=True)
class Defender:
    """The target unit: identical models, the first of which may already have lost wounds."""

    models: int = 1
    toughness: int = 4
    save: int | None = 4
    """10th and 6th: the armour save target (3 means 3+); None for no armour save («–»)."""
    wounds: int = 1
    invulnerable: int | None = None
    fnp: int | None = None
    keywords: tuple[str, ...] = ()
    wounds_taken: int = 0
    weapon_skill: int | None = None
    """6th/7th melee: the WS the attacker compares against (the majority's WS)."""
    cover_save: int | None = None
    """6th/7th: the cover save the unit has against this shooting attack (e.g. 4 for 4+)."""


@dataclass(frozen=True)
class Situation:
    """Where the attack happens; each flag switches a rule of the edition on."""

    half_range: bool = False
    remained_stationary: bool = False
    charged: bool = False
    target_visible: bool = True
    cover: bool = False
    overwatch: bool = False
    stealth: bool = False
    big_guns_in_engagement: bool = False
    snap_shots: bool = False
    two_weapons: bool = False
    disordered_charge: bool = False


@dataclass(frozen=True)
class Rerolls:
    hit: Reroll = Reroll.NONE
    wound: Reroll = Reroll.NONE
    save: Reroll = Reroll.NONE


@dataclass(frozen=True)
class Profile:
    """Everything one attack sequence needs."""

    weapon: Weapon = field(default_factory=Weapon)
    attackers: int = 1
    defender: Defender = field(default_factory=Defender)
    situation: Situation = field(default_factory=Situation)
    hit_modifier: int = 0
    wound_modifier: int = 0
    save_modifier: int = 0
    damage_modifier: int = 0
    rerolls: Rerolls = field(default_factory=Rerolls)
    critical_hit_on: int = 6
    """10th: an unmodified hit roll at or above this is a Critical Hit (6 unless a rule says e.g. 5+)."""
    critical_wound_on: int = 6
    """10th: an unmodified wound roll at or above this is a Critical Wound (Anti-X may lower it further)."""
    devastating_spill: bool = False
    """Let Devastating Wounds' mortal wounds spill over to the next model (an older ruling). The 10e text
    in the corpus says they are lost when the model is destroyed (10e-core 665, 668), so off by default."""

    def with_(self, **changes: object) -> Profile:
        return replace(self, **changes)  # type: ignore[arg-type]
