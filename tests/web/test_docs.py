"""docs/web.md stays true: every setting, route and security header is documented."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from rulekb.webapp import DEFAULTS, SECURITY_HEADERS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")


def test_every_setting_is_documented_with_its_default() -> None:
    for name, value in DEFAULTS.items():
        row = re.search(rf"^\| `{name}` \| ([^|]+) \|", DOC, flags=re.M)
        assert row, f"setting {name} is not in the settings table of docs/web.md"
        if isinstance(value, bool):
            assert row.group(1).strip() == str(value).lower()
        elif isinstance(value, int):
            assert row.group(1).strip() == str(value), name


def test_every_route_is_documented(app: Flask) -> None:
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", "", rule.rule).rstrip("/") or "/"
        prefix = path.split("<")[0]
        assert f"`{prefix}" in DOC or f"`GET {prefix}" in DOC or f"`POST {prefix}" in DOC, rule.rule


def test_security_headers_are_documented() -> None:
    flat = " ".join(DOC.split())
    for name, value in SECURITY_HEADERS.items():
        assert f"{name}: {value}" in flat, name


def test_the_screenshot_exists() -> None:
    shot = Path(__file__).resolve().parents[2] / "docs" / "screenshot-search-phone.png"
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
