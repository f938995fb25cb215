"""Concept pages: each edition's defining rules side by side, the engine's comparison, renderings."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

from flask.testing import FlaskClient

from rulekb.webapp.render import percent


def test_concept_index_lists_every_termbase_concept(client: FlaskClient, built: Path) -> None:
    html = client.get("/concepts").get_data(as_text=True)
    concepts = json.loads((built / "terms.json").read_text(encoding="utf-8"))
    for concept in concepts:
        assert f'href="/concepts/{concept["concept"]}"' in html


def test_concept_page_shows_the_graph_comparison_per_edition(client: FlaskClient, built: Path) -> None:
    from rulekb.kb.graph.queries import load_graph

    compared = load_graph(built).compare("overwatch")
    html = client.get("/concepts/overwatch").get_data(as_text=True)
    columns = html.split('class="edition-col card"')[1:]
    assert len(columns) == 4  # 6, 7, Kill Team, 10: stacked on a phone, side by side when wide
    by_edition = {group["edition"]: [p["node_id"] for p in group["passages"]] for group in compared["editions"]}
    labels = ["6", "7", "kt", "10"]
    for edition, column in zip(labels, columns, strict=True):
        shown = re.findall(r'<h4><a href="/rules/([^"]+)">', column)
        if by_edition.get(edition):
            assert shown == by_edition[edition][:3], edition
    assert by_edition.get("6") and by_edition.get("10"), "overwatch is defined in the 6th and the 10th edition"


def test_leadership_comparison_is_the_engines_exact_table(client: FlaskClient) -> None:
    from rulekb.engine.compare import leadership_table

    html = client.get("/concepts/leadership").get_data(as_text=True)
    table = html.split('class="numbers"')[1].split("</table>")[0]
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', table)
    expected = {row["ld"]: (Fraction(row["6"]), Fraction(row["10"])) for row in leadership_table()}
    assert {int(ld) for ld, _ in rows} == set(expected)
    for ld, cells in rows:
        exact = re.findall(r'title="([^"]+)"', cells)
        assert [Fraction(x) for x in exact] == list(expected[int(ld)])
        assert percent(expected[int(ld)][0]) in cells


def test_concept_page_lists_renderings_per_book_with_status(client: FlaskClient, built: Path) -> None:
    terms = {t["concept"]: t for t in json.loads((built / "terms.json").read_text(encoding="utf-8"))}
    hit_roll = terms["hit-roll"]
    html = client.get("/concepts/hit-roll").get_data(as_text=True)
    section = html.split('aria-label="Переводы"')[1]
    for rendering in hit_roll["renderings"]:
        assert f"«{rendering['text']}»" in section
        assert f'class="status-{rendering["status"]}"' in section


def test_unknown_concept_is_a_404_with_close_concepts(client: FlaskClient) -> None:
    response = client.get("/concepts/overwach")
    assert response.status_code == 404
    assert 'href="/concepts/overwatch"' in response.get_data(as_text=True)


def test_rule_page_links_the_same_concept_in_other_editions(client: FlaskClient, built: Path) -> None:
    from rulekb.kb.graph.queries import load_graph

    graph = load_graph(built)
    node_id = next(n for n in graph.defining("overwatch") if graph.neighbours(n)["same_concept"])
    others = [s["node_id"] for s in graph.neighbours(node_id)["same_concept"]]
    html = client.get(f"/rules/{node_id}").get_data(as_text=True)
    section = html.split('aria-label="В других редакциях"')[1].split("</section>")[0]
    for other in others:
        assert f'href="/rules/{other}"' in section
    assert 'class="term-link"' in html  # terms in the text are linked to their concepts


def test_printed_references_link_to_the_rule_they_resolve_to(client: FlaskClient, built: Path) -> None:
    from rulekb.kb.graph.queries import load_graph

    graph = load_graph(built)
    found = 0
    for ref in graph.references:
        if not ref["targets"]:
            continue
        html = client.get(f"/rules/{ref['node_id']}").get_data(as_text=True)
        links = re.findall(r'<a class="xref" href="/rules/([^"]+)">', html)
        assert set(links) <= {t for r in graph.references if r["node_id"] == ref["node_id"] for t in r["targets"]}
        section = html.split('aria-label="Ссылки"')[1].split("</section>")[0]
        assert f'href="/rules/{ref["targets"][0]}"' in section
        found += bool(links)
        target = client.get(f"/rules/{ref['targets'][0]}").get_data(as_text=True)
        assert f'href="/rules/{ref["node_id"]}"' in target.split('aria-label="Ссылки"')[1]  # referred by
    assert found >= 5, "most resolved references are linked in the text itself"
