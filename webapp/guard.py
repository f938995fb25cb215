"""What a visitor sends is checked before it reaches a view: the Host header, JSON bodies, the time spent.

* :class:`HostGuard` wraps the WSGI app and answers 400 to a malformed ``Host`` header (an empty
  or over-long label, characters a host name cannot have) before Flask binds its URL map, which
  would otherwise fail on it for every page. Nothing of the header reaches a page: permalinks are
  built from the ``BASE_URL`` setting, or are relative paths (:func:`absolute`).
* :func:`read_json_body` parses a POST body itself: at most :data:`MAX_DEPTH` levels of nesting
  (counted on the raw text, before the parser could recurse), no lone surrogate in any string,
  an object at the top; each failure is a :class:`~rulekb.corpus.errors.QueryError` (400) naming the field.
* :func:`time_budget` interrupts a computation that runs past its budget (``CALC_TIME_BUDGET``
  seconds) with :class:`TimeBudgetExceeded` (503). It uses ``SIGALRM``, so it applies in the main
  thread of a process — gunicorn's sync workers, the command line — and is a no-op elsewhere.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from flask import g

from rulekb.corpus.errors import QueryError, RulebaseError

__all__ = [
    "MAX_DEPTH",
    "HostGuard",
    "TimeBudgetExceeded",
    "absolute",
    "check_strings",
    "read_json_body",
    "request_budget",
    "time_budget",
    "valid_host",
]

#: Nesting levels a JSON body may have (a profile needs 3).
MAX_DEPTH = 8

_LABEL = r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)"
_HOST = re.compile(
    rf"^(?:(?:{_LABEL}\.)*{_LABEL}\.?|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?$"
)


def valid_host(host: str) -> bool:
    """Whether ``host`` (a Host header: name or address, optional port) can be a host at all."""
    return len(host) <= 260 and bool(_HOST.match(host))


class HostGuard:
    """WSGI middleware: a request whose Host header is not a host name gets a plain 400."""

    def __init__(self, app: Callable[..., Iterable[bytes]], headers: dict[str, str]) -> None:
        self.app = app
        self.headers = headers

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        host = environ.get("HTTP_HOST")
        if host is not None and not valid_host(host):
            body = (
                b"400 Bad Request: the Host header is not a valid host name (labels of 1-63 letters, digits "
                b"or hyphens separated by dots, an optional :port). Send the server's own name.\n"
            )
            headers = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))]
            headers += list(self.headers.items())
            start_response("400 Bad Request", headers)
            return [body]
        return self.app(environ, start_response)


def absolute(path: str, base_url: str | None) -> str:
    """``path`` under the configured base URL, or the path itself: never the visitor's Host header."""
    return (base_url.rstrip("/") + path) if base_url else path


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, strings skipped (linear, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def check_strings(value: Any, where: str = "") -> None:
    """Refuse a lone surrogate in any key or string of a parsed JSON value, naming its path."""
    if isinstance(value, str):
        if _has_surrogate(value):
            raise QueryError(f"{where or 'body'}: the text holds a lone UTF-16 surrogate; send valid Unicode.")
    elif isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            if _has_surrogate(str(key)):
                raise QueryError(f"{where or 'body'}: a field name holds a lone UTF-16 surrogate; send valid Unicode.")
            check_strings(item, path)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_strings(item, f"{where}[{i}]")


def read_json_body(raw: bytes, mimetype: str | None) -> dict[str, Any]:
    """The JSON object of a POST body, checked; every refusal is a QueryError naming the field."""
    if mimetype not in (None, "", "application/json") and not (mimetype or "").endswith("+json"):
        raise QueryError(f"Content-Type {mimetype[:60]!r}: POST the profile as application/json.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise QueryError(f"body: not UTF-8 (byte {exc.start}); POST the profile as UTF-8 JSON.") from exc
    deepest = _depth(text)
    if deepest > MAX_DEPTH:
        raise QueryError(f"body: nested {deepest} levels deep; a profile needs at most {MAX_DEPTH}.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise QueryError(f"body: not valid JSON ({str(exc)[:80]}); POST an object like {{\"edition\": \"10\"}}.") from exc
    if not isinstance(data, dict):
        raise QueryError(f"body: a JSON {type(data).__name__}, not an object; POST the attack profile object.")
    check_strings(data)
    return data


class TimeBudgetExceeded(RulebaseError):
    """A computation ran past its time budget (the estimate of its work was wrong): 503."""


def request_budget(seconds: float) -> float:
    """What is left of one request's budget of ``seconds`` (two calculations side by side share it)."""
    if seconds <= 0:
        return 0.0

    started: float = g.setdefault("rulekb_budget_started", time.monotonic())
    left = seconds - (time.monotonic() - started)
    if left <= 0:
        raise TimeBudgetExceeded(f"The calculations took longer than {seconds:g} s in all; compare smaller profiles.")
    return left


@contextmanager
def time_budget(seconds: float, what: str, budget: float | None = None) -> Iterator[None]:
    """Interrupt the block after ``seconds`` with :class:`TimeBudgetExceeded` (main thread only).

    ``budget`` is the whole budget the message states (``seconds`` may be what is left of it)."""
    budget = seconds if budget is None else budget
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise TimeBudgetExceeded(
            f"{what} took longer than its time budget ({budget:g} s) and was stopped; use a smaller profile "
            "(fewer attacks or models) and try again."
        )

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
