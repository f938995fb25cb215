"""What repeats across search requests, done once per worker in the background.

Profiling the search page for questions a worker has not seen showed that about a fifth of a request
went into analysing the text of the leaves it shows (their snippets: pymorphy3 lemmas of every
word), work that is the same for every question that shows the same leaf. On a worker's first
request a daemon thread analyses every leaf once (``kb.search.snippet`` caches each text's terms
per process; about 0.4 s), and opens the search index, so later requests pay only for what is
new in the question. ``WARM_UP = False`` turns it off, with the other warm-ups.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from flask import Flask

__all__ = ["install", "warm_snippets"]

_STARTED: set[tuple[int, str]] = set()
_LOCK = threading.Lock()


def warm_snippets(build_dir: Path) -> int:
    """Analyse the text of every leaf of the search index once; the number of leaves."""
    from kb.search import get_index, snippet

    index = get_index(build_dir)
    for features in index.features.values():
        snippet(features, set())
    return len(index.features)


def install(app: Flask) -> None:
    from flask import current_app

    @app.before_request
    def _warm_search() -> None:
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
        logger = current_app.logger

        def run() -> None:
            try:
                warm_snippets(build.path)
            except Exception:  # a build without a search index, or any failure: only slower snippets
                logger.info("warming the search snippets skipped", exc_info=True)

        threading.Thread(target=run, name="rulekb-warm-search", daemon=True).start()
