"""Golden outlines: the parser's specification, checked in as readable text.

Regenerate after an intended parser change with
``pytest tests/corpus/test_golden.py --regen`` and read the diff against the texts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.corpus.outline import format_outline
from rulekb.corpus.parser import ParsedCorpus

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.mark.parametrize("source_id", ["10e-core", "6e-rules", "6e-assault", "7e-pp58-67", "kt"])
def test_outline_matches_golden(corpus: ParsedCorpus, source_id: str, request: pytest.FixtureRequest) -> None:
    parsed = next(p for p in corpus.sources if p.source.id == source_id)
    actual = format_outline(parsed.nodes)
    path = GOLDEN / f"{source_id}.outline"
    if request.config.getoption("--regen"):
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"{path} missing: run pytest {__file__} --regen"
    assert actual == path.read_text(encoding="utf-8"), f"outline of {source_id} changed; see --regen"
