"""Where a search page for a new question spends its time, in-process.

Prints figures, asserts nothing. Creates the app over a build (``--build-dir``, default ``./build``),
warms it as a gunicorn worker is warmed (``rulekb.webapp.gunicorn_conf.warm_worker``, then the background
warm-up of ``rulekb.webapp.views.warm``), then asks the search page (and ``/api/ask``) every question of
the given files once — questions no cache has seen — and prints the CPU time per question. With
``--profile N`` it runs the search pages under ``cProfile`` instead and prints the N functions
with the most cumulative time and the shares of the request's main parts; with ``--parts`` it
times the page's main parts (CPU time, each wrapped, no profiler).

    .venv/bin/python benchmarks/search_profile.py [--build-dir build] [--profile 30 | --parts]
                                                  [--questions tests/data/dev.jsonl tests/data/dev-extra.jsonl]

Use development questions only (the defaults); the held-out sets are for measuring, not profiling.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the parts of a request the profile is summed over (a function's cumulative time)
PARTS = (
    ("rulekb.kb.ask.answer", "kb/ask/answer.py", "ask"),
    ("  query parsing", "kb/search/knowledge_index.py", "parse"),
    ("  retrieval (BM25F, rerank, snippets)", "kb/search/ranking.py", "search_parsed"),
    ("  FAQ match", "kb/ask/faq_pick.py", "faq_matches"),
    ("  answer card", "kb/ask/answer.py", "_card"),
    ("template", "flask/templating.py", "render_template"),
    ("hit markup", "webapp/views/search.py", "display_hits"),
    ("entity tag and gzip", "webapp/caching.py", "validate_and_compress"),
)


def time_parts() -> dict[str, float]:
    """Wrap the search page's parts so each adds its CPU time to the returned dict (from now on)."""
    from collections.abc import Callable
    from typing import Any

    import rulekb.webapp.caching as caching
    import rulekb.webapp.views.search as view

    spent: dict[str, float] = {}

    def timed(owner: Any, name: str, label: str) -> None:
        inner: Callable[..., Any] = getattr(owner, name)
        spent[label] = 0.0

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - started

        setattr(owner, name, wrapper)

    timed(caching._Hooks, "conditional", "conditional check before the view")
    timed(view, "run_ask", "rulekb.kb.ask.answer (run_ask)")
    timed(view, "display_hits", "hit markup")
    timed(view, "render_template", "template")
    timed(caching._Hooks, "validate_and_compress", "entity tag and gzip")
    timed(caching, "gzip_cached", "  of it gzip")
    return spent


def questions(paths: list[Path]) -> list[str]:
    out: list[str] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                question = json.loads(line).get("question", "")
                if question and len(question) <= 500:
                    out.append(question)
    return list(dict.fromkeys(out))


def question_arguments(parser: argparse.ArgumentParser) -> None:
    """``--build-dir`` and ``--questions`` (the development questions by default), shared with
    ``gzip_levels.py``."""
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build")
    parser.add_argument(
        "--questions", type=Path, nargs="+",
        default=[ROOT / "tests" / "data" / "dev.jsonl", ROOT / "tests" / "data" / "dev-extra.jsonl"],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    question_arguments(parser)
    parser.add_argument("--profile", type=int, default=0, help="profile the search pages; print this many functions")
    parser.add_argument("--parts", action="store_true", help="time the search page's parts (CPU, without cProfile)")
    args = parser.parse_args()

    from rulekb.webapp import create_app
    from rulekb.webapp.gunicorn_conf import warm_worker
    from rulekb.webapp.views.common import current_build
    from rulekb.webapp.views.warm import warm

    spent = time_parts() if args.parts else {}  # before the app, whose hooks are bound when it is made
    app = create_app({"WARM_UP": False, "BUILD_DIR": args.build_dir})
    client = app.test_client()
    headers = {"Accept-Encoding": "gzip"}
    started = time.perf_counter()
    warm_worker(app)
    with app.test_request_context():
        warm(app, current_build())
    print(f"warmed in {time.perf_counter() - started:.1f} s")
    warm_spent = dict(spent)  # what the warm-up spent in the parts is not the questions'
    asked = questions(args.questions)

    if args.parts:
        cpu = time.process_time()
        for question in asked:
            client.get("/search?q=" + quote(question), headers=headers)
        whole = time.process_time() - cpu
        for label in spent:
            spent[label] -= warm_spent.get(label, 0.0)
        print(f"search page {1000 * whole / len(asked):6.2f} ms CPU per new question ({len(asked)} questions), of it:")
        for label, seconds in spent.items():
            print(f"  {label:<40} {1000 * seconds / len(asked):6.3f} ms")
        return

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for question in asked:
            client.get("/search?q=" + quote(question), headers=headers)
        profile.disable()
        stats = pstats.Stats(profile)
        whole = sum(v[3] for k, v in stats.stats.items() if k[2] == "full_dispatch_request")  # type: ignore[attr-defined]
        print(f"{len(asked)} new questions under cProfile: {1000 * whole / len(asked):.1f} ms a request (profiled)")
        for label, file, function in PARTS:
            part = sum(v[3] for k, v in stats.stats.items() if k[0].endswith(file) and k[2] == function)  # type: ignore[attr-defined]
            print(f"  {label:<40} {part / whole:6.1%}")
        stats.sort_stats("cumulative").print_stats(args.profile)
        return

    for name, prefix in (("search page", "/search?q="), ("/api/ask", "/api/ask?limit=5&q=")):
        cpu = time.process_time()
        for question in asked:
            client.get(prefix + quote(question), headers=headers)
        spent = time.process_time() - cpu
        print(f"{name:<12} {1000 * spent / len(asked):6.2f} ms CPU per new question ({len(asked)} questions)")


if __name__ == "__main__":
    main()
