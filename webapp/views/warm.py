"""Warm a worker's slow caches in the background, once per process and build, after forking.

The first request a gunicorn worker serves starts a daemon thread that builds what the heavier
pages need on first use — the build's termbase (the draft checker's finder), its KWIC lines and
inconsistency report, the term matcher of the rule pages, the concept lists, the worked examples — so a
player's first visit to those pages does not pay for it. The search index itself is opened by
``kb.search`` on the first question, in the request thread.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from flask import Flask, current_app

__all__ = ["install", "warm"]

_STARTED: set[tuple[int, str]] = set()
_LOCK = threading.Lock()


def warm(app: Flask, build: Any) -> None:
    """Fill the caches of ``build`` (runs in a background thread; errors are logged, not raised)."""
    try:
        from webapp.views.rules import term_context

        with app.app_context(), app.test_request_context():
            term_context(build, "")
        _ = build.concepts, build.concept_nodes, build.examples, build.inconsistencies, build.concept_finder
    except Exception:  # a warm-up failure only means the first visit is slower
        app.logger.exception("warming the caches failed")


def install(app: Flask) -> None:
    @app.before_request
    def _start_warming() -> None:
        if not current_app.config.get("WARM_UP"):
            return
        from corpus.errors import RulebaseError
        from webapp.views.common import current_build

        try:
            build = current_build()
        except RulebaseError:
            return
        key = (os.getpid(), f"{build.path}@{build.stamp}")
        with _LOCK:
            if key in _STARTED:
                return
            _STARTED.add(key)
        flask_app = current_app._get_current_object()  # type: ignore[attr-defined]
        threading.Thread(target=warm, args=(flask_app, build), name="rulekb-warm", daemon=True).start()
