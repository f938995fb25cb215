"""Dependencies point one way: the engine imports only the standard library and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))


def _package(module: str) -> str:
    """The top-level name, or for ours (``rulekb.engine.calc``) the package under ``rulekb``."""
    parts = module.split(".")
    return parts[1] if parts[0] == "rulekb" and len(parts) > 1 else parts[0]


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(_package(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(_package(node.module))
    return names


def test_there_are_modules_to_check() -> None:
    assert len(MODULES) >= 10


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_imports_only_stdlib_and_itself(path: Path) -> None:
    names = imported(path)
    assert not names & {"kb", "corpus", "webapp"}, f"{path.name} imports {names & {'kb', 'corpus', 'webapp'}}"
    outside = {n for n in names if n != "engine" and n not in sys.stdlib_module_names and n != "__future__"}
    assert not outside, f"{path.name} imports third-party modules {outside}"


def test_rule_functions_name_their_concepts() -> None:
    from rulekb.engine.concepts import REGISTRY, citations_of, concept_of
    from rulekb.engine.editions import Sixth, Tenth

    needed = {"hit-roll", "wound-roll", "armour-save", "invulnerable-save", "feel-no-pain", "mortal-wounds",
              "battle-shock", "leadership-test", "charge", "overwatch", "snap-shots", "blast", "desperate-escape",
              "deadly-demise", "hazardous", "characteristic-test", "sweeping-advance", "regroup", "fall-back"}
    missing = needed - set(REGISTRY) - {"invulnerable-save"}  # the save hook names armour-save and cites both
    assert not missing
    assert concept_of(Tenth.hit_test) == "hit-roll"
    assert [str(c) for c in citations_of(Tenth.hit_test)] == ["10e-core:604–612"]
    assert concept_of(Sixth().leadership_test) == "leadership-test"
