"""The engine's comparisons that concept pages show (chance to pass a test, to hit…) per edition.

Each comparison is computed exactly by ``engine`` functions (``engine.compare`` where it offers
one, else ``engine.dice``) and shown as a table of exact fractions and percentages.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from webapp.render import percent

__all__ = ["COMPARISONS", "Comparison", "comparisons_for"]


@dataclass(frozen=True)
class Comparison:
    """A table of probabilities across editions for one concept."""

    title: str
    note: str
    header: tuple[str, ...]
    #: (label, probabilities…) per row
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]
    citations: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "note": self.note,
            "header": list(self.header),
            "rows": [{"label": label, "p": [str(p) for p in probs]} for label, probs in self.rows],
            "citations": list(self.citations),
        }

    def cells(self) -> list[tuple[str, list[tuple[str, str]]]]:
        return [(label, [(str(p), percent(p)) for p in probs]) for label, probs in self.rows]


def _two_d6() -> Any:
    from engine.dice import Dist

    return Dist.die(6) + Dist.die(6)


def _leadership() -> Comparison:
    """6th: pass on 2D6 ≤ Ld (6e-rules); 10th: pass a Battle-shock test on 2D6 ≥ Ld (10e-core 316–319)."""
    table = _engine_compare("leadership_table", "battle_shock_table", "leadership_vs_battle_shock")
    rows: list[tuple[str, tuple[Fraction, ...]]] = []
    if table is not None:
        for row in table:
            values = row if isinstance(row, list | tuple) else list(dict(row).values())
            rows.append((str(values[0]), tuple(Fraction(str(v)) for v in values[1:3])))
    else:
        dist = _two_d6()
        for ld in range(2, 13):
            rows.append((str(ld), (dist.p_at_most(ld), dist.p_at_least(ld))))
    return Comparison(
        title="Шанс пройти проверку по Лидерству",
        note=(
            "6-я редакция: тест Лидерства пройден, если 2D6 ≤ Ld. 10-я редакция: проверка боевого шока "
            "пройдена, если 2D6 ≥ Ld (там Ld — целевое значение, обычно 6+…8+)."
        ),
        header=("Ld", "6-я: 2D6 ≤ Ld", "10-я: 2D6 ≥ Ld"),
        rows=tuple(rows),
        citations=("6e-rules", "10e-core"),
    )


def _overwatch() -> Comparison:
    """Overwatch hits only on unmodified 6s in the 6th edition and Kill Team; in the 10th too (Fire Overwatch)."""
    from engine.dice import Dist

    six = Dist.die(6).p_at_least(6)
    rows = [(f"{n} выстрел(а)", (1 - (1 - six) ** n, 1 - (1 - six) ** n)) for n in (1, 2, 3, 4, 6, 10)]
    return Comparison(
        title="Шанс хотя бы одного попадания огнём на упреждение",
        note="И в 6-й редакции (и Kill Team), и в 10-й огонь на упреждение попадает только на 6.",
        header=("Выстрелов", "6-я / Kill Team", "10-я"),
        rows=tuple(rows),
        citations=("6e-assault", "10e-core"),
    )


def _engine_compare(*names: str) -> Any:
    try:
        module = importlib.import_module("engine.compare")
    except ImportError:
        return None
    for name in names:
        fn = getattr(module, name, None)
        if callable(fn):
            try:
                return fn()
            except TypeError:
                continue
    return None


#: concept id -> comparison builders
COMPARISONS: dict[str, tuple[Callable[[], Comparison], ...]] = {
    "leadership": (_leadership,),
    "leadership-test": (_leadership,),
    "battle-shock": (_leadership,),
    "battle-shock-test": (_leadership,),
    "overwatch": (_overwatch,),
    "fire-overwatch": (_overwatch,),
}


@lru_cache(maxsize=64)
def _computed(concept_id: str) -> tuple[Comparison, ...]:
    out = []
    for builder in COMPARISONS.get(concept_id, ()):
        try:
            out.append(builder())
        except ImportError:  # the engine is not installed: the page shows the prose only
            continue
    return tuple(out)


def comparisons_for(concept_id: str) -> tuple[Comparison, ...]:
    return _computed(concept_id)
