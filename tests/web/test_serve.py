"""``rulekb serve`` and the read-only build access behind it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulekb.webapp.cli import main
from rulekb.webapp.data import get_build


def test_serve_builds_first_when_the_build_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import flask

    import rulekb.kb.build

    built: list[Path] = []
    served: list[dict[str, Any]] = []

    def fake_build(out: Path, log: Any = None, **kwargs: Any) -> None:
        built.append(out)
        out.mkdir(parents=True)
        (out / "manifest.json").write_text("{}", encoding="utf-8")

    monkeypatch.setattr(rulekb.kb.build, "build", fake_build)
    monkeypatch.setattr(flask.Flask, "run", lambda self, **kwargs: served.append({**kwargs, "app": self}))
    target = tmp_path / "kb"
    result = CliRunner().invoke(main, ["serve", "--port", "5099", "--build-dir", str(target)])
    assert result.exit_code == 0, result.output
    assert built == [target]
    assert served[0]["host"] == "127.0.0.1" and served[0]["port"] == 5099
    assert served[0]["app"].config["BUILD_DIR"] == target
    served.clear()
    again = CliRunner().invoke(main, ["serve", "--build-dir", str(target)])
    assert again.exit_code == 0 and built == [target]  # an existing build is served as it is
    assert served[0]["port"] == 5000


def test_serve_rejects_a_bad_port() -> None:
    result = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "70000" in result.output


def test_a_rebuild_is_picked_up_and_the_build_is_never_written(built: Path, tmp_path: Path) -> None:
    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    before = {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()}
    first = get_build(copy)
    assert get_build(copy) is first  # loaded once per process
    from rulekb.webapp import create_app

    client = create_app({"TESTING": True, "BUILD_DIR": copy}).test_client()
    for url in ("/", "/search?q=рывок", "/sources", "/concepts/overwatch", "/terms", "/api/ask?q=рывок"):
        assert client.get(url).status_code == 200
    assert {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()} == before  # read-only
    manifest = copy / "manifest.json"
    stamp = manifest.stat().st_mtime_ns + 1_000_000_000
    os.utime(manifest, ns=(stamp, stamp))  # what `rulekb build` swapping a new directory in looks like
    assert get_build(copy) is not first


def test_the_first_request_warms_the_slow_caches_in_the_background(built: Path, tmp_path: Path) -> None:
    import threading

    from rulekb.webapp import create_app

    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    app = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": True})
    assert app.test_client().get("/about").status_code == 200
    for thread in threading.enumerate():
        if thread.name == "rulekb-warm":
            thread.join(timeout=120)
    build = get_build(copy)
    assert "_term_parts" in build.__dict__ and "examples" in build.__dict__
    # the termbase pages' data comes from the build: its report and the draft checker's finder
    assert "inconsistencies" in build.__dict__ and "concept_finder" in build.__dict__
    other = tmp_path / "other"
    shutil.copytree(built, other)
    cold = create_app({"TESTING": True, "BUILD_DIR": other, "WARM_UP": False})
    assert cold.test_client().get("/about").status_code == 200
    assert not any(t.name == "rulekb-warm" and t.is_alive() for t in threading.enumerate())
    assert "_term_parts" not in get_build(other).__dict__


def test_one_build_stamp_for_the_knowledge_base_the_graph_and_the_search_index(built: Path, tmp_path: Path) -> None:
    from rulekb.kb.graph.queries import load_graph
    from rulekb.kb.knowledge import build_stamp, open_knowledge_base
    from rulekb.kb.search.index import process_key
    from rulekb.kb.search.searcher import get_index

    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    base, index, graph = open_knowledge_base(copy), get_index(copy), load_graph(copy)
    assert process_key(copy)[1:] == (str(build_stamp(copy)[0]), build_stamp(copy)[1])
    assert index.matcher is base.concept_matcher and index.faq is base.faq  # the same build's termbase and FAQ
    assert base.knowledge_graph() is graph
    manifest = copy / "manifest.json"
    stamp = manifest.stat().st_mtime_ns + 1_000_000_000
    os.utime(manifest, ns=(stamp, stamp))
    assert open_knowledge_base(copy) is not base
    assert get_index(copy) is not index
    assert load_graph(copy) is not graph


def test_a_worker_is_warmed_for_new_questions_before_it_serves_and_answers_the_same(built: Path, tmp_path: Path) -> None:
    from urllib.parse import quote

    from rulekb.kb.search.knowledge_index import Postings, get_index
    from rulekb.webapp import create_app
    from rulekb.webapp.gunicorn_conf import WARM_URLS, warm_worker
    from rulekb.webapp.views.warm import WARM_QUESTIONS, warm_search

    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    question = "/search?q=" + quote("может ли отряд стрелять после отступления")
    cold = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": False}).test_client().get(question).get_data()
    get_index(copy).postings._scores.clear()  # as a fresh worker has them

    app = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": False})
    assert warm_worker(app) == [200] * len(WARM_URLS)
    assert warm_search(app)["questions"] == len(WARM_QUESTIONS)  # again: each kind of question answers
    index = get_index(copy)
    kept = index.postings._scores
    assert all((field, term) in kept for field, terms in index.field_terms.items() for term in terms)
    assert {("defines", concept) for concept in get_build(copy).concepts} <= set(kept)
    fresh = Postings(index.searcher)
    sample = [key for key in kept if kept[key]][::97]
    assert sample and all(fresh.scores(*key) == kept[key] for key in sample)  # the scores Whoosh gives
    html_templates = [name for name in app.jinja_env.list_templates() if name.endswith(".html")]
    assert len(app.jinja_env.cache or {}) >= len(html_templates)  # compiled once, before serving
    assert app.test_client().get(question).get_data() == cold  # the page a player reads is the same


def test_a_process_exiting_while_its_caches_warm_exits_cleanly(built: Any) -> None:
    """The first request starts the warming thread; the process exits at once and must not abort."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from rulekb.webapp import create_app\n"
        "app = create_app({'TESTING': True, 'BUILD_DIR': sys.argv[1], 'WARM_UP': True})\n"
        "app.test_client().get('/')\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(built)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
