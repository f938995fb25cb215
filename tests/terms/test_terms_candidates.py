"""The candidate-terms script (review 13-2, finding 10): a glossed phrase is covered when the term
it ends with is, the usage it documents is the one it parses, and strings print as first printed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "terms_candidates.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("terms_candidates", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_glossed_phrase_is_covered_when_its_last_words_are_a_term() -> None:
    script = _script()
    # the words before the term are the sentence's: «главы» is no part of «подготовка к бою»
    assert script.candidate_covered("glossed (Preparing for Battle)", "главы подготовка к бою")
    assert not script.candidate_covered("glossed (Zzyzx Qwerty)", "зюзюка кракозябра")


def test_the_documented_usage_is_the_parsed_one(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    assert "--counts" not in (script.__doc__ or "")
    monkeypatch.setattr(sys, "argv", ["terms_candidates.py", "--source", "kt"])
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("## kt:")
    listed = [line.split(None, 3)[-1] for line in out.splitlines()[1:-1] if "×" in line]
    assert any(any(ch.isupper() for ch in string) for string in listed)  # as printed, not lower-cased
