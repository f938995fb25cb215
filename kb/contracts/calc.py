"""The calculator's JSON result (``rulekb calc --json``, ``/api/calc``) as pydantic models.

Here rather than in the engine, which imports nothing but the standard library. A profile gives an
:class:`AttackResult`; a profile with ``test`` a :class:`TestResult`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = ["CALC_RESULT", "AttackResult", "CalcResult", "Step", "StepCite", "TestResult", "calc_json"]

Fraction = str
"""An exact probability as a fraction, e.g. ``"25/36"``."""
Number = int | float
"""An integer stays an integer (a union keeps the input's type), so output does not change."""


class _Open(BaseModel):
    """Extra fields pass through unchanged: contracts grow only by adding fields."""

    model_config = ConfigDict(extra="allow")


class StepCite(_Open):
    source: str = Field(description="The source id, e.g. `10e-core`.")
    lines: tuple[int, int]


class Step(_Open):
    """One line of the explanation: which rule (concept and lines) did what, with exact values."""

    concept: str
    title: str
    detail: str
    cites: list[StepCite] = Field(default_factory=list)
    values: dict[str, str] = Field(default_factory=dict)


class AttackResult(_Open):
    """Expected values and exact distributions of one attack profile."""

    edition: str
    edition_name: str
    expected: dict[str, Number | str] = Field(
        description="attacks, hits, critical_hits, wounds, critical_wounds, unsaved, mortal_wounds, damage, "
        "models_destroyed (and more): expected values."
    )
    expected_exact: dict[str, Fraction] = Field(description="The expected values as exact fractions.")
    distributions: dict[str, list[tuple[int, Fraction]]] = Field(
        description='Exact distributions: `[[k, "p as a fraction, e.g. 25/36"], ...]` per quantity.'
    )
    distributions_decimal: dict[str, list[tuple[int, Number]]]
    summary: dict[str, Fraction]
    steps: list[Step]
    concepts: list[str]


class TestResult(_Open):
    """A Leadership, charge or sweeping-advance test (a profile with ``test``)."""

    __test__ = False  # not a pytest class

    edition: str
    edition_name: str
    test: str
    p_pass: Fraction | None
    p_pass_decimal: Number | None
    distribution: list[tuple[int, Fraction]] | None
    steps: list[Step]
    concepts: list[str]


CalcResult = AttackResult | TestResult
CALC_RESULT: TypeAdapter[AttackResult | TestResult] = TypeAdapter(CalcResult)


def calc_json(data: Any) -> Any:
    """``data`` checked against the calc contract and serialised through it."""
    model = TestResult.model_validate(data) if isinstance(data, dict) and "test" in data else AttackResult.model_validate(data)
    out = model.model_dump(mode="json", exclude_unset=True)
    if isinstance(data, dict):  # keep the printed order of the top level (the engine's order below)
        out = {**{k: out[k] for k in data if k in out}, **out}
    return out
