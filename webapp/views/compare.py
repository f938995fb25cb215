"""The engine's comparisons that concept pages show, per edition, as tables of exact fractions.

The numbers come from ``rulekb.engine.compare`` (each row is one situation under each edition's rule);
this module only chooses the rows and columns a concept page shows and labels them in Russian.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rulekb.engine.compare import charge_table, leadership_table, melee_hit_table, overwatch_table
from rulekb.webapp.render import percent

__all__ = ["COMPARISONS", "Comparison", "comparisons_for"]


@dataclass(frozen=True)
class Comparison:
    """A table of probabilities across editions for one concept."""

    title: str
    note: str
    header: tuple[str, ...]
    #: (row label, probabilities…)
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "note": self.note,
            "header": list(self.header),
            "rows": [{"label": label, "p": [str(p) for p in probs]} for label, probs in self.rows],
        }

    def cells(self) -> list[tuple[str, list[tuple[str, str]]]]:
        return [(label, [(str(p), percent(p)) for p in probs]) for label, probs in self.rows]


def _table(
    rows: Sequence[dict[str, Any]], label: Callable[[dict[str, Any]], str], keys: Sequence[str]
) -> tuple[tuple[str, tuple[Fraction, ...]], ...]:
    return tuple((label(row), tuple(Fraction(row[k]) for k in keys)) for row in rows if all(k in row for k in keys))


def _leadership() -> Comparison:
    return Comparison(
        title="Шанс пройти проверку Лидерства",
        note=(
            "6-я и 7-я редакции: тест Лидерства пройден, если на 2D6 выпало не больше Ld (дубль единиц — всегда "
            "успех). 10-я: проверка боевого шока пройдена, если на 2D6 выпало не меньше Ld."
        ),
        header=("Ld", "6-я: 2D6 ≤ Ld", "10-я: 2D6 ≥ Ld"),
        rows=_table(leadership_table(), lambda r: str(r["ld"]), ("6", "10")),
    )


def _overwatch() -> Comparison:
    return Comparison(
        title="Шанс попасть: обычный выстрел и огонь на упреждение",
        note=(
            "6-я редакция: огонь на упреждение — «выстрелы навскидку», попадают только на 6. 10-я: стратагема "
            "«Огонь на упреждение» попадает только на немодифицированную 6."
        ),
        header=("Попадает на", "6-я: обычный", "6-я: упреждение", "10-я: обычный", "10-я: упреждение"),
        rows=_table(
            overwatch_table(), lambda r: f"{r['hits_on']}+", ("6_normal", "6_overwatch", "10_normal", "10_overwatch")
        ),
    )


def _charge() -> Comparison:
    return Comparison(
        title="Шанс долететь в атаку (чардж) с расстояния",
        note=(
            "6-я: 2D6 до контакта подставками, через труднопроходимую местность — 3D6 без лучшего кубика; 7-я: "
            "прыжковые отряды перебрасывают; Kill Team — тот же бросок; 10-я: 2D6, чтобы закончить в 1\" от врага, "
            "с командным перебросом — второй столбец."
        ),
        header=("Дюймов", "6-я", "6-я: трудная местность", "7-я: прыжок", "Kill Team", "10-я", "10-я: переброс"),
        rows=_table(
            charge_table(),
            lambda r: f"{r['distance']}\"",
            ("6", "6_difficult", "7_jump", "kt", "10", "10_command_reroll"),
        ),
    )


def _melee() -> Comparison:
    rows = [r for r in melee_hit_table() if "ws" in r and r["ws"] in (2, 3, 4, 5, 6)]
    return Comparison(
        title="Шанс попасть в ближнем бою (6-я и 7-я редакции: WS против WS)",
        note="Строки — WS атакующего, столбцы — WS цели. В 10-й редакции WS — это просто цель броска (3+, 4+…).",
        header=("WS \\ WS цели", "2", "3", "4", "5", "6", "8"),
        rows=_table(rows, lambda r: str(r["ws"]), ("vs_2", "vs_3", "vs_4", "vs_5", "vs_6", "vs_8")),
    )


#: concept id -> comparison builders
COMPARISONS: dict[str, tuple[Callable[[], Comparison], ...]] = {
    "leadership": (_leadership,),
    "leadership-test": (_leadership,),
    "battle-shock": (_leadership,),
    "battle-shock-test": (_leadership,),
    "morale-check": (_leadership,),
    "overwatch": (_overwatch,),
    "fire-overwatch": (_overwatch,),
    "snap-shots": (_overwatch,),
    "charge": (_charge,),
    "charge-roll": (_charge,),
    "charge-move": (_charge,),
    "weapon-skill": (_melee,),
    "to-hit-chart": (_melee,),
    "melee-attack": (_melee,),
}


@lru_cache(maxsize=64)
def _computed(concept_id: str) -> tuple[Comparison, ...]:
    out = []
    for builder in COMPARISONS.get(concept_id, ()):
        try:
            out.append(builder())
        except ImportError:  # no engine in this installation: the page shows the prose only
            continue
    return tuple(out)


def comparisons_for(concept_id: str) -> tuple[Comparison, ...]:
    return _computed(concept_id)
