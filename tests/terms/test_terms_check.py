"""`terms check --source/--edition`: fixes in the checked book's words and the draft's word
form, one flag per occurrence; `kwic --phrase`; «no such term» with the closest ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekb.corpus.errors import QueryError
from rulekb.kb.termbase import Termbase, check_draft
from rulekb.kb.termbase.occurrences import source_text
from rulekb.kb.text.inflect import inflect_like
from rulekb.webapp.cli import main


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_a_fix_comes_from_the_checked_book(termbase: Termbase) -> None:
    (flag,) = check_draft("Отряд может объявить атаку.", termbase, source="10e-core")
    assert flag.concept_id == "declare-charge"
    assert flag.fix == "объявить рывок" and flag.source_id == "10e-core"
    assert "нападени" not in str(flag)  # not the 6th edition's «объявление нападения»


def test_a_shared_string_is_flagged_once_for_its_sense(termbase: Termbase) -> None:
    draft = "Модель в пределах досягаемости врага.\nЮниты в пределах досягаемости этого оружия."
    flags = check_draft(draft, termbase, source="10e-core")
    assert [(f.line, f.concept_id) for f in flags] == [(1, "engagement-range"), (2, "range")]
    assert [f.fix for f in flags] == ["зоны поражения", "дальности"]  # genitive, as in the draft
    assert flags[0].evidence == "default" and flags[1].evidence.startswith("cue")


def test_one_flag_per_occurrence_over_a_whole_book(termbase: Termbase) -> None:
    text = source_text("10e-core")
    for scope in ({"source": "10e-core"}, {"edition": "10"}, {}):
        flags = check_draft(text, termbase, **scope)
        assert flags
        twice = [k for k, n in Counter((f.line, f.column) for f in flags).items() if n > 1]
        assert not twice, f"{scope}: flagged more than once at {twice[:3]}"


def test_an_edition_checks_against_its_books(termbase: Termbase) -> None:
    draft = "Модель в пределах досягаемости врага."
    assert check_draft(draft, termbase, edition="10")
    assert not check_draft(draft, termbase, edition="6")  # the 6th-edition books do not use it
    with pytest.raises(QueryError, match="edition"):
        check_draft(draft, termbase, edition="9")


@pytest.mark.parametrize(
    ("suggestion", "draft", "before", "expected"),
    [
        ("зона поражения", "досягаемости", "пределах", "зоны поражения"),
        ("зона поражения", "Досягаемость", "", "Зона поражения"),
        ("дальность", "досягаемостью", "", "дальностью"),
        ("объявить рывок", "объявил атаку", "он", "объявил рывок"),
        ("объявить рывок", "объявляет атаку", "отряд", "объявляет рывок"),
        ("объявить рывок", "объявить атаку", "может", "объявить рывок"),
    ],
)
def test_the_fix_takes_the_drafts_word_form(suggestion: str, draft: str, before: str, expected: str) -> None:
    assert inflect_like(suggestion, draft, before) == expected


def test_check_command_with_source(tmp_path: Path) -> None:
    draft = tmp_path / "draft.txt"
    draft.write_text("Модель в пределах досягаемости врага может объявить атаку.\n", encoding="utf-8")
    code, out = run("terms", "check", "--source", "10e-core", str(draft))
    assert code == 1
    assert "«зоны поражения» (10e-core)" in out and "«объявить рывок» (10e-core)" in out
    assert out.count("«досягаемости»") == 1
    code, out = run("terms", "check", "--source", "10e-core", "--edition", "10", str(draft))
    assert code != 0 and "not both" in out


def test_kwic_phrase_is_literal() -> None:
    code, out = run("kwic", "--phrase", "Дозорные выстрелы")
    assert code == 0
    rows = [line for line in out.splitlines() if line.strip()]
    assert len(rows) == 1 and rows[0].startswith("6e-assault:60")
    code, out = run("kwic", "Дозорные выстрелы")  # the concept: every rendering of overwatch
    assert code == 0 and "6e-assault:60" in out and "10e-core" not in out


def test_unknown_term_says_no_such_term_with_the_closest() -> None:
    code, out = run("terms", "Heavy Intercessor")
    assert code != 0
    assert "No such term" in out and "heavy" in out
    code, out = run("terms", "Heavy")
    assert code == 0 and out.startswith("heavy — Heavy")
