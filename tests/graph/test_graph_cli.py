"""compare, concepts, related and check through click's runner; strict builds fail on link errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulekb.kb.graph.curation
from rulekb.corpus.errors import LinkError
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.build import build
from rulekb.kb.graph.curation import covering_leaves
from rulekb.kb.graph.validate import validate
from rulekb.webapp.cli import main

LINE = re.compile(r"^[\w./-]+:\d+: (error|warning): .+$")


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_compare_prints_each_edition_with_book_and_lines(built: Path) -> None:
    out = _run("compare", "overwatch", "--width", "80", "--build-dir", str(built))
    assert out.startswith("Overwatch (overwatch)")
    assert "── 6-я редакция" in out and "── Kill Team" in out
    assert "фаза штурма, строки 50–54" in out
    assert "Kill Team: правила (эпоха 6-й/7-й редакции), строка 3" in out


def test_compare_goes_side_by_side_on_a_wide_page(built: Path) -> None:
    out = _run("compare", "overwatch", "--width", "200", "--build-dir", str(built))
    header = next(line for line in out.splitlines() if "6-я редакция" in line)
    assert "Kill Team" in header  # the editions are columns of one row
    assert max(len(line) for line in out.splitlines()) <= 200


def test_compare_accepts_russian_in_any_inflection_and_gives_json(built: Path) -> None:
    data = json.loads(_run("compare", "дозорной", "стрельбы", "--json", "--build-dir", str(built)))
    assert data["concept"] == "overwatch"
    for edition in data["editions"]:
        for passage in edition["passages"]:
            assert passage["edition"] == edition["edition"]
            assert {"node_id", "source_title", "lines", "page", "text", "breadcrumb"} <= set(passage)


def test_an_unknown_concept_names_the_closest(built: Path) -> None:
    result = CliRunner().invoke(main, ["compare", "overwotch-xx", "--build-dir", str(built)])
    assert result.exit_code == 2
    assert "overwatch" in result.output and "Closest" in result.output


def test_concepts_json_and_table(built: Path) -> None:
    rows = json.loads(_run("concepts", "--json", "--build-dir", str(built)))
    assert {"overwatch", "hit-roll"} <= {r["concept"] for r in rows}
    table = _run("concepts", "--build-dir", str(built))
    assert re.search(r"^overwatch\s+Overwatch\s+\d+/\d+", table, re.MULTILINE)


def test_related_shows_references_and_same_concept(built: Path, corpus: ParsedCorpus) -> None:
    (leaf,) = covering_leaves(corpus.nodes, "7e-pp58-67", (13, 13))
    out = _run("related", leaf.id, "--build-dir", str(built))
    assert "refers to («см. с. 38 и 63», line 13)" in out and "ТУРБОУСКОРЕНИЕ" in out
    assert "unresolved — page 38 is not in 7e-pp58-67" in out
    (overwatch,) = covering_leaves(corpus.nodes, "kt", (3, 3))
    data = json.loads(_run("related", overwatch.id, "--json", "--build-dir", str(built)))
    assert "6" in {s["edition"] for s in data["same_concept"]}
    assert "overwatch" in data["defines"]


def test_validation_lines_name_file_line_severity_and_reason(corpus: ParsedCorpus) -> None:
    lines = validate(corpus)
    assert lines and all(LINE.match(line) for line in lines), [x for x in lines if not LINE.match(x)][:3]
    assert any(
        line.startswith("corpus/sources/6e-assault.txt:95: warning: reference «см. стр.90» unresolved")
        and "no page markers" in line
        for line in lines
    )
    assert not [line for line in lines if ": error: " in line]


def test_check_lists_link_issues(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check"])
    assert "corpus/sources/kt.txt:123: warning: reference «на стр. 2» unresolved" in result.output


def test_a_wrong_curated_quote_fails_a_strict_build_and_keeps_the_last_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    defines = tmp_path / "defines.toml"
    defines.write_text(
        '[[define]]\nconcept = "overwatch"\nsource = "kt"\nlines = [3, 3]\nquote = "этого нет в тексте"\n', encoding="utf-8"
    )
    monkeypatch.setattr(rulekb.kb.graph.curation, "DEFAULT_DEFINES", defines)
    out = tmp_path / "build"
    out.mkdir()
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    with pytest.raises(LinkError, match=r"defines\.toml:1: error: .*quote 'этого нет в тексте' is not in these lines"):
        build(out=out, strict=True)
    assert (out / "manifest.json").read_text(encoding="utf-8") == "{}"
    result = build(out=tmp_path / "lenient")
    assert any("quote" in issue.reason for issue in result.issues)
