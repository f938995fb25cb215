"""Web fixtures: the app over the session's build, its test client, and an app with no build."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rulekb.corpus.models import RuleNode
from rulekb.kb.build import load_nodes
from rulekb.webapp import create_app


@pytest.fixture(scope="session")
def app(built: Path) -> Flask:
    return create_app({"TESTING": True, "BUILD_DIR": built, "SERVER_NAME": "rulekb.test"})


@pytest.fixture()
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as client:
        yield client


@pytest.fixture(scope="session")
def nodes(built: Path) -> list[RuleNode]:
    return load_nodes(built)


@pytest.fixture(scope="session")
def leaf_at(nodes: list[RuleNode]):  # type: ignore[no-untyped-def]
    """The leaf of a source holding a line: tests never hard-code node ids."""

    def find(source_id: str, line: int) -> RuleNode:
        for node in nodes:
            if node.source_id == source_id and node.is_leaf and node.lines[0] <= line <= node.lines[1]:
                return node
        raise LookupError(f"no leaf of {source_id} holds line {line}")

    return find


@pytest.fixture()
def missing_client(tmp_path: Path) -> Iterator[FlaskClient]:
    app = create_app({"TESTING": True, "BUILD_DIR": tmp_path / "no-build-here"})
    with app.test_client() as client:
        yield client


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """One Playwright driver for every browser test module (two sync drivers cannot run at once)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


CHROMIUM = Path("/usr/bin/chromium")


def require_chromium(path: Path, environ: Mapping[str, str]) -> Path:
    """``path`` if Chromium is there; else skip — or fail when ``CI`` is set (CI must run these)."""
    if not path.exists():
        if environ.get("CI"):
            pytest.fail(f"CI is set but {path} is missing: install the Debian package `chromium`.")
        pytest.skip(f"{path} is not installed (apt-get install chromium); set CI=1 to make this a failure.")
    return path


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """Debian's chromium for every browser test module."""
    return require_chromium(CHROMIUM, os.environ)
