"""Warm a worker's slow caches in the background, once per process and build, after forking.

The first request a gunicorn worker serves starts a daemon thread that builds what the heavier
pages need on first use — the search index and the analysis of every leaf's text (a fifth of a
search request for a question the worker has not seen went into analysing the snippets of the leaves
it shows: pymorphy3 lemmas of every word, the same for every question showing that leaf), the build's
termbase (the draft checker's finder), its KWIC lines and inconsistency report, the term matcher of
the rule pages, the concept lists, the worked examples — so a player's first visit does not pay for it.

Before a gunicorn worker serves, :func:`warm_search` fills what each new question otherwise builds on first use (a profile of
questions no worker had seen spent about a third of a request there): the BM25 scores of every term
of every field of the index (:class:`rulekb.kb.search.searcher.Postings`, about 7,000 terms, 0.4 s), the compiled
templates, and the modules, regular expressions and tables the answer card loads for a kind of
question the first time it meets one (:data:`WARM_QUESTIONS`: a terminology, a comparison, an
English, a yes/no, a number and a misspelt question, written for this and not taken from any evaluation set).
"""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from rulekb.corpus.errors import RulebaseError
from rulekb.kb.ask.answer import ask
from rulekb.kb.search.query import default_matcher
from rulekb.kb.search.searcher import get_index, snippet
from rulekb.webapp.views.common import current_build
from rulekb.webapp.views.rules import term_context

__all__ = [
    "WARM_QUESTIONS", "install", "warm", "warm_postings", "warm_questions", "warm_search", "warm_snippets", "warm_templates",
]

#: one question of each kind the answer card treats in its own way
WARM_QUESTIONS = (
    "как переведён Overwatch",
    "чем отличается рывок в 6-й и 10-й редакции",
    "can a unit shoot after it advanced",
    "можно ли стрелять из ближнего боя",
    "сколько кубиков бросают за рывок",
    "можно ли стрилять после атступления",  # misspelt: the speller builds its index of deletes
)

_STARTED: set[tuple[int, str]] = set()
_LOCK = threading.Lock()
#: Set at interpreter exit: a warming thread stops at its next leaf or step, and exit waits for it
#: (a daemon thread killed inside pymorphy3's C++ dictionary aborts the process).
_STOP = threading.Event()
_THREADS: list[threading.Thread] = []
#: How long exit waits for a warming thread to stop.
STOP_WAIT_SECONDS = 10.0


def _stop_warming() -> None:
    _STOP.set()
    for thread in list(_THREADS):
        thread.join(timeout=STOP_WAIT_SECONDS)


atexit.register(_stop_warming)


def warm_snippets(build_dir: Path) -> int:
    """Analyse the text of every leaf of the search index once (``rulekb.kb.search.searcher.snippet`` caches each
    text's terms per process); the number of leaves."""
    index = get_index(build_dir)
    for features in index.features.values():
        if _STOP.is_set():
            break
        snippet(features, set())
    return len(index.features)


def warm_postings(build_dir: Path, concepts: Any = ()) -> int:
    """Read the BM25 scores and the IDF of every term of every field of the search index once (each
    is otherwise read from Whoosh on the first question using it); the number of terms."""
    index = get_index(build_dir)
    count = 0
    for field, terms in index.field_terms.items():
        for term in terms:
            index.postings.scores(field, term)
            # the term's IDF (the reranker's weights) or its heading-to-text IDF ratio (a clause's boost)
            if field == "text":
                index.idf(term)
            else:
                index.idf_ratio(field, term)
            count += 1
    for concept in concepts:  # the concept clauses of a query
        for field in ("concepts", "defines"):
            index.postings.scores(field, concept)
            count += 1
    return count


def warm_templates(app: Flask) -> int:
    """Compile every template once (Jinja compiles each on its first render); how many."""
    names = [name for name in app.jinja_env.list_templates() if name.endswith(".html")]
    for name in names:
        app.jinja_env.get_template(name)
    return len(names)


def warm_questions(app: Flask, build_dir: Path) -> int:
    """Ask :data:`WARM_QUESTIONS` (``rulekb.kb.ask.answer``, not the page's answer cache), so the card's modules,
    expressions and tables are loaded before a player's question needs them; how many answered
    (a failure is logged: it only leaves that kind of question slower the first time)."""
    default_matcher()  # the concept matcher the card reads rulings with, built once per process
    answered = 0
    for question in WARM_QUESTIONS:
        try:
            ask(question, build_dir=build_dir)
        except Exception:
            app.logger.info("warming the card with %r failed", question, exc_info=True)
            continue
        answered += 1
    return answered


def warm_search(app: Flask) -> dict[str, int]:
    """What a new question needs, filled before a worker serves (``webapp/gunicorn_conf.py`` calls
    this in ``post_worker_init``, in the worker's only thread: the index's reader is not shared with
    a request meanwhile). Returns how many postings, templates and questions were warmed."""
    with app.app_context():
        build = current_build()
        return {
            "postings": warm_postings(build.path, build.concepts),
            "templates": warm_templates(app),
            "questions": warm_questions(app, build.path),
        }


def warm(app: Flask, build: Any) -> None:
    """Fill the caches of ``build`` (runs in a background thread; errors are logged, not raised)."""
    try:
        warm_snippets(build.path)
    except Exception:  # a build without a search index, or any failure: only slower snippets
        app.logger.info("warming the search snippets skipped", exc_info=True)
    if _STOP.is_set():
        return
    try:
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
        thread = threading.Thread(target=warm, args=(flask_app, build), name="rulekb-warm", daemon=True)
        _THREADS.append(thread)
        thread.start()
