"""The corpus commands, through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulekb.webapp.cli import main


def test_outline_prints_kinds_lines_and_pages() -> None:
    result = CliRunner().invoke(main, ["outline", "7e-pp58-67"])
    assert result.exit_code == 0, result.output
    assert "chapter  ПЕРЕГРУППИРОВКА  [27] p.59" in result.output


def test_nodes_json_contract(built: Path) -> None:
    result = CliRunner().invoke(main, ["nodes", "--json", "--build-dir", str(built)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    keys = {"id", "source_id", "source_sha256", "edition", "kind", "title", "parent_id", "lines", "page"}
    assert all(set(row) == keys for row in rows)
    assert {row["edition"] for row in rows} == {"10", "6", "7", "kt"}
    assert all(len(row["source_sha256"]) == 64 and len(row["lines"]) == 2 for row in rows)


def test_show_and_unknown_id_suggests(built: Path) -> None:
    runner = CliRunner()
    rows = json.loads(runner.invoke(main, ["nodes", "--json", "--build-dir", str(built)]).output)
    leaf = next(r for r in rows if r["kind"] == "rule" and r["source_id"] == "kt")
    result = runner.invoke(main, ["show", leaf["id"], "--build-dir", str(built)])
    start, end = leaf["lines"]
    label = f"строка {start}" if start == end else f"строки {start}–{end}"
    assert result.exit_code == 0 and label in result.output
    result = runner.invoke(main, ["show", leaf["id"] + "x", "--build-dir", str(built)])
    assert result.exit_code == 2 and "Did you mean" in result.output


def test_build_writes_manifest_with_counts(built: Path) -> None:
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["schema_version"] >= 1
    assert [s["id"] for s in manifest["sources"]] == ["10e-core", "6e-rules", "6e-assault", "7e-pp58-67", "kt"]
    assert all(s["nodes"] > 10 and len(s["sha256"]) == 64 for s in manifest["sources"])


def test_check_lists_issues_one_per_line() -> None:
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0
    for line in result.stdout.splitlines():
        file, lineno, _reason = line.split(":", 2)
        assert file.endswith((".txt", ".toml")) and lineno.isdigit()
