"""Loading the FAQ files (kb/faq/*.toml): a malformed file fails with one clear line naming it; citations are checked honestly."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from rulekb.corpus.errors import CorpusError, RulebaseError, TermbaseError
from rulekb.kb.faq.entries import FaqCitation, FaqEntry, FaqError, check_citations, load_faq, normalise_space

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
