"""Loading the FAQ files (kb/faq/*.toml): a malformed file fails with one clear line naming it; citations are checked honestly."""

from __future__ import annotations

import tomllib
from pathlib import Path

import click
import pytest

from rulekb.corpus.errors import CorpusError, RulebaseError, TermbaseError
from rulekb.corpus.reader import load_manifest
from rulekb.kb.faq.entries import (
    FAQ_DIR,
    FaqCitation,
    FaqEntry,
    FaqError,
    check_citations,
    load_faq,
    normalise_space,
)

GOOD = """
[[faq]]
id = "10e-sample"
edition = "10"
question = "Сколько дюймов зона поражения?"
variants = ["engagement range inches", "дальность боя в дюймах"]
concepts = ["engagement-range"]
answer = "Не больше 1 дюйма по горизонтали и 5 по вертикали."
[[faq.citation]]
source = "10e-core"
lines = [164, 165]
quotes = ["в пределах 1 дюйма по горизонтали"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "faq.toml"
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> str:
    with pytest.raises(FaqError) as info:
        load_faq(write(tmp_path, text))
    message = info.value.format_message()
    assert "\n" not in message, f"error spans several lines: {message!r}"
    return message


def test_good_file_loads(tmp_path: Path) -> None:
    [entry] = load_faq(write(tmp_path, GOOD))
    assert entry.id == "10e-sample"
    assert entry.citations[0].lines == (164, 165)
    assert entry.variants == ("engagement range inches", "дальность боя в дюймах")


def test_faq_error_is_a_rulebase_error_the_cli_prints() -> None:
    error = FaqError("x")
    assert isinstance(error, TermbaseError)
    assert isinstance(error, RulebaseError)
    assert isinstance(error, click.ClickException)
    assert error.exit_code == 2


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FaqError, match="not found"):
        load_faq(tmp_path / "absent.toml")


def test_not_toml(tmp_path: Path) -> None:
    message = load_error(tmp_path, GOOD.replace('edition = "10"', "edition = "))
    assert message.startswith("faq.toml: not valid TOML")
    assert "line" in message


def test_entries_that_are_not_tables(tmp_path: Path) -> None:
    assert "not a table" in load_error(tmp_path, 'faq = ["just a string"]\n')


def test_no_entries(tmp_path: Path) -> None:
    assert "no [[faq]] entries" in load_error(tmp_path, "# nothing here\n")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (('answer = "Не больше 1 дюйма по горизонтали и 5 по вертикали."\n', ""), "'answer'"),
        (('edition = "10"', 'edition = "11"'), "'edition'"),
        (
            ('variants = ["engagement range inches", "дальность боя в дюймах"]', 'variants = ["одна"]'),
            "'variants'",
        ),
        (("lines = [164, 165]", "lines = [100, 165]"), "'citation.0.lines'"),
        (("lines = [164, 165]", "lines = [165, 164]"), "'citation.0.lines'"),
        (('quotes = ["в пределах 1 дюйма по горизонтали"]', "quotes = []"), "'citation.0.quotes'"),
        (('source = "10e-core"', 'source = "11e-core"'), "'citation.0.source'"),
        (('concepts = ["engagement-range"]', 'concepts = ["Engagement Range"]'), "'concepts'"),
        (('concepts = ["engagement-range"]', 'concepts = ["engagement-range"]\ncolour = "red"'), "'colour'"),
    ],
)
def test_bad_field_is_named_with_the_entry(tmp_path: Path, change: tuple[str, str], field: str) -> None:
    old, new = change
    assert old in GOOD
    message = load_error(tmp_path, GOOD.replace(old, new))
    assert "'10e-sample'" in message, message
    assert field in message, message


def test_id_must_carry_the_edition_prefix(tmp_path: Path) -> None:
    message = load_error(tmp_path, GOOD.replace('id = "10e-sample"', 'id = "6e-sample"'))
    assert "must start with '10e-'" in message


def test_variant_repeating_the_question(tmp_path: Path) -> None:
    text = GOOD.replace('"engagement range inches"', '"сколько дюймов  зона поражения?"')
    assert "repeats the question" in load_error(tmp_path, text)


def test_duplicate_ids(tmp_path: Path) -> None:
    message = load_error(tmp_path, GOOD + GOOD)
    assert "#2" in message and "duplicate id '10e-sample'" in message


def test_citation_from_another_edition_only(tmp_path: Path) -> None:
    text = GOOD.replace('source = "10e-core"', 'source = "kt"').replace("[164, 165]", "[3, 3]")
    assert "no citation is from an edition-10 source" in load_error(tmp_path, text)


# --- kb/faq/: one file per source ----------------------------------------------------------


def entry(id: str, source: str = "10e-core", edition: str = "10", line: int = 164) -> str:
    """The loader tests' good entry under another id, source, edition and line."""
    return (
        GOOD.replace('id = "10e-sample"', f'id = "{id}"')
        .replace('edition = "10"', f'edition = "{edition}"')
        .replace('source = "10e-core"', f'source = "{source}"')
        .replace("lines = [164, 165]", f"lines = [{line}, {line}]")
    )


def faq_dir(tmp_path: Path, files: dict[str, str]) -> Path:
    directory = tmp_path / "faq"
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def error_of(directory: Path) -> str:
    with pytest.raises(FaqError) as info:
        load_faq(directory)
    message = info.value.format_message()
    assert "\n" not in message, message
    return message


def test_every_file_is_read_in_name_order(tmp_path: Path) -> None:
    directory = faq_dir(
        tmp_path,
        {"kt.toml": entry("kt-one", "kt", "kt", 3), "10e-core.toml": entry("10e-one") + entry("10e-two")},
    )
    assert [e.id for e in load_faq(directory)] == ["10e-one", "10e-two", "kt-one"]


def test_an_id_repeated_in_another_file_names_both_files(tmp_path: Path) -> None:
    directory = faq_dir(
        tmp_path,
        {"6e-assault.toml": entry("6e-same", "6e-assault", "6", 3), "6e-rules.toml": entry("6e-same", "6e-rules", "6", 3)},
    )
    message = error_of(directory)
    assert message.startswith("6e-rules.toml [[faq]] #1 ('6e-same')"), message
    assert "duplicate id '6e-same' (also in 6e-assault.toml)" in message


def test_a_file_not_named_for_a_source_says_how_to_name_it(tmp_path: Path) -> None:
    message = error_of(faq_dir(tmp_path, {"charges.toml": entry("10e-one")}))
    assert message.startswith("charges.toml:"), message
    assert "rename it to one of" in message and "10e-core.toml" in message


def test_an_entry_that_does_not_cite_its_file_s_source_says_where_it_belongs(tmp_path: Path) -> None:
    message = error_of(faq_dir(tmp_path, {"kt.toml": entry("10e-one")}))
    assert message.startswith("kt.toml [[faq]] #1 ('10e-one')"), message
    assert "no citation is from kt" in message and "10e-core.toml" in message


def test_an_empty_directory_says_what_to_restore(tmp_path: Path) -> None:
    assert "restore kb/faq/" in error_of(faq_dir(tmp_path, {}))


def test_bad_toml_names_the_file_and_the_line(tmp_path: Path) -> None:
    message = error_of(faq_dir(tmp_path, {"10e-core.toml": entry("10e-one"), "kt.toml": "[[faq]\n"}))
    assert message.startswith("kt.toml: not valid TOML"), message
    assert "line 1" in message and "Fix the syntax" in message


def test_the_project_faq_is_one_file_per_source_each_citing_it() -> None:
    sources = {source.id for source in load_manifest()}
    files = sorted(FAQ_DIR.glob("*.toml"))
    assert {f.stem for f in files} <= sources, [f.name for f in files]
    entries = load_faq()
    per_file = [e for f in files for e in load_faq(f)]
    assert [e.id for e in entries] == [e.id for e in per_file]
    assert len({e.id for e in entries}) == len(entries)
    for file in files:
        raw = tomllib.loads(file.read_text(encoding="utf-8"))["faq"]
        assert all(any(c["source"] == file.stem for c in r["citation"]) for r in raw), file.name


# --- check_citations ---------------------------------------------------------------------------

FAKE_TEXT = (
    "Первая строка правила,",
    "продолжение\u00a0с  неразрывным пробелом.",
    "",
    "Четвёртая строка.",
)


def fake_reader(source_id: str) -> tuple[str, ...]:
    if source_id != "fake":
        raise CorpusError(f"Unknown source {source_id!r}")
    return FAKE_TEXT


def entry_with(source: str, lines: tuple[int, int], *quotes: str) -> FaqEntry:
    return FaqEntry(
        id="kt-probe",
        question="Проверочный вопрос?",
        variants=("вариант один", "вариант два"),
        edition="kt",
        concepts=("probe",),
        answer="Проверочный ответ.",
        citations=(FaqCitation(source=source, lines=lines, quotes=quotes),),
    )


def test_quote_found_across_wrapped_lines_and_no_break_spaces() -> None:
    entry = entry_with("fake", (1, 2), "правила, продолжение с неразрывным пробелом")
    assert check_citations([entry], read=fake_reader) == []


def test_missing_quote_names_entry_source_lines_and_quote() -> None:
    entry = entry_with("fake", (1, 2), "Четвёртая строка")
    [problem] = check_citations([entry], read=fake_reader)
    text = str(problem)
    assert problem.quote == "Четвёртая строка"
    for part in ("kt-probe", "fake", "lines 1-2", "'Четвёртая строка'", "not found"):
        assert part in text, text


def test_quote_is_case_sensitive() -> None:
    [problem] = check_citations([entry_with("fake", (4, 4), "четвёртая строка")], read=fake_reader)
    assert problem.quote == "четвёртая строка"


def test_span_past_the_end_is_a_problem() -> None:
    [problem] = check_citations([entry_with("fake", (3, 9), "x")], read=fake_reader)
    assert "after the last line (4)" in str(problem)


def test_unknown_source_is_a_problem_not_a_crash() -> None:
    [problem] = check_citations([entry_with("nowhere", (1, 1), "x")], read=fake_reader)
    assert "Unknown source 'nowhere'" in str(problem)


def test_normalise_space() -> None:
    assert normalise_space("  a\u00a0\u00a0b\t\nc ") == "a b c"
