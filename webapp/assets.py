"""Content-hashed static assets: ``/assets/style.3f2a9c1b0d.css``, cached for a year, immutable.

At start-up every file of ``webapp/static/`` gets a name with the first ten hex digits of its
sha256 before the extension. The templates' ``asset(filename)`` returns that URL, so a changed
file is a new URL and a browser never has to revalidate an asset. The bytes and their gzip are
kept in memory (the folder is a few tens of kilobytes). A name whose hash is not the current
one (a page of an older deploy) still gets the current file, but with ``no-cache``.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Blueprint, abort, request, url_for

from rulekb.corpus.editions import edition_css
from rulekb.webapp.caching import COMPRESSIBLE, gzip_body
from rulekb.webapp.links import memo_url_for

if TYPE_CHECKING:
    from flask import Flask, Response

__all__ = ["EDITIONS_CSS", "Asset", "generated_css", "hashed_name", "install", "load_assets"]

IMMUTABLE = "public, max-age=31536000, immutable"
_HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<ext>\.[A-Za-z0-9]+)$")
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")


@dataclass(frozen=True)
class Asset:
    """One static file: its hashed name, media type, bytes and (when worth it) their gzip."""

    filename: str
    hashed: str
    mimetype: str
    data: bytes
    gzipped: bytes | None


def hashed_name(filename: str, data: bytes) -> str:
    """``style.css`` → ``style.<10 hex digits of sha256>.css``."""
    digest = hashlib.sha256(data).hexdigest()[:10]
    path = Path(filename)
    return str(path.with_name(f"{path.stem}.{digest}{path.suffix}"))


def load_assets(folder: Path) -> dict[str, Asset]:
    """Every file under ``folder`` by its plain name (``icons/icon-192.png``)."""
    out: dict[str, Asset] = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue
        name = path.relative_to(folder).as_posix()
        data = path.read_bytes()
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        packed = gzip_body(data, 9) if mimetype in COMPRESSIBLE else None
        if packed is not None and len(packed) >= len(data):
            packed = None
        out[name] = Asset(name, hashed_name(name, data), mimetype, data, packed)
    return out


#: The stylesheet of the editions' badge colours, generated from ``[[edition]]`` in ``sources.toml``.
EDITIONS_CSS = "editions.css"


def generated_css(name: str, text: str) -> Asset:
    """An asset built at start-up rather than read from ``static/``."""
    data = text.encode("utf-8")
    packed = gzip_body(data, 9)
    return Asset(name, hashed_name(name, data), "text/css", data, packed if len(packed) < len(data) else None)


def install(app: Flask) -> None:
    """The ``/assets/<hashed name>`` route and the templates' ``asset()`` helper."""
    assets = load_assets(Path(app.static_folder or Path(__file__).parent / "static"))
    assets[EDITIONS_CSS] = generated_css(EDITIONS_CSS, edition_css())
    by_hashed = {a.hashed: a for a in assets.values()}
    app.extensions["rulekb_assets"] = assets
    bp = Blueprint("assets", __name__)

    @bp.route("/assets/<path:name>")
    def asset(name: str) -> Response:
        found = by_hashed.get(name)
        current = found is not None
        if found is None:
            match = _HASHED.match(name)
            plain = f"{match['stem']}{match['ext']}" if match else ""
            found = assets.get(plain)
            if found is None:
                abort(404)
        gzip_ok = found.gzipped is not None and bool(request.accept_encodings["gzip"])
        response = app.response_class(found.gzipped if gzip_ok else found.data, mimetype=found.mimetype)
        if gzip_ok:
            response.headers["Content-Encoding"] = "gzip"
        if found.gzipped is not None:
            response.vary.add("Accept-Encoding")
        response.headers["Cache-Control"] = IMMUTABLE if current else "no-cache"
        response.headers["ETag"] = f'"{found.hashed}"'
        response.make_conditional(request)
        return response

    app.register_blueprint(bp)

    def asset_url(filename: str) -> str:
        """The content-hashed URL of a static file (its plain /static/ URL if it is unknown)."""
        found = assets.get(filename)
        if found is None:
            return url_for("static", filename=filename)
        return memo_url_for("assets.asset", name=found.hashed)

    app.jinja_env.globals["asset"] = asset_url
