"""The JSON contracts as pydantic models: one place for what the CLI prints and the API serves.

Every ``--json`` command and every ``/api`` route serialises through :func:`dump` with the model of
its contract, so the two faces cannot drift apart, and ``/api/openapi.json`` is generated from the
same models (their JSON Schema). The calculator's result is in :mod:`rulekb.kb.contracts.calc`.

Contracts change only by adding fields: models accept extra fields (an older reader keeps
working) and ``tests/web/test_contracts.py`` checks that the real outputs carry none the models
do not declare.
"""

from __future__ import annotations

from rulekb.kb.contracts.base import Contract, Edition, Lines, dump, dump_list
from rulekb.kb.contracts.calc import (
    CALC_RESULT,
    AttackResult,
    CalcResult,
    Step,
    StepCite,
    TestResult,
    calc_json,
)
from rulekb.kb.contracts.models import (
    Answer,
    AnswerPart,
    Ask,
    Card,
    CardCitation,
    CardPart,
    Citation,
    Concept,
    ConceptNode,
    Diagram,
    Error,
    Example,
    ExampleCitation,
    Faq,
    Figure,
    Hit,
    Node,
    NodeBrief,
    NodeDetail,
    OtherEdition,
    Reference,
    Rendering,
    RulePage,
    SameConcept,
    SearchResult,
    Sources,
    Suggestion,
    Term,
)

__all__ = [
    "CALC_RESULT",
    "Answer",
    "AnswerPart",
    "Ask",
    "AttackResult",
    "CalcResult",
    "Card",
    "CardCitation",
    "CardPart",
    "Citation",
    "Concept",
    "ConceptNode",
    "Contract",
    "Diagram",
    "Edition",
    "Error",
    "Example",
    "ExampleCitation",
    "Faq",
    "Figure",
    "Hit",
    "Lines",
    "Node",
    "NodeBrief",
    "NodeDetail",
    "OtherEdition",
    "Reference",
    "Rendering",
    "RulePage",
    "SameConcept",
    "SearchResult",
    "Sources",
    "Step",
    "StepCite",
    "Suggestion",
    "Term",
    "TestResult",
    "calc_json",
    "dump",
    "dump_list",
]
