"""Remembered URLs: the pages' links built once per worker instead of on every render.

A search page builds two dozen URLs (the header, the footer, the assets, the edition links), and
werkzeug's URL building is microseconds of Python each. A relative URL depends on nothing but the
endpoint, its values and the request's script root (the app mounted under a prefix), host and
scheme, so :func:`memo_url_for` keeps what :func:`flask.url_for` returns under those, in a bounded
per-process cache. A call with Flask's own options (``_external``, ``_anchor``, ``_method``,
``_scheme``), with values that are not plain strings or numbers, or outside a request goes to
:func:`flask.url_for` unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Flask, current_app, has_request_context, request, url_for

__all__ = ["URL_CACHE_SIZE", "install", "memo_url_for"]

#: URLs kept per worker: every rule and concept link a page may show, with room to spare
URL_CACHE_SIZE = 8192

_PLAIN = (str, int, float, type(None))
_EXTENSION = "rulekb.links"

Built = Callable[[str, str, str, str, tuple[tuple[str, Any], ...]], str]


def _cache() -> Built:
    """One app's remembered URLs (the key's first three parts select the request's URL adapter)."""

    @lru_cache(maxsize=URL_CACHE_SIZE)
    def built(root: str, host: str, scheme: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
        del root, host, scheme
        return url_for(endpoint, **dict(values))

    return built


#: where a request keeps what its URLs are remembered under (the app's cache, script root, host and
#: scheme: werkzeug works the host out of the headers each time it is asked)
_SITE = "rulekb.links.site"


def memo_url_for(endpoint: str, /, **values: Any) -> str:
    """:func:`flask.url_for`, remembered for relative URLs of plain values (see the module); the
    values keep their order, which is the order of a URL's query arguments."""
    if not has_request_context():
        return url_for(endpoint, **values)
    environ = request.environ
    site: tuple[Built | None, str, str, str] | None = environ.get(_SITE)
    if site is None:
        site = environ[_SITE] = (current_app.extensions.get(_EXTENSION), request.script_root, request.host, request.scheme)
    built, root, host, scheme = site
    if (
        built is None
        or endpoint.startswith(".")
        or any(key.startswith("_") or not isinstance(value, _PLAIN) for key, value in values.items())
    ):
        return url_for(endpoint, **values)
    return built(root, host, scheme, endpoint, tuple(values.items()))


def install(app: Flask) -> None:
    """Templates build their URLs through :func:`memo_url_for`, each app with its own cache."""
    app.extensions[_EXTENSION] = _cache()
    app.jinja_env.globals["url_for"] = memo_url_for
