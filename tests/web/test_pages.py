"""The pages over a real build: search, rule, sources, about, redirects, 404s and bad input."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from rulekb.corpus.models import RuleNode
from rulekb.kb.build import read_manifest


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _without_tips(html: str) -> str:
    return re.sub(r'<span class="term-tip".*?</span></span>', "", html, flags=re.S)


def _visible(html: str) -> str:
    """The text a reader sees: tooltips dropped, inline tags removed without adding spaces."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", _without_tips(html)))


def test_home_has_one_search_box_with_an_edition_filter(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert html.count('type="search"') == 1
    assert '<select name="edition"' in html
    for code in ("6", "7", "10", "kt"):
        assert f'<option value="{code}"' in html


def test_search_shows_the_hits_of_kb_ask_with_citations(client: FlaskClient, app: Any, built: Any) -> None:
    from rulekb.kb.ask.answer import ask

    question = "проверка на боевой шок"
    expected = ask(question, limit=app.config["SEARCH_LIMIT"], build_dir=built)
    html = client.get("/search", query_string={"q": question}).get_data(as_text=True)
    shown = re.findall(r'<a class="hit-title" href="/rules/([^"]+)"', html)
    assert shown == [h["node_id"] for h in expected["hits"]]
    assert shown, "the battle-shock question finds rules"
    assert html.count('class="cite"') == len(shown)
    assert "<mark>" in html  # query words highlighted in the snippets
    assert re.search(r"строк[аи] \d+", html)


def test_search_with_edition_filter_only_shows_that_edition(client: FlaskClient) -> None:
    html = client.get("/search", query_string={"q": "атака", "edition": "6"}).get_data(as_text=True)
    badges = re.findall(r'<div class="hit-meta"><span class="badge ed-([a-z0-9]+)"', html)
    assert badges and set(badges) == {"6"}


def test_search_without_results_is_helpful(client: FlaskClient) -> None:
    html = client.get("/search", query_string={"q": "рецепт борща со сметаной"}).get_data(as_text=True)
    assert "Ничего не нашлось" in html
    assert 'href="/concepts"' in html


def test_a_too_long_question_gets_a_clear_400(client: FlaskClient) -> None:
    response = client.get("/search", query_string={"q": "рывок " * 200})
    assert response.status_code == 400
    assert "слишком длинный" in response.get_data(as_text=True)
    api = client.get("/api/ask", query_string={"q": "рывок " * 200})
    assert api.status_code == 400 and "500" in api.get_json()["error"]


def test_an_unknown_edition_is_explained_not_fatal(client: FlaskClient) -> None:
    response = client.get("/search", query_string={"q": "рывок", "edition": "9"})
    assert response.status_code == 200
    assert "Неизвестная редакция" in response.get_data(as_text=True)
    assert client.get("/api/ask", query_string={"q": "рывок", "edition": "9"}).status_code == 400


def test_rule_page_cites_book_lines_and_permalink(client: FlaskClient, leaf_at: Any, built: Any) -> None:
    node: RuleNode = leaf_at("10e-core", 317)
    html = client.get(f"/rules/{node.id}").get_data(as_text=True)
    text = _text(html)
    source = next(s for s in read_manifest(built)["sources"] if s["id"] == "10e-core")
    assert source["title"] in text
    assert f"строки {node.lines[0]}–{node.lines[1]}" in text
    assert f'value="http://rulekb.test/rules/{node.id}"' in html  # the permalink is absolute
    assert "2D6" in text
    assert "<li>" in html  # the «•» lines render as a list


def test_rule_page_breadcrumbs_and_neighbours(client: FlaskClient, leaf_at: Any, nodes: list[RuleNode]) -> None:
    node: RuleNode = leaf_at("6e-assault", 75)
    html = client.get(f"/rules/{node.id}").get_data(as_text=True)
    by_id = {n.id: n for n in nodes}
    crumbs = re.findall(r'<li><a href="/rules/([^"]+)">', html.split('class="crumbs"')[1].split("</nav>")[0])
    assert crumbs[0] == "6e-assault"
    assert crumbs[-1] == node.parent_id
    for crumb in crumbs:
        assert crumb in by_id
    prev = re.search(r'rel="prev" href="/rules/([^"]+)"', html)
    nxt = re.search(r'rel="next" href="/rules/([^"]+)"', html)
    assert prev and nxt
    before, after = by_id[prev.group(1)], by_id[nxt.group(1)]
    assert before.source_id == after.source_id == node.source_id
    assert before.lines[0] <= node.lines[0] <= after.lines[0]


def test_footnote_stars_and_dashes_in_kill_team_render_as_text_and_list(client: FlaskClient, leaf_at: Any) -> None:
    node: RuleNode = leaf_at("kt", 33)
    html = client.get(f"/rules/{node.id}").get_data(as_text=True)
    body = html.split('<div class="text">')[1].split("</div>")[0]
    assert "знамя* (banner)" in _visible(body)
    assert "<em>" not in _without_tips(body)  # the two stars do not become emphasis
    assert body.count("<li>") >= 4


def test_heading_page_shows_its_children(client: FlaskClient, leaf_at: Any) -> None:
    node: RuleNode = leaf_at("10e-core", 317)
    html = client.get(f"/rules/{node.parent_id}").get_data(as_text=True)
    assert f'href="/rules/{node.id}"' in html
    assert "2D6" in html  # leaf children are shown with their text


def test_citation_links_redirect_to_the_leaf(client: FlaskClient, leaf_at: Any) -> None:
    node: RuleNode = leaf_at("7e-pp58-67", 154)
    response = client.get("/cite/7e-pp58-67/154")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/rules/{node.id}#L154")
    assert client.get("/cite/7e-pp58-67/99999").status_code == 404


def test_unknown_rule_is_a_404_with_suggestions(client: FlaskClient, leaf_at: Any) -> None:
    node: RuleNode = leaf_at("10e-core", 317)
    typo = node.id[:-2]
    response = client.get(f"/rules/{typo}")
    assert response.status_code == 404
    assert f'href="/rules/{node.id}"' in response.get_data(as_text=True)
    api = client.get(f"/api/rules/{typo}")
    assert api.status_code == 404
    assert node.id in [s["id"] for s in api.get_json()["suggestions"]]


def test_sources_page_lists_every_book_with_counts_and_issues(client: FlaskClient, built: Any) -> None:
    html = client.get("/sources").get_data(as_text=True)
    manifest = read_manifest(built)
    for source in manifest["sources"]:
        assert source["sha256"] in html
        assert source["title"] in html
        assert f"Замечания разбора: {source['parse_issues']}" in html


def test_about_page_credits_the_translators(client: FlaskClient, built: Any) -> None:
    text = _text(client.get("/about").get_data(as_text=True))
    for source in read_manifest(built)["sources"]:
        assert source["credits"] in text


def test_answers_and_pages_are_cached_per_build(client: FlaskClient, app: Any, monkeypatch: Any) -> None:
    import rulekb.kb.ask.answer
    from rulekb.webapp.data import get_build

    calls: list[str] = []
    real = rulekb.kb.ask.answer.ask

    def counting(question: str, **kwargs: Any) -> Any:
        calls.append(question)
        return real(question, **kwargs)

    monkeypatch.setattr(rulekb.kb.ask.answer, "ask", counting)
    question = "сколько дюймов отступает отряд при отходе из ближнего боя"
    first = client.get("/search", query_string={"q": question}).get_data(as_text=True)
    assert client.get("/search", query_string={"q": question}).get_data(as_text=True) == first
    assert client.get("/api/ask", query_string={"q": question, "limit": 10}).status_code == 200
    assert calls == [question]  # the page, the same page again and the API share one answer
    build = get_build(app.config["BUILD_DIR"])
    monkeypatch.setattr(build, "stamp", build.stamp + 1)  # what a rebuild looks like to the cache
    client.get("/search", query_string={"q": question})
    assert calls == [question, question]


def test_did_you_mean_links_to_the_corrected_question(client: FlaskClient, built: Any) -> None:
    from urllib.parse import quote_plus

    from rulekb.kb.ask.answer import ask

    typo = "зщона поражения"
    corrected = ask(typo, build_dir=built)["did_you_mean"]
    assert corrected and corrected != typo
    html = client.get("/search", query_string={"q": typo}).get_data(as_text=True)
    dym = html.split('<p class="dym">')[1].split("</p>")[0]
    assert f'href="/search?q={quote_plus(corrected)}"' in dym.replace("%20", "+")
    assert f">{corrected}</a>" in dym


def test_a_build_without_its_search_index_says_to_rebuild(built: Any, tmp_path: Any) -> None:
    import shutil

    from rulekb.webapp import create_app

    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    shutil.rmtree(copy / "index")
    client = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": False}).test_client()
    page = client.get("/search", query_string={"q": "рывок"})
    assert page.status_code == 503 and "rulekb build" in page.get_data(as_text=True)
    assert client.get("/api/search", query_string={"q": "рывок"}).status_code == 503
    assert client.get("/sources").status_code == 200  # what the build has is still served
