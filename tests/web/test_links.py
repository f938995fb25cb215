"""Remembered URLs (webapp/links.py) are exactly what Flask builds, under any script root; a request
reads its build's stamp once (kb/store.py, stamps_held); a snippet's markup takes a fast path with
the same result."""

from __future__ import annotations

import html
import os
import random
import re
from pathlib import Path
from typing import Any

from flask import Flask, url_for
from markupsafe import escape

from rulekb.kb.store import build_stamp, stamps_held
from rulekb.webapp.links import memo_url_for
from rulekb.webapp.views.search import marked_snippet

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search.search", {}),
    ("search.search", {"q": "на сколько дюймов чардж", "edition": "10"}),
    ("search.search", {"edition": "10", "q": "на сколько дюймов чардж"}),  # the order of the query is kept
    ("search.search", {"q": "овервотч", "edition": None}),
    ("rules.rule", {"node_id": "10e-core"}),
    ("terms.terms", {"page": 2}),
    ("concepts.concept", {"concept_id": "charge"}),
]


def test_remembered_urls_equal_flask_urls(app: Flask) -> None:
    for root in ("", "/rulekb"):
        for _ in range(2):  # the second round is read from the cache
            with app.test_request_context("/search", base_url=f"http://127.0.0.1{root}"):
                for endpoint, values in CALLS:
                    assert memo_url_for(endpoint, **values) == url_for(endpoint, **values)
                assert memo_url_for("rules.rule", node_id="x", _anchor="L3") == url_for("rules.rule", node_id="x", _anchor="L3")
    with app.test_request_context("/search", base_url="http://127.0.0.1/rulekb"):
        assert memo_url_for("search.search").startswith("/rulekb/")


def test_templates_build_urls_through_the_cache(app: Flask) -> None:
    assert app.jinja_env.globals["url_for"] is memo_url_for


def test_a_request_reads_its_build_stamp_once(tmp_path: Path) -> None:
    build = tmp_path / "build"
    build.mkdir()
    manifest = build / "manifest.json"
    manifest.write_text("{}", encoding="utf-8")
    os.utime(manifest, ns=(1_000_000_000, 1_000_000_000))
    with stamps_held():
        first = build_stamp(build)
        os.utime(manifest, ns=(2_000_000_000, 2_000_000_000))
        assert build_stamp(build) == first  # one request, one build
    assert build_stamp(build) == (first[0], 2_000_000_000)  # the next request sees the new one
    with stamps_held():
        assert build_stamp(build) == (first[0], 2_000_000_000)


def test_a_block_inside_another_keeps_its_stamps(tmp_path: Path) -> None:
    """An answer holds its build's stamp (rulekb.kb.ask.answer.ask); inside a web request it must keep the
    request's, not read the build afresh halfway through the request."""
    build = tmp_path / "build"
    build.mkdir()
    manifest = build / "manifest.json"
    manifest.write_text("{}", encoding="utf-8")
    os.utime(manifest, ns=(1_000_000_000, 1_000_000_000))
    with stamps_held():
        first = build_stamp(build)
        os.utime(manifest, ns=(2_000_000_000, 2_000_000_000))
        with stamps_held():
            assert build_stamp(build) == first
        assert build_stamp(build) == first  # the inner block's end does not drop the request's stamps
    assert build_stamp(build) == (first[0], 2_000_000_000)


def _plain_marked_snippet(snippet: str) -> str:
    """The snippet markup worked out piece by piece, as marked_snippet did before its fast path."""
    out: list[str] = []
    pos = 0
    for match in re.finditer(r"<b>(.*?)</b>", snippet, re.S):
        out.append(str(escape(html.unescape(snippet[pos : match.start()]))))
        out.append(f"<mark>{escape(html.unescape(match.group(1)))}</mark>")
        pos = match.end()
    out.append(str(escape(html.unescape(snippet[pos:]))))
    return "".join(out)


def test_marked_snippet_equals_the_plain_computation() -> None:
    pieces = ["<b>", "</b>", "&amp;", "&lt;b&gt;", "&", "<", ">", '"', "'", "чардж", "b", " ", "\n", "&#39;", "<i>"]
    rng = random.Random(13)
    for _ in range(20_000):
        snippet = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert str(marked_snippet(snippet)) == _plain_marked_snippet(snippet), snippet


def test_the_remembered_badge_is_the_macro(app: Flask) -> None:
    """webapp/fragments.py: the templates' ``badge`` returns what the ``badge`` macro renders, for
    every edition, an unknown code, markup-like text and no edition, the first time and again."""
    from rulekb.corpus.models import EDITIONS

    badge = app.jinja_env.globals["badge"]
    with app.test_request_context("/"):
        macro: Any = app.jinja_env.get_template("_macros.html").module
        for edition in [*EDITIONS, "zz", '<b>"x"</b>', None, 10]:
            assert str(badge(edition)) == str(macro.badge(edition)) == str(badge(edition)), edition
            assert "ed-" in str(badge(edition))


def test_a_held_stamp_serves_the_directory_it_resolved_to(tmp_path: Path) -> None:
    """Within a request the build is asked for by its link and by the directory the link resolves
    to; the second is read from the first (the same build, one read a request)."""
    real = tmp_path / "builds" / "one"
    real.mkdir(parents=True)
    manifest = real / "manifest.json"
    manifest.write_text("{}", encoding="utf-8")
    os.utime(manifest, ns=(1_000_000_000, 1_000_000_000))
    link = tmp_path / "build"
    link.symlink_to(real)
    with stamps_held():
        first = build_stamp(link)
        assert first == (Path(os.path.realpath(real)), 1_000_000_000)
        os.utime(manifest, ns=(2_000_000_000, 2_000_000_000))
        assert build_stamp(first[0]) == first  # held: not read again within the request
    assert build_stamp(first[0]) == (first[0], 2_000_000_000)  # the next request reads it afresh
