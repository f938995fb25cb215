"""Every kb data file has a pydantic model; the JSON Schema published next to the files is that
model's, and every file validates against it."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekb.corpus.errors import LinkError, QueryError, TermbaseError
from rulekb.kb.faq.loader import load_faq
from rulekb.kb.faq.model import FaqError
from rulekb.kb.graph.curation import load_curation
from rulekb.kb.schemas import DATA_SCHEMAS, DataSchema
from rulekb.kb.termbase.model import load_termbase
from rulekb.kb.text.vocabulary import load_vocabulary

IDS = [kind.schema.name for kind in DATA_SCHEMAS]


@pytest.mark.parametrize("kind", DATA_SCHEMAS, ids=IDS)
def test_the_published_schema_is_the_models(kind: DataSchema) -> None:
    committed = json.loads(kind.schema.read_text(encoding="utf-8"))
    assert committed == kind.model.model_json_schema(by_alias=True), (
        f"{kind.schema.name} is out of date: run `.venv/bin/python scripts/write_schemas.py`"
    )


@pytest.mark.parametrize("kind", DATA_SCHEMAS, ids=IDS)
def test_every_data_file_validates_against_its_model(kind: DataSchema) -> None:
    files = kind.files()
    assert files, f"no {kind.pattern} beside {kind.schema}"
    for path in files:
        kind.model.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[[define]]\nconcept = "charge"\nsource = "10e-core"\nlines = [9, 3]\nquote = "x"\n',
            "defines.toml:1: [[define]] field 'lines': must be [first, last] line numbers, got [9, 3]",
        ),
        (
            'schema = 1\n\n[[reference]]\nsource = "10e-core"\nline = 5\ntext = "см. ниже"\n',
            "defines.toml:3: [[reference]] field 'entry': needs 'target' as [first, last] line numbers, or a 'reason'",
        ),
    ],
)
def test_a_bad_curated_entry_names_the_file_its_line_the_field_and_the_fix(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "defines.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LinkError) as info:
        load_curation(path)
    assert info.value.format_message().startswith(expected), info.value.format_message()


def test_a_bad_synonym_group_names_the_file_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "synonyms.toml"
    path.write_text('[[group]]\nwords = ["отряд"]\n', encoding="utf-8")
    with pytest.raises(QueryError) as info:
        load_vocabulary(path)
    message = info.value.format_message()
    assert message.startswith("synonyms.toml: field 'group.0.words'"), message
    assert "see the comment at the top of the file" in message


@pytest.mark.parametrize(
    ("load", "error"),
    [(load_curation, LinkError), (load_vocabulary, QueryError), (load_termbase, TermbaseError), (load_faq, FaqError)],
)
def test_a_file_that_is_not_toml_names_the_file_the_line_and_the_fix(
    tmp_path: Path, load: Callable[[Path], object], error: type[Exception]
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('ok = 1\n[[entry]\n', encoding="utf-8")
    with pytest.raises(error) as info:
        load(path)
    message = str(info.value)
    assert message.startswith("broken.toml: not valid TOML"), message
    assert "line 2" in message and "Fix the syntax" in message
