"""Hostile and random input on every route: never a server error, never reflected markup.

Hypothesis sends control characters, emoji, 10 KB strings, ``../``, ``%00``, HTML/JS and template
syntax as path parameters, query parameters and POST bodies through the Flask test client.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.webapp.views.calc import FIELDS

HOSTILE = [
    "",
    " ",
    "../",
    "../../../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "%00",
    "\x00",
    "\x1b[31m\x07\x08",
    "<script>alert(1)</script>",
    "\"'><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "{{ 7*7 }}{% raw %}",
    "${7*7}",
    "' OR 1=1 --",
    "\r\nSet-Cookie: pwned=1",
    "*_[]()#>`&amp;\\",
    "😀🎲🛡️" * 30,
    "\u202eevil\u200b\ufeff",
    "я" * 10_000,
    "x" * 10_000,
    "-1",
    "0",
    "9" * 40,
    "NaN",
    "1e309",
    "D0",
    "0D6",
    "99D999",
]

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=200)
VALUES = st.one_of(st.sampled_from(HOSTILE), TEXT)
PARAMS = ["q", "edition", "limit", "ability", *(f.name for f in FIELDS)]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _ok(response: Any, path: str) -> None:
    status = response.status_code
    assert status < 500, (path, status, response.get_data(as_text=True)[:300])
    if response.mimetype == "text/html":
        body = response.get_data(as_text=True)
        assert "<script>alert(1)" not in body and "<img src=x" not in body
        assert "Traceback" not in body


def _paths(app: Flask) -> list[tuple[str, list[str], set[str]]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        names = [name for _, name in re.findall(r"<(?:([a-z]+):)?([a-z_]+)>", rule.rule)]
        out.append((rule.rule, names, set(rule.methods or ())))
    return out


def _fill(rule: str, value: str, number: int) -> str:
    def sub(match: re.Match[str]) -> str:
        converter = match.group(1) or ""
        if converter == "int":
            return str(number)
        return quote(value, safe="/" if converter == "path" else "")

    return re.sub(r"<(?:([a-z]+):)?[a-z_]+>", sub, rule)


@SETTINGS
@given(value=VALUES, number=st.integers(min_value=0, max_value=10**15))
def test_hostile_path_parameters(client: FlaskClient, app: Flask, value: str, number: int) -> None:
    for rule, names, methods in _paths(app):
        if not names or "GET" not in methods:
            continue
        path = _fill(rule, value, number)
        _ok(client.get(path), path)


@SETTINGS
@given(params=st.lists(st.tuples(st.sampled_from(PARAMS), VALUES), max_size=6))
def test_hostile_query_parameters(client: FlaskClient, app: Flask, params: list[tuple[str, str]]) -> None:
    for rule, names, methods in _paths(app):
        if "GET" not in methods:
            continue
        path = _fill(rule, "overwatch", 317) if names else rule
        _ok(client.get(path, query_string=params), path)


@SETTINGS
@given(draft=VALUES, extra=st.dictionaries(st.sampled_from(PARAMS), VALUES, max_size=3))
def test_hostile_draft_posts(client: FlaskClient, draft: str, extra: dict[str, str]) -> None:
    _ok(client.post("/terms/check", data={"draft": draft, **extra}), "/terms/check")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | VALUES,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from([*PARAMS, "weapon", "defender"]), children, max_size=4),
    max_leaves=12,
)


@SETTINGS
@given(body=JSON)
def test_hostile_calc_json(client: FlaskClient, body: Any) -> None:
    _ok(client.post("/api/calc", json=body), "/api/calc")


def test_raw_hostile_urls(client: FlaskClient) -> None:
    for path in ("/rules/%00", "/rules/..%2F..%2Fetc%2Fpasswd", "/static/../webapp/__init__.py",
                 "/static/%2e%2e/%2e%2e/pyproject.toml", "/rules/%ED%A0%80", "/search?q=%ED%A0%80&edition=%00",
                 "/cite/kt/-1", "/cite/kt/99999999999999999999999", "/api/rules/" + "a/" * 2000,
                 "/concepts/%3Cscript%3E", "/terms/..%2F..", "/api/calc?attacks=%FF%FE"):
        response = client.get(path)
        _ok(response, path)
        response.close()
    for path in ("/static/../webapp/__init__.py", "/static/%2e%2e/%2e%2e/pyproject.toml"):
        assert client.get(path).status_code == 404


def test_oversized_posts_are_refused_with_413(client: FlaskClient) -> None:
    big = "я" * 70_000
    response = client.post("/terms/check", data={"draft": big})
    assert response.status_code == 413
    assert "64" in response.get_data(as_text=True)
    api = client.post("/api/calc", data=b"{" + b" " * 70_000 + b"}", content_type="application/json")
    assert api.status_code == 413 and api.is_json


def test_read_only_routes_refuse_writes(client: FlaskClient) -> None:
    for path in ("/", "/search", "/rules/kt", "/api/ask", "/api/terms", "/terms.csv"):
        assert client.post(path).status_code == 405
        assert client.delete(path).status_code == 405
