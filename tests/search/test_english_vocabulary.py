"""The English search vocabulary lives in data (kb/data/english.toml), validated by a pydantic model."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.corpus.errors import QueryError
from rulekb.kb.text.analysis import lemma
from rulekb.kb.text.vocabulary import english_map, load_english


def test_english_words_reach_the_russian_lemmas_of_the_texts() -> None:
    words = load_english()
    assert len(words) > 200
    assert lemma("отряд") in english_map()["unit"]
    assert all(russian for russian in words.values())


@pytest.mark.parametrize(("text", "needle"), [
    ('schema = 1\n[[word]]\nenglish = "unit"\nrussian = ["отряд"]\n[[word]]\nenglish = "unit"\nrussian = ["юнит"]\n',
     "'unit' is listed twice"),
    ('schema = 1\n[[word]]\nenglish = "Unit Coherency"\nrussian = ["отряд"]\n', "word.0.english"),
    ('schema = 1\n[[word]]\nenglish = "unit"\n', "word.0.russian"),
    ('schema = 2\n[[word]]\nenglish = "unit"\nrussian = ["отряд"]\n', "schema"),
    ('schema = 1\n[[word]\n', "not valid TOML"),
])
def test_a_broken_vocabulary_names_the_entry_and_the_fix(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "english.toml"
    path.write_text(text, encoding="utf-8")
    load_english.cache_clear()
    try:
        with pytest.raises(QueryError, match=needle.replace(".", r"\.")):
            load_english(path)
    finally:
        load_english.cache_clear()


def test_a_missing_vocabulary_says_how_to_restore_it(tmp_path: Path) -> None:
    load_english.cache_clear()
    try:
        with pytest.raises(QueryError, match="restore it from git"):
            load_english(tmp_path / "absent.toml")
    finally:
        load_english.cache_clear()
