"""The `rulekb terms` and `rulekb kwic` commands, through click's CliRunner."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from rulekb.webapp.cli import main

DATA = Path(__file__).parent / "data"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_query_by_inflected_russian() -> None:
    code, out = run("terms", "зоны", "поражения")
    assert code == 0
    assert out.startswith("engagement-range — Engagement Range")
    assert "«Диапазон повторения»" in out and "mistranslation" in out


def test_query_with_options_in_any_order_as_json() -> None:
    code, out = run("terms", "--json", "инвуль", "--source", "6e-assault")
    assert code == 0
    records = json.loads(out)
    assert [r["concept"] for r in records] == ["invulnerable-save"]
    assert {r["source_id"] for r in records[0]["renderings"]} == {"6e-assault"}


def test_all_concepts_as_json() -> None:
    code, out = run("terms", "--json")
    assert code == 0
    records = json.loads(out)
    assert len(records) >= 200
    assert {"concept", "english", "category", "definition", "aliases", "renderings"} <= set(records[0])


def test_listing_and_search_subcommand() -> None:
    code, out = run("terms", "--source", "kt")
    assert code == 0 and "counter-charge" in out and "hit-roll" not in out
    code, out = run("terms", "search", "overwatch")
    assert code == 0 and out.startswith("overwatch — Overwatch")


def test_unknown_concept_suggests_closest() -> None:
    code, out = run("terms", "lookoutsur")
    assert code == 2
    assert "No such term: 'lookoutsur'" in out and "look-out-sir" in out


def test_unknown_source() -> None:
    code, out = run("terms", "--source", "11e-core")
    assert code == 2 and "Unknown source '11e-core'" in out


def test_exports() -> None:
    code, out = run("terms", "--tbx")
    assert code == 0 and ET.fromstring(out).get("type") == "TBX-Basic"
    code, out = run("terms", "--tsv", "чардж")
    assert code == 0 and all(len(line.split("\t")) == 3 for line in out.splitlines())
    assert out.splitlines()[0].startswith("Charge\t")
    code, out = run("terms", "--csv", "AP")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and {r["concept"] for r in rows} == {"armour-penetration"}


def test_inconsistencies() -> None:
    code, out = run("terms", "inconsistencies", "--json")
    assert code == 0
    report = json.loads(out)
    assert {"variants", "within_source", "across_sources"} == set(report)
    code, out = run("terms", "inconsistencies", "--source", "10e-core")
    assert code == 0 and "engagement-range:" in out and "«досягаемость»" in out


def test_check_flags_a_draft_and_passes_a_clean_text() -> None:
    code, out = run("terms", "check", str(DATA / "draft.txt"))
    assert code == 1
    assert "draft.txt:2:4: «Ударная калитка» — mistranslation for hit-roll" in out
    code, out = run("terms", "check", "--json", str(DATA / "draft.txt"))
    assert code == 1 and len(json.loads(out)) == 10  # one flag per occurrence
    code, out = run("terms", "check", str(DATA / "clean.txt"))
    assert code == 0


def test_unmapped_is_empty() -> None:
    assert run("terms", "unmapped") == (0, "")


def test_kwic() -> None:
    code, out = run("kwic", "безумный", "героизм", "--source", "7e-pp58-67", "--width", "20")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("7e-pp58-67:37 с. 59") and "[безумный героизм]" in lines[0]
    code, out = run("kwic", "карабкаться", "--json")
    assert code == 0 and [(r["source_id"], r["line"]) for r in json.loads(out)] == [("kt", 71), ("kt", 71)]
    code, out = run("kwic", "квазиморфизм")
    assert code == 2 and "No occurrence" in out


def test_docs_table_is_the_stats_output() -> None:
    code, out = run("terms", "stats")
    assert code == 0
    docs = (Path(__file__).resolve().parents[2] / "docs" / "terms.md").read_text(encoding="utf-8")
    start, end = "<!-- terms-stats:start -->\n", "<!-- terms-stats:end -->"
    assert docs[docs.index(start) + len(start) : docs.index(end)].strip() == out.strip(), "regenerate with `rulekb terms stats`"
