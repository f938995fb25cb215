"""Warm a worker's slow caches in the background, once per process and build, after forking.

The first request a gunicorn worker serves starts a daemon thread that builds what the heavier
pages need on first use — the search index and the analysis of every leaf's text (a fifth of a
search request for a question the worker has not seen went into analysing the snippets of the leaves
it shows: pymorphy3 lemmas of every word, the same for every question showing that leaf), the build's
termbase (the draft checker's finder), its KWIC lines and inconsistency report, the term matcher of
the rule pages, the concept lists, the worked examples — so a player's first visit does not pay for it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from flask import Flask, current_app

__all__ = ["install", "warm", "warm_snippets"]

_STARTED: set[tuple[int, str]] = set()
_LOCK = threading.Lock()


def warm_snippets(build_dir: Path) -> int:
    """Analyse the text of every leaf of the search index once (``rulekb.kb.search.searcher.snippet`` caches each
    text's terms per process); the number of leaves."""
    from rulekb.kb.search.searcher import get_index, snippet

    index = get_index(build_dir)
    for features in index.features.values():
        snippet(features, set())
    return len(index.features)


def warm(app: Flask, build: Any) -> None:
    """Fill the caches of ``build`` (runs in a background thread; errors are logged, not raised)."""
    try:
        warm_snippets(build.path)
    except Exception:  # a build without a search index, or any failure: only slower snippets
        app.logger.info("warming the search snippets skipped", exc_info=True)
    try:
        from rulekb.webapp.views.rules import term_context

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
        from rulekb.corpus.errors import RulebaseError
        from rulekb.webapp.views.common import current_build

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
