"""Every kb data file has a pydantic model, and the JSON Schema published next to the file is that model's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from rulekb.kb.schemas import DATA_SCHEMAS


@pytest.mark.parametrize(("path", "model"), DATA_SCHEMAS, ids=[p.name for p, _ in DATA_SCHEMAS])
def test_the_published_schema_is_the_models(path: Path, model: type[BaseModel]) -> None:
    committed = json.loads(path.read_text(encoding="utf-8"))
    assert committed == model.model_json_schema(by_alias=True), (
        f"{path.name} is out of date: run `.venv/bin/python scripts/write_schemas.py`"
    )
