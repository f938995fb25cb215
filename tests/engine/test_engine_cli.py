"""`rulekb examples` and `rulekb calc` through click's CliRunner."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from rulekb.webapp.commands.engine import calc, examples

PROFILE = {
    "edition": "10",
    "attacker": {"models": 5},
    "weapon": {"attacks": 2, "bs": 3, "s": 4, "ap": -1, "d": 1},
    "defender": {"models": 10, "t": 4, "sv": 3, "w": 2},
}


def test_calc_json_from_stdin_follows_the_contract() -> None:
    result = CliRunner().invoke(calc, ["--json"], input=json.dumps(PROFILE))
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["edition"] == "10"
    assert set(out["expected"]) >= {"attacks", "hits", "critical_hits", "wounds", "critical_wounds", "unsaved",
                                     "mortal_wounds", "damage", "models_destroyed"}
    assert out["expected"]["hits"] == 20 / 3
    for name in ("hits", "damage", "models_destroyed"):
        assert sum(Fraction(p) for _, p in out["distributions"][name]) == 1
    assert out["steps"][0]["concept"] == "attacks"


def test_calc_flags_equal_the_json_profile() -> None:
    flags = ["--attackers", "5", "--attacks", "2", "--bs", "3", "--s", "4", "--ap", "-1", "--d", "1", "--t", "4",
             "--sv", "3", "--w", "2", "--models", "10", "--json"]
    by_flags = json.loads(CliRunner().invoke(calc, flags).output)
    by_json = json.loads(CliRunner().invoke(calc, ["--json"], input=json.dumps(PROFILE)).output)
    assert by_flags == by_json


def test_calc_file_with_flag_override(tmp_path: Path) -> None:
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(PROFILE), encoding="utf-8")
    out = json.loads(CliRunner().invoke(calc, ["--file", str(path), "--json", "--ability", "lethal-hits"]).output)
    assert Fraction(out["expected_exact"]["wounds"]) == 10 * (Fraction(1, 2) * Fraction(1, 2) + Fraction(1, 6))


def test_calc_text_output_cites_the_rules() -> None:
    result = CliRunner().invoke(calc, ["--attacks", "3", "--bs", "3", "--s", "4", "--t", "4", "--sv", "4"])
    assert result.exit_code == 0, result.output
    assert "[hit-roll] Hit roll" in result.output and "10e-core 604-612" in result.output
    assert "Distribution of damage" in result.output


def test_calc_sixth_edition_by_flags() -> None:
    result = CliRunner().invoke(calc, ["--edition", "6th", "--melee", "--attacks", "2", "--ws", "4", "--target-ws",
                                       "4", "--s", "4", "--t", "4", "--sv", "4", "--charged", "--json"])
    out = json.loads(result.output)
    assert out["edition"] == "6" and out["expected"]["attacks"] == 3.0


def test_calc_bad_input_is_one_line_and_exit_2() -> None:
    runner = CliRunner()
    cases = [
        (["--json"], "{not json", "not valid JSON"),
        (["--edition", "8th", "--attacks", "1"], None, "edition"),
        (["--attacks", "-2"], None, "weapon.attacks"),
        (["--attacks", "1", "--ability", "frenzy"], None, "unknown ability 'frenzy'"),
        (["--attacks", "1", "--ap", "2"], None, "did you mean -2"),
    ]
    for args, stdin, text in cases:
        result = runner.invoke(calc, args, input=stdin)
        assert result.exit_code == 2, (args, result.output)
        assert text in result.output, result.output
        assert "Traceback" not in result.output


def test_examples_json_contract_and_exit_code() -> None:
    result = CliRunner().invoke(examples, ["--json", "--source", "6e-rules"])
    assert result.exit_code == 0, result.output
    items = json.loads(result.output)
    assert items and all(item["ok"] for item in items)
    assert all(any(c["source"] == "6e-rules" for c in item["citations"]) for item in items)
    first = items[0]
    assert set(first) >= {"id", "rule_ids", "concepts", "citations", "inputs", "expected", "result", "ok"}
    assert len(first["citations"][0]["source_sha256"]) == 64


def test_examples_text_and_filters() -> None:
    result = CliRunner().invoke(examples, ["--printed", "--id", "10e-blast-2d6-against-eleven-models"])
    assert result.exit_code == 0
    assert "ok   10e-blast-2d6-against-eleven-models" in result.output
    assert "1 of 1 examples" in result.output
    bad = CliRunner().invoke(examples, ["--id", "no-such-example"])
    assert bad.exit_code == 2 and "no-such-example" in bad.output
