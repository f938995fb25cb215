"""Shared fixtures: the parsed corpus once per session, a built knowledge base in a tmp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.corpus.parser import ParsedCorpus, parse_corpus


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen", action="store_true", help="Rewrite golden files instead of comparing.")


@pytest.fixture(scope="session")
def corpus() -> ParsedCorpus:
    return parse_corpus()


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A full `rulekb build` into a temporary directory, shared by the session."""
    from rulekb.kb.build import build

    out = tmp_path_factory.mktemp("kb") / "build"
    build(out=out)
    return out
