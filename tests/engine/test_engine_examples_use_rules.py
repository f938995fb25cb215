"""A worked example must fail when the rule it demonstrates is wrong.

Each example below once passed through runner code that restated its rule. Now the runner calls the
engine function that implements the rule; breaking that function (here: a deliberately wrong
version) must make the example fail.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from rulekb.engine.dice import Dist
from rulekb.engine.editions import KillTeam, Sixth
from rulekb.engine.editions import tenth as t10
from rulekb.engine.editions.tenth import rules as t10_rules
from rulekb.engine.runners import common, older
from rulekb.kb.examples.worked import load_examples, run_example

EXAMPLES = {e.id: e for e in load_examples()}


def _wrong(value: Any) -> Callable[..., Any]:
    return lambda *args, **kwargs: value


CASES: list[tuple[str, Any, str, Callable[..., Any]]] = [
    ("10e-anti-vehicle-4-plus", t10, "anti_threshold", _wrong(6)),
    ("10e-sustained-hits-2-critical", t10, "sustained_hits", lambda critical, x: 1),
    ("10e-devastating-wounds-damage-2", t10, "devastating_wounds", _wrong((0, True))),
    ("10e-attached-unit-victory-points", t10, "attached_unit_victory_points", _wrong(1)),
    ("10e-indirect-fire-unseen-target", t10, "indirect_fire", _wrong((0, 1, False))),
    ("10e-deadly-demise-d3-three-units", t10, "deadly_demise_roll", _wrong((False, 0, Dist.constant(0)))),
    ("10e-destroyed-transport-terminators", t10, "destroyed_transport_rolls", _wrong((1, False))),
    ("6e-halving-rounds-up", Sixth, "halve", lambda self, value: value // 2),
    ("6e-random-selection-of-five", older, "random_selection_rerolls", _wrong([])),
    ("6e-rules-dispute-roll", common, "split_roll", _wrong(Fraction(1, 3))),
]


def test_every_case_names_a_real_example() -> None:
    assert {case[0] for case in CASES} <= set(EXAMPLES)


@pytest.mark.parametrize(("example_id", "owner", "name", "wrong"), CASES, ids=[c[0] for c in CASES])
def test_example_fails_when_its_rule_is_broken(example_id: str, owner: Any, name: str, wrong: Callable[..., Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    example = EXAMPLES[example_id]
    assert run_example(example).ok, "the example passes with the real rule"
    monkeypatch.setattr(owner, name, wrong)
    assert not run_example(example).ok, f"{example_id} still passes with a broken {name}"


def test_desperate_escape_example_reads_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    escape = next(e for e in EXAMPLES.values() if e.run == "tenth.desperate_escape" and "rolls" in e.inputs)
    assert run_example(escape).ok
    monkeypatch.setattr(t10_rules, "DESPERATE_ESCAPE_FAILS", 1)
    assert not run_example(escape).ok


def test_kill_team_mission_example_reads_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    missions = [e for e in EXAMPLES.values() if e.run == "killteam.mission"]
    assert missions and all(run_example(e).ok for e in missions)
    monkeypatch.setattr(KillTeam, "random_mission", lambda self: Dist.die(3))
    assert not all(run_example(e).ok for e in missions)
