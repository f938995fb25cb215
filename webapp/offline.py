"""The installable, offline web app: the web app manifest, the service worker and what it caches.

* ``/manifest.webmanifest`` — name, icons (192 and 512 px PNG, maskable, SVG), the theme colour
  of the light theme (``base.html`` adds the dark one per colour scheme), ``display: standalone``,
  start URL ``/``.
* ``/sw.js`` — ``static/sw.js`` (plain JavaScript) behind one line naming the version: the build
  stamp and the code version. A new build is a new version, so the browser installs the new
  worker, which precaches into a new cache and deletes the old one when it takes over.
* ``/offline/precache.json`` — what the worker stores on install: the app shell (the pages of the
  navigation, the assets, the manifest, the offline page and the client search index), then the
  termbase's pages (every page of its table, the whole table, the report), every rule page and
  every concept page, within ``OFFLINE_BUDGET_BYTES``.
* ``/offline/search-index.json`` — ``build/search-index.json`` (:mod:`rulekb.kb.search.offline`).
* ``/offline`` — the page the worker shows for a page it does not have; its script searches the
  client index when the address is a search.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, render_template, request, url_for

from rulekb.corpus.editions import display_rank
from rulekb.corpus.errors import IndexMissingError
from rulekb.webapp.caching import build_stamp, gzip_body
from rulekb.webapp.views.common import current_build
from rulekb.webapp.views.terms import table_urls

if TYPE_CHECKING:
    from flask import Flask, Response

    from rulekb.webapp.data import Build

__all__ = ["DARK", "LIGHT", "install", "precache_list"]

#: theme colours: the page background of the light and the dark theme (style.css)
LIGHT, DARK = "#fbfaf7", "#141311"
ACCENT = "#8a1c1c"
SW_FILE = Path(__file__).resolve().parent / "static" / "sw.js"
INDEX_FILE = "search-index.json"


def version(app: Flask, build: Build) -> str:
    """The offline version: the build stamp and the code version."""
    return f"{build_stamp(build)}-{app.extensions['rulekb_code_version']}"


def precache_list(app: Flask, build: Build) -> dict[str, Any]:
    """The URLs the service worker stores on install, the shell first, in the order they are kept
    when the budget runs out: the termbase page, rule pages in reading order, concept pages."""
    assets = app.extensions["rulekb_assets"]
    shell = [
        "/",
        url_for("search.search"),
        url_for("offline.page"),
        url_for("offline.manifest"),
        url_for("offline.search_index", v=build_stamp(build)),
        url_for("concepts.index"),
        url_for("pages.sources"),
        url_for("pages.about"),
        url_for("calc.calc"),
        *(url_for("assets.asset", name=a.hashed) for a in assets.values() if not a.filename.endswith("sw.js")),
    ]
    nodes = sorted(
        build.nodes.values(),
        key=lambda n: (display_rank(n.edition), n.source_id, n.lines[0], build.depth(n.id)),
    )

    pages = [
        *table_urls(build),
        *(url_for("rules.rule", node_id=n.id) for n in nodes),
        *(url_for("concepts.concept", concept_id=c) for c in build.concepts),
    ]
    return {
        "version": version(app, build),
        "budget": int(app.config["OFFLINE_BUDGET_BYTES"]),
        "shell": shell,
        "pages": pages,
    }


def _index_bytes(build: Build) -> tuple[bytes, bytes]:
    cached = build.__dict__.get("_offline_index")
    if cached is None:
        path = Path(build.path) / INDEX_FILE
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise IndexMissingError(
                f"The build at {str(build.path)!r} has no {INDEX_FILE} (it predates offline search): "
                "run `rulekb build` again."
            ) from exc
        cached = (data, gzip_body(data, 9))
        build.__dict__["_offline_index"] = cached
    result: tuple[bytes, bytes] = cached
    return result


def web_manifest(app: Flask) -> dict[str, Any]:
    """The web app manifest: names, start URL, standalone display, theme colours and the icons."""
    assets = app.extensions["rulekb_assets"]

    def icon(name: str, sizes: str, kind: str, purpose: str = "any") -> dict[str, str]:
        return {"src": url_for("assets.asset", name=assets[name].hashed), "sizes": sizes, "type": kind, "purpose": purpose}

    return {
        "name": "rulekb — правила Warhammer 40,000",
        "short_name": "rulekb",
        "description": "Правила Warhammer 40,000 всех редакций с цитатами: поиск, понятия, термины, расчёт — и без сети.",
        "lang": "ru",
        "dir": "ltr",
        "id": "/",
        "start_url": url_for("search.search"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": LIGHT,
        "theme_color": ACCENT,
        "categories": ["games", "reference"],
        "icons": [
            icon("icons/icon-192.png", "192x192", "image/png"),
            icon("icons/icon-512.png", "512x512", "image/png"),
            icon("icons/icon-512.png", "512x512", "image/png", "maskable"),
            icon("icons/icon.svg", "any", "image/svg+xml"),
        ],
    }


def install(app: Flask) -> None:
    """Register the offline blueprint: the manifest, the service worker, its precache list, the client search
    index and the offline page."""
    app.config.setdefault("OFFLINE_BUDGET_BYTES", 24 * 1024 * 1024)
    bp = Blueprint("offline", __name__)
    sw_body = SW_FILE.read_text(encoding="utf-8")

    @bp.route("/manifest.webmanifest")
    def manifest() -> Response:
        return app.response_class(
            json.dumps(web_manifest(app), ensure_ascii=False, indent=1), mimetype="application/manifest+json"
        )

    @bp.route("/sw.js")
    def service_worker() -> Response:
        build = current_build()
        header = (
            f"const VERSION = {json.dumps(version(app, build))};\n"
            f"const PRECACHE_URL = {json.dumps(url_for('offline.precache', v=version(app, build)))};\n"
            f"const OFFLINE_URL = {json.dumps(url_for('offline.page'))};\n"
        )
        response = app.response_class(header + sw_body, mimetype="text/javascript")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Service-Worker-Allowed"] = "/"
        return response

    @bp.route("/offline/precache.json")
    def precache() -> Response:
        response = app.response_class(
            json.dumps(precache_list(app, current_build()), ensure_ascii=False), mimetype="application/json"
        )
        return response

    @bp.route("/offline/search-index.json")
    def search_index() -> Response:
        data, packed = _index_bytes(current_build())
        gzip_ok = bool(request.accept_encodings["gzip"])
        response = app.response_class(packed if gzip_ok else data, mimetype="application/json")
        if gzip_ok:
            response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response

    @bp.route("/offline")
    def page() -> str:
        build = current_build()
        return render_template(
            "offline.html",
            index_url=url_for("offline.search_index", v=build_stamp(build)),
            version=version(app, build),
        )

    app.register_blueprint(bp)
    app.jinja_env.globals["theme_colors"] = {"light": LIGHT, "dark": DARK, "accent": ACCENT}
