"""The typed contracts: real outputs validate against the models of rulekb.kb.contracts and carry no field
the models do not declare; the CLI and the API print the same fields; the OpenAPI document's
schemas are the models' JSON Schema."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from pydantic import BaseModel, ValidationError

from rulekb.engine import limits
from rulekb.kb import contracts
from rulekb.kb.contracts.calc import calc_json
from rulekb.webapp.commands.search import search as search_command
from rulekb.webapp.views.openapi import MODELS

DEV = Path(__file__).resolve().parents[1] / "data" / "dev.jsonl"


def undeclared(value: Any, path: str = "") -> set[str]:
    """Paths of the fields a validated model holds without declaring them (``extra="allow"``)."""
    out: set[str] = set()
    if isinstance(value, BaseModel):
        out |= {f"{path}.{name}" for name in value.model_extra or {}}
        for name in type(value).model_fields:
            out |= undeclared(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, list | tuple):
        for item in value:
            out |= undeclared(item, f"{path}[]")
    return out


def _check(model: type[BaseModel], data: Any) -> None:
    parsed = model.model_validate(data)
    assert undeclared(parsed) == set(), f"{model.__name__}: fields the model does not declare"
    assert contracts.dump(model, data) == data


def test_ask_batch_output_is_the_ask_model(built: Path) -> None:
    from rulekb.kb.ask.answer import ask_batch

    rows = [json.loads(line) for line in islice(DEV.read_text(encoding="utf-8").splitlines(), 30)]
    results = list(ask_batch(iter(rows), build_dir=built))
    assert len(results) == len(rows)
    kinds = set()
    for result in results:
        _check(contracts.Ask, result)
        card = contracts.Ask.model_validate(result).card
        assert card is not None
        kinds.add(card.kind)
    assert "ruling" in kinds


def test_cli_search_and_api_search_carry_the_same_fields(client: FlaskClient, built: Path) -> None:
    query = "дальность чарджа"
    printed = CliRunner().invoke(search_command, [query, "--json", "--limit", "3", "--build-dir", str(built)])
    assert printed.exit_code == 0, printed.output
    cli = json.loads(printed.output)
    api = client.get("/api/search", query_string={"q": query, "limit": 3}).get_json()
    assert set(cli) == set(api) == set(contracts.SearchResult.model_fields)
    assert cli["query"] == cli["question"] == api["query"] == api["question"] == query
    assert [h["node_id"] for h in cli["hits"]] == [h["node_id"] for h in api["hits"]]
    assert cli["concepts"] == api["concepts"]
    _check(contracts.SearchResult, cli)
    _check(contracts.SearchResult, api)


@pytest.mark.parametrize(
    ("route", "model", "many"),
    [
        ("/api/concepts", contracts.Concept, True),
        ("/api/concepts/overwatch", contracts.Concept, False),
        ("/api/terms", contracts.Term, True),
        ("/api/sources", contracts.Sources, False),
        ("/api/calc?attacks=2&bs=3&s=4&t=4&sv=3", contracts.AttackResult, False),
        ("/api/ask?q=дальность+чарджа", contracts.Ask, False),
    ],
)
def test_api_routes_serve_their_models(client: FlaskClient, route: str, model: type[BaseModel], many: bool) -> None:
    response = client.get(route)
    assert response.status_code == 200
    data = response.get_json()
    for item in data if many else [data]:
        _check(model, item)


def test_api_rule_is_the_rule_page_model(client: FlaskClient, nodes: list[Any]) -> None:
    for node in nodes[:: max(len(nodes) // 12, 1)]:
        data = client.get(f"/api/rules/{node.id}").get_json()
        _check(contracts.RulePage, data)
        assert data["node"]["id"] == node.id


def test_calc_contract_covers_a_roll_test() -> None:
    from rulekb.engine.calc import calculate

    result = calculate({"edition": "6", "test": {"kind": "leadership", "leadership": 8}})
    _check(contracts.TestResult, result)
    assert calc_json(result) == result


def test_dump_rejects_a_broken_contract_and_keeps_the_given_order() -> None:
    hit = {
        "snippet": "…", "node_id": "x", "title": "t", "heading": "h", "breadcrumb": [], "edition": "10",
        "source_id": "10e-core", "source_sha256": "0" * 64, "lines": [3, 4], "page": None, "kind": "rule",
        "score": 1.5,
    }
    assert list(contracts.dump(contracts.Hit, hit)) == list(hit)
    with pytest.raises(ValidationError, match="lines"):
        contracts.dump(contracts.Hit, {**hit, "lines": [3]})
    with pytest.raises(ValidationError, match="edition"):
        contracts.dump(contracts.Hit, {**hit, "edition": "5"})
    with pytest.raises(ValidationError, match="node_id"):
        contracts.dump(contracts.Hit, {k: v for k, v in hit.items() if k != "node_id"})


def test_openapi_schemas_are_generated_from_the_models(client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    for model in MODELS:
        own = model.model_json_schema(ref_template="#/components/schemas/{model}")
        own.pop("$defs", None)
        assert schemas[model.__name__] == own, model.__name__
    hit = schemas["Hit"]
    assert set(hit["required"]) >= {"node_id", "source_sha256", "lines", "score", "snippet"}
    ok = doc["paths"]["/api/search"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/SearchResult"}


def test_openapi_keeps_the_stated_limits(client: FlaskClient, app: Any) -> None:
    doc = client.get("/api/openapi.json").get_json()
    for method in ("get", "post"):
        op = doc["paths"]["/api/calc"][method]
        assert op["x-limits"] == dict(limits.LIMITS)
        assert f"{limits.WORK_MAX:,}" in op["description"]
        assert {"400", "413", "503"} <= set(op["responses"])
    limit = next(p for p in doc["paths"]["/api/ask"]["get"]["parameters"] if p["name"] == "limit")
    assert limit["schema"]["maximum"] == app.config["API_MAX_LIMIT"]


def test_citation_label_is_built_in_one_place(app: Any) -> None:
    from rulekb.kb.contracts.cite import citation_label, lines_label

    assert lines_label((7, 7)) == "строка 7"
    assert lines_label([7, 9]) == "строки 7–9"
    assert lines_label((7, 9), lang="en") == "lines 7–9"
    assert citation_label("Книга", (13, 15), 58) == "Книга, с. 58, строки 13–15"
    assert citation_label("", (13, 13)) == "строка 13"
    with app.test_request_context():
        from flask import render_template_string

        shown = render_template_string(
            '{% from "_macros.html" import cite_label %}[{{ cite_label("10e-core", [5, 8], 12) }}]'
        )
    assert shown == f"[{citation_label('10e-core', (5, 8), 12)}]"


def test_errors_are_the_error_model(client: FlaskClient) -> None:
    response = client.get("/api/rules/10e-core/faza-ryvk")
    assert response.status_code == 404
    data = response.get_json()
    _check(contracts.Error, data)
    assert data["suggestions"] and all(s["href"].startswith("/rules/") for s in data["suggestions"])
    bad = client.get("/api/ask", query_string={"q": "x", "limit": "0"})
    assert bad.status_code == 400
    _check(contracts.Error, bad.get_json())
