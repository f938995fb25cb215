"""The rulekb web app: server-rendered pages and a JSON API over the built knowledge base.

``create_app(config=None)`` layers its settings: the defaults below, then ``RULEKB_*`` environment
variables (``RULEKB_BUILD_DIR=/srv/rulekb/build``; values that parse as JSON are parsed), then the
dict passed in. The app only reads ``build/``; when it is missing every page answers 503 and says
how to build it. Production: ``gunicorn -w 2 -b 127.0.0.1:8000 'rulekb.webapp:create_app()'``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask is imported only when an app is made, so the CLI starts fast
    from flask import Flask, Response

__all__ = ["DEFAULTS", "SECURITY_HEADERS", "create_app"]

#: Every setting the app reads, with its default (documented in docs/web.md; a test checks that).
DEFAULTS: dict[str, Any] = {
    "BUILD_DIR": None,  # None: ./build in the project (rulekb.kb.build.default_build_dir())
    "MAX_QUERY_LENGTH": 500,  # characters of a search question
    "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes of a POST body (the draft-check form, /api/calc)
    "SEARCH_LIMIT": 10,  # results on the search page
    "TERMS_PAGE_SIZE": 40,  # concepts per page of the termbase table (/terms?page=N)
    "API_MAX_LIMIT": 50,  # largest ?limit= of /api/ask and /api/search
    "SEND_FILE_MAX_AGE_DEFAULT": 7 * 24 * 3600,  # static assets are fingerprinted (?v=hash)
    "WARM_UP": True,  # the first request of a worker warms the index, snippets, termbase and matcher caches in a thread
    "BASE_URL": None,  # e.g. "https://rulekb.example" for absolute permalinks; None: relative paths
    "CALC_TIME_BUDGET": 1.5,  # seconds a calculation may run in a worker's main thread before a 503
    "JSON_AS_ASCII": False,
}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the Flask app: defaults → ``RULEKB_*`` environment → ``config``."""
    # imported here, not at the top: importing the package (every CLI command does) must not load
    # Flask, the views and the index
    from flask import Flask

    from rulekb.kb.build import default_build_dir

    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.from_prefixed_env("RULEKB")
    if config:
        app.config.update(config)
    app.config["BUILD_DIR"] = Path(app.config["BUILD_DIR"] or default_build_dir())
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    from rulekb.webapp.views import register

    register(app)
    _install_helpers(app)
    _install_guards(app)
    from rulekb.webapp import assets, caching, fragments, links, offline

    links.install(app)  # the templates' URLs remembered per worker
    fragments.install(app)  # the edition badge rendered once per worker
    caching.install(app)  # ETag / Last-Modified from the build stamp, 304s, gzip
    assets.install(app)  # content-hashed /assets/ names, immutable
    offline.install(app)  # web app manifest, service worker, offline search index
    return app


def _install_guards(app: Flask) -> None:
    """A malformed Host header is answered 400 before Flask binds its URL map (webapp/guard.py)."""
    from rulekb.webapp.guard import HostGuard

    app.wsgi_app = HostGuard(_StampsHeld(app.wsgi_app), SECURITY_HEADERS)  # type: ignore[method-assign]


class _StampsHeld:
    """A request reads its build's stamp once (:func:`rulekb.kb.store.stamps_held`), not once per cache."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        from rulekb.kb.store import stamps_held

        with stamps_held():
            return self.app(environ, start_response)


def _install_helpers(app: Flask) -> None:
    from flask import g, request, url_for

    fingerprints: dict[str, str] = {}

    def asset(filename: str) -> str:
        """A static URL with a content hash, so assets can be cached for a week."""
        if filename not in fingerprints:
            path = Path(app.static_folder or "") / filename
            try:
                fingerprints[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
            except OSError:
                fingerprints[filename] = "0"
        return url_for("static", filename=filename, v=fingerprints[filename])

    app.jinja_env.globals["asset"] = asset

    @app.after_request
    def _headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/api/") and request.method in ("GET", "HEAD", "OPTIONS"):
            response.headers["Access-Control-Allow-Origin"] = "*"
        if request.endpoint == "static":
            response.headers["Cache-Control"] = f"public, max-age={app.config['SEND_FILE_MAX_AGE_DEFAULT']}"
        elif "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "no-cache"
        if getattr(g, "vary_origin", False):
            response.vary.add("Origin")
        return response
