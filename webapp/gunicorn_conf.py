"""gunicorn settings for ``scripts/run.sh``: sync workers, a worker count that fits the machine,
the access log on stdout, and a graceful reload when a new build is swapped in.

    RULEKB_BIND=127.0.0.1:5000 gunicorn -c webapp/gunicorn_conf.py 'rulekb.webapp:create_app()'

* ``RULEKB_WORKERS`` overrides the worker count; by default it is ``2 × cores + 1`` (cores this
  process may run on), at most one per 300 MB of available memory (a worker holds the Whoosh
  index, the termbase and its caches: about 150–250 MB), at least 2 and at most 8.
* The master polls the build's ``manifest.json`` (``RULEKB_BUILD_DIR`` or ``./build``) every
  ``RULEKB_RELOAD_POLL`` seconds (2). When its stamp changes — ``rulekb build`` swapped a new
  build in — the master sends itself SIGHUP: gunicorn starts fresh workers and lets the old ones
  finish the requests they are serving, so no request is dropped and no worker keeps old caches.
* Each new worker fills what a new question needs — the BM25 scores of every indexed term, the
  compiled templates, the answer card's modules and tables (``rulekb.webapp.views.warm.warm_search``,
  about a second) — and answers a few requests of its own before it takes real ones
  (``post_worker_init``: a search, a rule page, a concept page), so the search index, the
  morphology dictionaries and the page caches are open when the first player arrives;
  ``RULEKB_WARM_UP=false`` turns this off with the app's other warm-ups.

The hooks import what they use inside them: gunicorn's master reads this file, and it stays light
(the workers load the app).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["WARM_URLS", "default_workers", "read_stamp", "warm_worker"]

#: what a new worker asks itself before serving (the question is a common one: charge distance)
WARM_URLS = ("/search?q=%D1%87%D0%B0%D1%80%D0%B4%D0%B6", "/concepts/charge", "/about")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _available_mb() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError):
        return None
    return None


def default_workers(cores: int | None = None, available_mb: int | None = None) -> int:
    """``2 × cores + 1``, bounded by memory (300 MB a worker), at least 2, at most 8."""
    count = 2 * (cores if cores is not None else _cores()) + 1
    memory = available_mb if available_mb is not None else _available_mb()
    if memory is not None:
        count = min(count, memory // 300)
    return max(2, min(8, count))


def _build_dir() -> Path:
    given = os.environ.get("RULEKB_BUILD_DIR")
    if given:
        return Path(given)
    from rulekb.kb.build import default_build_dir

    return default_build_dir()


def read_stamp(build_dir: Path) -> str | None:
    """The stamp of the build at ``build_dir`` (None while there is none)."""
    from rulekb.corpus.errors import RulebaseError
    from rulekb.kb.build import read_manifest
    from rulekb.webapp.caching import manifest_stamp

    try:
        return manifest_stamp(read_manifest(build_dir))
    except (RulebaseError, OSError, ValueError):
        return None


bind = os.environ.get("RULEKB_BIND", "127.0.0.1:5000")
workers = int(os.environ.get("RULEKB_WORKERS") or default_workers())
worker_class = "sync"
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms "%(a)s"'
timeout = 60
graceful_timeout = 30
keepalive = 5
proc_name = "rulekb"


def when_ready(server: Any) -> None:
    """Start the thread that reloads the workers when a new build appears."""
    build_dir = _build_dir()
    poll = float(os.environ.get("RULEKB_RELOAD_POLL") or 2)
    first = read_stamp(build_dir)
    server.log.info("rulekb: serving %s (build %s) with %d sync workers", build_dir, first, server.num_workers)

    def watch() -> None:
        seen = first
        while True:
            time.sleep(poll)
            stamp = read_stamp(build_dir)
            if stamp is not None and stamp != seen:
                server.log.info("rulekb: new build %s in %s; reloading the workers gracefully", stamp, build_dir)
                seen = stamp
                os.kill(os.getpid(), signal.SIGHUP)

    threading.Thread(target=watch, name="rulekb-build-watch", daemon=True).start()


def warm_worker(app: Any) -> list[int]:
    """Fill what a new question needs (``rulekb.webapp.views.warm.warm_search``: the index's postings, the
    compiled templates, the card's tables), then ask the app the :data:`WARM_URLS` in-process;
    their status codes."""
    from rulekb.corpus.errors import RulebaseError
    from rulekb.webapp.views.warm import warm_search

    with contextlib.suppress(RulebaseError):  # no build yet: the pages say how to build
        warm_search(app)
    client = app.test_client()
    return [client.get(url).status_code for url in WARM_URLS]


def post_worker_init(worker: Any) -> None:
    """Warm a freshly booted worker (errors only mean a slower first request)."""
    if str(os.environ.get("RULEKB_WARM_UP", "true")).lower() in ("0", "false", "no"):
        return
    started = time.perf_counter()
    try:
        statuses = warm_worker(worker.wsgi)
    except Exception:
        worker.log.exception("rulekb: warming worker %s failed", worker.pid)
        return
    worker.log.info("rulekb: worker %s warm in %.1f s (%s)", worker.pid, time.perf_counter() - started, statuses)
