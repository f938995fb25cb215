"""The JSON API: the CLI contracts, errors as JSON, and an OpenAPI document that lists every route."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from rulekb.corpus.models import RuleNode
from rulekb.kb.build import read_manifest

HIT_FIELDS = {"node_id", "title", "edition", "source_id", "source_sha256", "lines", "page", "score", "snippet"}


def _check_hit(hit: dict[str, Any], shas: dict[str, str]) -> None:
    assert set(hit) >= HIT_FIELDS
    assert hit["source_sha256"] == shas[hit["source_id"]]
    assert len(hit["lines"]) == 2 and hit["lines"][0] <= hit["lines"][1]
    assert hit["edition"] in ("6", "7", "10", "kt")
    assert isinstance(hit["score"], int | float)


def test_api_ask_is_the_ask_contract_and_matches_kb_ask(client: FlaskClient, built: Path) -> None:
    from rulekb.kb.ask.answer import ask

    question = "проверка на боевой шок"
    data = client.get("/api/ask", query_string={"q": question, "limit": 3}).get_json()
    assert {"id", "question", "edition", "concepts", "answer", "hits"} <= set(data)
    expected = ask(question, limit=3, build_dir=built)
    assert [h["node_id"] for h in data["hits"]] == [h["node_id"] for h in expected["hits"]]
    assert data["answer"] == expected["answer"]
    shas = {s["id"]: s["sha256"] for s in read_manifest(built)["sources"]}
    assert data["hits"], "a battle-shock question has hits"
    for hit in data["hits"]:
        _check_hit(hit, shas)


def test_api_search_filters_by_edition(client: FlaskClient, built: Path) -> None:
    data = client.get("/api/search", query_string={"q": "атака", "edition": "kt", "limit": 4}).get_json()
    shas = {s["id"]: s["sha256"] for s in read_manifest(built)["sources"]}
    assert 0 < len(data["hits"]) <= 4
    for hit in data["hits"]:
        _check_hit(hit, shas)
        assert hit["edition"] == "kt"


def test_api_bad_parameters_are_json_400s(client: FlaskClient) -> None:
    for query in ({}, {"q": ""}, {"q": "x", "limit": "0"}, {"q": "x", "limit": "many"}, {"q": "x", "edition": "5"}):
        response = client.get("/api/ask", query_string=query)
        assert response.status_code == 400, query
        assert response.is_json and response.get_json()["error"]


def test_api_rule_has_the_node_contract_and_neighbours(client: FlaskClient, leaf_at: Any, built: Path) -> None:
    node: RuleNode = leaf_at("6e-assault", 75)
    data = client.get(f"/api/rules/{node.id}").get_json()
    contract = {"id", "source_id", "source_sha256", "edition", "kind", "title", "parent_id", "lines", "page"}
    assert contract <= set(data["node"])
    assert data["node"]["id"] == node.id and data["node"]["lines"] == list(node.lines)
    assert data["parent"]["id"] == node.parent_id
    assert [b["id"] for b in data["breadcrumb"]][-1] == node.parent_id
    assert data["previous"]["lines"][0] <= node.lines[0] <= data["next"]["lines"][0]
    assert data["citation"]["permalink"].endswith(f"/rules/{node.id}")


def test_api_terms_is_the_build_terms_json(client: FlaskClient, built: Path) -> None:
    data = client.get("/api/terms").get_json()
    assert data == json.loads((built / "terms.json").read_text(encoding="utf-8"))
    assert {"concept", "english", "category", "definition", "aliases", "renderings"} <= set(data[0])


def test_api_concepts_match_concepts_json(client: FlaskClient, built: Path) -> None:
    data = {c["concept"]: c for c in client.get("/api/concepts").get_json()}
    built_concepts = json.loads((built / "concepts.json").read_text(encoding="utf-8"))
    assert set(data) >= {c["concept"] for c in built_concepts}
    sample = next(c for c in built_concepts if c["nodes"])
    assert [n["node_id"] for n in data[sample["concept"]]["nodes"]] == [n["node_id"] for n in sample["nodes"]]
    one = client.get(f"/api/concepts/{sample['concept']}").get_json()
    assert one["concept"] == sample["concept"]
    assert client.get("/api/concepts/no-such-concept").status_code == 404


def test_api_sources(client: FlaskClient, built: Path) -> None:
    data = client.get("/api/sources").get_json()
    assert [s["id"] for s in data["sources"]] == [s["id"] for s in read_manifest(built)["sources"]]


def _api_rules(app: Flask) -> dict[str, set[str]]:
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
            routes.setdefault(path, set()).update(m.lower() for m in rule.methods or () if m not in ("HEAD", "OPTIONS"))
    return routes


def test_openapi_lists_every_api_route_and_method(client: FlaskClient, app: Flask) -> None:
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    documented = {path: set(ops) for path, ops in doc["paths"].items()}
    assert documented == _api_rules(app)
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op["summary"] and "200" in op["responses"], (path, method)
            for parameter in op.get("parameters", []):
                if parameter["in"] == "path":
                    assert "{" + parameter["name"] + "}" in path


def test_openapi_refs_resolve(client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").get_json()
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([A-Za-z]+)"', json.dumps(doc)))
    assert refs and refs <= set(doc["components"]["schemas"])
