"""HTTP caching and compression: validators tied to the build, 304s, gzip.

Every page of the app is a pure function of three things: the URL, the build it reads and the
code that renders it. So a response's validator needs no hashing of its body:

* the **ETag** is ``W/"<build stamp>-<code version>"`` — the stamp of ``build/manifest.json``
  (:func:`build_stamp`) and a hash of the app's templates, static files, Python modules and the
  data files read at run time, taken when the app starts (:func:`code_version`);
* **Last-Modified** is the later of the manifest's modification time and the newest of those files.

A conditional GET (``If-None-Match``, else ``If-Modified-Since``) that matches is answered with
304 *before* the view runs, so a revalidation costs a stat of the manifest, not a page render.
Other GETs are looked up in a per-worker cache of whole responses keyed by (ETag, URL, gzip or
not; and the build as this worker loaded it) — the last :data:`RESPONSE_CACHE_SIZE` — so a page asked again in the same build (a popular
question, a rule page) is sent without running its view or compressing it again.
Responses that are not 200 never get validators. HTML, JSON, SVG, CSS, JavaScript and the
termbase exports are gzipped when the client accepts it and the body is at least
``GZIP_MIN_SIZE`` bytes (``Vary: Accept-Encoding``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import g, request

from rulekb.corpus.errors import RulebaseError

if TYPE_CHECKING:
    from flask import Flask, Response

    from rulekb.webapp.data import Build

__all__ = [
    "COMPRESSIBLE",
    "build_stamp",
    "code_version",
    "etag_for",
    "gzip_body",
    "gzip_cached",
    "install",
    "manifest_stamp",
]

#: Media types worth compressing (images other than SVG and archives are compressed already).
COMPRESSIBLE = frozenset(
    {
        "text/html",
        "text/css",
        "text/plain",
        "text/csv",
        "text/tab-separated-values",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "application/xml",
        "application/x-tbx+xml",
        "image/svg+xml",
    }
)

#: Endpoints that manage their own caching headers (content-hashed assets, the service worker).
OWN_CACHING = frozenset({"static", "assets.asset"})

_WEBAPP = Path(__file__).resolve().parent
_KB = _WEBAPP.parent / "kb"


def build_stamp(build: Build) -> str:
    """The stamp of a build: ``manifest.json``'s own ``stamp`` field when it has one, else a hash
    of the manifest (its timings differ from one build to the next, so every build has its own)."""
    cached = build.__dict__.get("_http_stamp")
    if isinstance(cached, str):
        return cached
    stamp = manifest_stamp(build.manifest)
    build.__dict__["_http_stamp"] = stamp
    return stamp


def manifest_stamp(manifest: dict[str, Any]) -> str:
    """The stamp of a build from its manifest (see :func:`build_stamp`)."""
    given = manifest.get("stamp")
    if isinstance(given, str | int) and str(given):
        return "".join(ch for ch in str(given) if ch.isalnum() or ch in "-_.")[:40]
    raw = json.dumps(manifest, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:16]


def _code_files() -> Iterable[Path]:
    corpus = _WEBAPP.parent / "corpus"
    for folder, pattern in (
        (_WEBAPP, "**/*.py"),
        (_WEBAPP / "templates", "**/*"),
        (_WEBAPP / "static", "**/*"),
        (_KB, "**/*.py"),
        (corpus, "**/*.py"),
    ):  # data files (kb/data, the corpus manifest) reach pages only through a build and its stamp
        yield from (p for p in folder.glob(pattern) if p.is_file())


def code_version() -> tuple[str, float]:
    """A hash of what renders the pages (templates, static files, the modules of ``webapp``,
    ``kb`` and ``corpus``) and the newest modification time among them; the data reaches pages only
    through the build, whose stamp the entity tag carries too."""
    digest = hashlib.sha256()
    newest = 0.0
    for path in sorted(_code_files()):
        try:
            data = path.read_bytes()
            newest = max(newest, path.stat().st_mtime)
        except OSError:
            continue
        digest.update(str(path.relative_to(_WEBAPP.parent)).encode())
        digest.update(data)
    return digest.hexdigest()[:10], newest


def etag_for(build: Build, version: str) -> str:
    """The (weak) entity tag of every page rendered from ``build`` by code ``version``."""
    return f'W/"{build_stamp(build)}-{version}"'


def gzip_body(data: bytes, level: int = 6) -> bytes:
    """gzip with a fixed timestamp, so the same body always compresses to the same bytes."""
    return gzip.compress(data, compresslevel=level, mtime=0)


#: gzipped bodies by the sha1 of the plain body: a page served again (a popular question, a rule
#: page) is compressed once per worker; hashing 30 KB costs a tenth of compressing it.
GZIP_CACHE_SIZE = 512
_GZIP_CACHE: OrderedDict[bytes, bytes] = OrderedDict()
_GZIP_LOCK = threading.Lock()


def gzip_cached(data: bytes, level: int) -> bytes:
    """``gzip_body(data, level)``, remembered for the last :data:`GZIP_CACHE_SIZE` bodies."""
    key = hashlib.sha1(data, usedforsecurity=False).digest() + bytes([level])
    with _GZIP_LOCK:
        packed = _GZIP_CACHE.get(key)
        if packed is not None:
            _GZIP_CACHE.move_to_end(key)
            return packed
    packed = gzip_body(data, level)
    with _GZIP_LOCK:
        _GZIP_CACHE[key] = packed
        while len(_GZIP_CACHE) > GZIP_CACHE_SIZE:
            _GZIP_CACHE.popitem(last=False)
    return packed


#: whole responses (body and headers, after compression) by (ETag, the build as loaded, URL, gzip
#: or not): a page is a pure function of those, so one asked again is sent without running its view.
RESPONSE_CACHE_SIZE = 256
RESPONSE_MAX_BYTES = 128 * 1024
Kept = tuple[bytes, list[tuple[str, str]], str]

#: Cookies a page's content depends on (the edition a player plays orders the answer card): their
#: values are part of the entity tag and of the response cache's key, and responses say ``Vary: Cookie``.
VARY_COOKIES = ("rulekb_play",)


def _accepts_gzip(accept_encoding: Any) -> bool:
    return bool(accept_encoding["gzip"]) or (accept_encoding["*"] > 0 and "gzip" not in accept_encoding)


def _matches(header: str | None, etag: str) -> bool:
    if not header:
        return False
    if header.strip() == "*":
        return True
    wanted = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == wanted for tag in header.split(","))


def install(app: Flask) -> None:
    """Answer conditional requests early, add validators to 200 responses, gzip what is worth it."""
    version, code_mtime = code_version()
    app.config.setdefault("GZIP_MIN_SIZE", 512)
    app.config.setdefault("GZIP_LEVEL", 5)
    app.extensions["rulekb_code_version"] = version
    # One cache per app: a page depends on the app's settings too (BASE_URL makes absolute permalinks).
    hooks = _Hooks(app, version, code_mtime)
    app.before_request(hooks.conditional)
    app.after_request(hooks.validate_and_compress)


class _Hooks:
    """The request hooks of one app: validators, 304s, the response cache and gzip."""

    def __init__(self, app: Flask, version: str, code_mtime: float) -> None:
        self.app = app
        self.version = version
        self.code_mtime = code_mtime
        self.responses: OrderedDict[tuple[str, str, str, bool], Kept] = OrderedDict()

    def validators(self) -> tuple[str, float, str] | None:
        """The ETag (with the cookies a page varies on), Last-Modified and the build as loaded; None without
        a build. Worked out once per request: the conditional check before the view and the headers
        after it ask for the same."""
        if "rulekb_validators" not in g:
            g.rulekb_validators = self._work_out_validators()
        found: tuple[str, float, str] | None = g.rulekb_validators
        return found

    def _work_out_validators(self) -> tuple[str, float, str] | None:
        # imported here: the views import the asset pipeline, which imports this module
        from rulekb.webapp.views.common import current_build

        try:
            build = current_build()
        except RulebaseError:
            return None
        try:
            built = (Path(build.path) / "manifest.json").stat().st_mtime
        except OSError:
            built = build.stamp / 1e9
        etag = etag_for(build, self.version)
        variant = "|".join(request.cookies.get(name, "") for name in VARY_COOKIES)
        if variant.strip("|"):
            etag = etag[:-1] + "-" + hashlib.sha1(variant.encode(), usedforsecurity=False).hexdigest()[:12] + '"'
        return etag, max(built, self.code_mtime), f"{build.path}@{build.stamp}"

    def conditional(self) -> Response | None:
        """Before the view: a 304 for a matching conditional request, a kept response for a plain GET."""
        if request.method not in ("GET", "HEAD") or request.endpoint in OWN_CACHING or request.endpoint is None:
            return None
        conditional = request.headers.get("If-None-Match") or request.headers.get("If-Modified-Since")
        if not conditional and request.method != "GET":
            return None
        found = self.validators()
        if found is None:
            return None
        etag, modified, loaded = found
        if not conditional:
            return self._kept((etag, loaded, request.full_path, _accepts_gzip(request.accept_encodings)))
        if not _fresh(etag, modified):
            return None
        response = self.app.response_class(status=304)
        response.headers["ETag"] = etag
        response.headers["Last-Modified"] = formatdate(int(modified), usegmt=True)
        response.headers["Cache-Control"] = "no-cache"
        response.vary.add("Accept-Encoding")
        response.vary.add("Cookie")
        g.rulekb_not_modified = True
        return response

    def _kept(self, key: tuple[str, str, str, bool]) -> Response | None:
        """The response kept under ``key``, or None (and the key noted for :meth:`_keep`)."""
        with _GZIP_LOCK:
            kept = self.responses.get(key)
            if kept is not None:
                self.responses.move_to_end(key)
        if kept is None:
            g.rulekb_response_key = key
            return None
        body, headers, content_type = kept
        g.rulekb_from_cache = True
        return self.app.response_class(body, headers=headers, content_type=content_type)

    def validate_and_compress(self, response: Response) -> Response:
        """After the view: validators on a 200, gzip, and the response kept for the next plain GET."""
        if g.get("rulekb_from_cache"):
            return response
        if (
            response.status_code == 200
            and request.method in ("GET", "HEAD")
            and request.endpoint not in OWN_CACHING
            and "ETag" not in response.headers
            and "no-store" not in (response.headers.get("Cache-Control") or "")
        ):
            found = self.validators()
            if found is not None:
                response.headers["ETag"] = found[0]
                response.headers["Last-Modified"] = formatdate(int(found[1]), usegmt=True)
                response.vary.add("Cookie")
        self._compress(response)
        self._keep(g.pop("rulekb_response_key", None), response)
        return response

    def _keep(self, key: tuple[str, str, str, bool] | None, response: Response) -> None:
        """Keep a whole 200 response (not streamed, no cookie set, small enough) under the key noted before the
        view, the last :data:`RESPONSE_CACHE_SIZE` of them."""
        if (
            key is None
            or response.status_code != 200
            or response.headers.get("ETag") != key[0]
            or response.direct_passthrough
            or response.is_streamed
            or "Set-Cookie" in response.headers
        ):
            return
        body = response.get_data()
        if len(body) > RESPONSE_MAX_BYTES:
            return
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-type", "content-length")]
        with _GZIP_LOCK:
            self.responses[key] = (body, headers, response.content_type or "text/html; charset=utf-8")
            while len(self.responses) > RESPONSE_CACHE_SIZE:
                self.responses.popitem(last=False)

    def _compress(self, response: Response) -> None:
        if (
            response.direct_passthrough
            or response.is_streamed
            or response.status_code < 200
            or response.status_code in (204, 304)
            or "Content-Encoding" in response.headers
            or response.mimetype not in COMPRESSIBLE
        ):
            return
        response.vary.add("Accept-Encoding")
        if not _accepts_gzip(request.accept_encodings):
            return
        data = response.get_data()
        if len(data) < int(self.app.config["GZIP_MIN_SIZE"]):
            return
        response.set_data(gzip_cached(data, int(self.app.config["GZIP_LEVEL"])))
        response.headers["Content-Encoding"] = "gzip"


def _fresh(etag: str, modified: float) -> bool:
    """Whether the client's copy is current: ``If-None-Match`` matches the ETag, else ``If-Modified-Since`` is
    no earlier than Last-Modified (an unreadable date is not fresh)."""
    inm = request.headers.get("If-None-Match")
    if inm is not None:
        return _matches(inm, etag)
    try:
        since = parsedate_to_datetime(request.headers.get("If-Modified-Since", "")).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False
    return int(modified) <= since
