"""The app factory, its layered config, the security and cache headers, and a missing build."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rulekb.webapp import CSP, DEFAULTS, create_app


def test_config_layers_defaults_then_environment_then_dict(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RULEKB_SEARCH_LIMIT", "3")
    monkeypatch.setenv("RULEKB_MAX_QUERY_LENGTH", "120")
    monkeypatch.setenv("RULEKB_BUILD_DIR", str(tmp_path / "from-env"))
    app = create_app({"MAX_QUERY_LENGTH": 90})
    assert app.config["SEARCH_LIMIT"] == 3  # environment over the default (JSON-parsed)
    assert app.config["MAX_QUERY_LENGTH"] == 90  # the dict over the environment
    assert app.config["BUILD_DIR"] == tmp_path / "from-env"
    assert app.config["API_MAX_LIMIT"] == DEFAULTS["API_MAX_LIMIT"]


def test_default_build_dir_is_the_project_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULEKB_BUILD_DIR", raising=False)
    from rulekb.kb.build import default_build_dir

    assert create_app().config["BUILD_DIR"] == default_build_dir()


@pytest.mark.parametrize("url", ["/", "/search?q=чардж", "/sources", "/about", "/api/ask?q=чардж", "/nope"])
def test_security_headers_on_every_kind_of_response(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.headers["Content-Security-Policy"] == CSP
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
                      "base-uri 'none'", "frame-ancestors 'none'", "img-src 'self' data:"):
        assert directive in CSP
    assert "unsafe-inline" not in CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"]


def test_cors_only_on_api_get(client: FlaskClient) -> None:
    assert client.get("/api/search?q=рывок").headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Origin" not in client.get("/search?q=рывок").headers
    posted = client.post("/api/calc", json={})
    assert "Access-Control-Allow-Origin" not in posted.headers


def test_static_assets_are_fingerprinted_and_cached(client: FlaskClient) -> None:
    import hashlib
    import re

    page = client.get("/about").get_data(as_text=True)
    links = re.findall(r'/assets/((style|app)\.([0-9a-f]{10})\.(css|js))"', page)
    assert {f"{stem}.{ext}" for _, stem, _, ext in links} == {"style.css", "app.js"}
    for name, stem, digest, ext in links:
        with client.get(f"/assets/{name}") as response:
            assert response.status_code == 200
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            body = (Path(__file__).parents[2] / "webapp" / "static" / f"{stem}.{ext}").read_bytes()
            assert response.get_data() == body and hashlib.sha256(body).hexdigest()[:10] == digest
    assert "no-cache" in client.get("/about").headers["Cache-Control"]


def test_no_inline_script_or_style_in_pages(client: FlaskClient) -> None:
    """The CSP forbids inline code, so the pages must not rely on any."""
    for url in ("/", "/search?q=рывок", "/sources", "/about", "/calc", "/terms", "/terms/report", "/concepts"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>" not in html and "<script >" not in html, url
        assert " style=" not in html and "<style" not in html, url
        assert " onclick=" not in html and "javascript:" not in html, url


def test_every_page_says_how_to_build_when_the_build_is_missing(missing_client: FlaskClient, app: Flask) -> None:
    urls = ["/", "/search?q=x", "/sources", "/about", "/rules/10e-core", "/concepts", "/concepts/overwatch",
            "/terms", "/terms?page=2", "/terms/report", "/terms/overwatch", "/terms.csv", "/cite/kt/5"]
    for url in urls:
        response = missing_client.get(url)
        assert response.status_code == 503, url
        assert "rulekb build" in response.get_data(as_text=True), url
        assert "Traceback" not in response.get_data(as_text=True)
    api = missing_client.get("/api/ask?q=чардж")
    assert api.status_code == 503
    assert "rulekb build" in api.get_json()["error"]


def test_every_get_route_is_covered_by_the_missing_build_test(app: Flask) -> None:
    """A new page must be added to the missing-build check above (or be static/docs)."""
    checked = {"/", "/search", "/sources", "/about", "/rules/<path:node_id>", "/concepts",
               "/concepts/<path:concept_id>", "/terms", "/terms/report", "/terms/<concept_id>", "/terms.csv", "/cite/<source_id>/<int:line>"}
    exempt = {"/static/<path:filename>", "/calc", "/api/openapi.json", "/api/calc", "/terms.tbx", "/terms.tsv",
              "/terms/check"}
    exempt |= {"/assets/<path:name>", "/manifest.webmanifest", "/sw.js", "/offline", "/offline/precache.json",
               "/offline/search-index.json"}  # tests/web/test_offline.py checks these without a build
    routes = {rule.rule for rule in app.url_map.iter_rules() if not rule.rule.startswith("/api/")}
    assert routes <= checked | exempt, routes - checked - exempt
