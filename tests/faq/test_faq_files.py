"""The FAQ is one file per source under kb/faq/ (like kb/examples/): one loader reads them all in name
order, and a misplaced or misnamed file fails with one line naming the file and the fix."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rulekb.corpus.reader import load_manifest
from rulekb.kb.faq.entries import FAQ_DIR, FaqError, load_faq

ENTRY = """
[[faq]]
id = "{id}"
edition = "{edition}"
question = "Сколько дюймов зона поражения здесь?"
variants = ["engagement range inches", "дальность боя в дюймах"]
concepts = ["engagement-range"]
answer = "Не больше 1 дюйма по горизонтали и 5 по вертикали."
[[faq.citation]]
source = "{source}"
lines = [{line}, {line}]
quotes = ["x"]
"""


def entry(id: str, source: str = "10e-core", edition: str = "10", line: int = 164) -> str:
    return ENTRY.format(id=id, source=source, edition=edition, line=line)


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
