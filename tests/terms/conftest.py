"""Shared fixtures for the termbase tests: the project termbase and its index, built once."""

from __future__ import annotations

import pytest

from rulekb.kb.termbase import (
    ConceptFinder,
    Termbase,
    TermIndex,
    default_finder,
    default_index,
    default_termbase,
)


@pytest.fixture(scope="session")
def termbase() -> Termbase:
    return default_termbase()


@pytest.fixture(scope="session")
def index() -> TermIndex:
    return default_index()


@pytest.fixture(scope="session")
def finder() -> ConceptFinder:
    return default_finder()
