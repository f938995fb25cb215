"""The search page's parts rendered once per worker: a hit's title, badge and breadcrumb."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from rulekb.webapp.data import edition_label

HIT = re.compile(r'<li class="hit">\s*(<a class="hit-title" href="/rules/([^"]+)">.*?</div>)', re.S)


def test_each_hit_shows_its_rule_title_badge_and_breadcrumb_rendered_once_per_rule(app: Flask, client: FlaskClient) -> None:
    import rulekb.webapp.views.search as search
    from rulekb.webapp.views.common import current_build

    first = HIT.findall(client.get("/search?q=дальность чарджа").get_data(as_text=True))
    assert len(first) >= 5
    with app.test_request_context():
        build = current_build()
    for head, node_id in first:
        node = build.nodes[html.unescape(node_id)]
        assert f">{html.escape(node.title_clean or node.title, quote=False)}</a>" in head
        assert f'<span class="badge ed-{node.edition}">{edition_label(node.edition)}</span>' in head
        assert f'<span class="crumbs">{html.escape(build.breadcrumb(node), quote=False)}</span>' in head
    kept = {key[1] for key in search._HEAD_CACHE}
    assert {html.unescape(n) for _, n in first} <= kept
    # another question showing some of the same rules: the same markup, from the worker's cache
    second = dict((n, h) for h, n in HIT.findall(client.get("/search?q=чардж на 12 дюймов").get_data(as_text=True)))
    shared = set(second) & {n for _, n in first}
    assert shared and all(second[n] == dict((n2, h) for h, n2 in first)[n] for n in shared)
    assert len(search._HEAD_CACHE) <= search.HEAD_CACHE_SIZE
