"""The OpenAPI 3.1 description of ``/api/``: the paths, parameters and limits written here, every
schema generated from the contract models of :mod:`rulekb.kb.contracts` (pydantic's JSON Schema), so the
document cannot drift from what the routes serialise (a test checks it lists every route)."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from rulekb.corpus.models import EDITIONS
from rulekb.engine import limits
from rulekb.kb import contracts
from rulekb.webapp.views.calc import FIELDS

__all__ = ["document", "schemas"]

_REF = "#/components/schemas/{model}"
#: The contract models the document describes; each is a component schema under its own name.
MODELS: tuple[type[BaseModel], ...] = (
    contracts.Error, contracts.Hit, contracts.Node, contracts.NodeDetail, contracts.Concept, contracts.Term,
    contracts.SearchResult, contracts.Ask, contracts.RulePage, contracts.Sources, contracts.AttackResult,
    contracts.TestResult, contracts.Example,
)


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


@cache
def schemas() -> dict[str, Any]:
    """Every component schema, generated from :data:`MODELS` (and the models they use)."""
    _, top = models_json_schema([(m, "validation") for m in MODELS], ref_template=_REF)
    defs: dict[str, Any] = top.get("$defs", {})
    return defs


_ERROR = _ref(contracts.Error)


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    text = {
        400: "A parameter is missing or invalid.",
        404: "Unknown id; the message suggests close ones.",
        503: "The knowledge base is not built: run `rulekb build`.",
    }
    return {str(code): _json(_ERROR, text[code]) for code in codes}


def _calc_limits() -> tuple[str, dict[str, Any]]:
    """The engine's limits (engine/limits.py) as the calculator routes state them, and their 4xx/503 answers."""
    text = (
        f" Limits, checked before any work (a 400 names the field, the limit and why): dice of at most "
        f"{limits.DICE_COUNT_MAX} dice of at most {limits.DICE_SIDES_MAX} sides, a multiplier up to "
        f"{limits.DICE_MULTIPLIER_MAX}, values and `+N` up to {limits.DICE_VALUE_MAX}; up to "
        f"{limits.ATTACKERS_MAX} attacking models, {limits.MODELS_MAX} target models of up to {limits.WOUNDS_MAX} "
        f"wounds; up to {limits.ATTACKS_MAX} attacks and {limits.HITS_MAX} hits in all; and at most "
        f"{limits.WORK_MAX:,} estimated steps of exact arithmetic (many attacks with Sustained Hits, single "
        "re-rolls, Feel No Pain or large units add up). A calculation running past the time budget "
        "(`CALC_TIME_BUDGET`) is stopped with a 503. Bodies: JSON objects of at most 8 levels, valid Unicode "
        "(no lone surrogates), at most `MAX_CONTENT_LENGTH` bytes (413)."
    )
    errors = {
        **_errors(400),
        "413": _json(_ERROR, "The body is larger than the server accepts."),
        "503": _json(_ERROR, "The calculation ran past its time budget and was stopped."),
    }
    return text, {"x-limits": dict(limits.LIMITS), "errors": errors}


def _query(name: str, description: str, schema: dict[str, Any], required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


def _path(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": {"type": "string"}}


EDITION = {"type": "string", "enum": list(EDITIONS)}


def _calc_parameters() -> list[dict[str, Any]]:
    return [
        _query(f.name, f.help, {"type": "string" if f.kind in ("dice", "choice") else f.kind, **f.schema_extra()})
        for f in FIELDS
    ]


def _search_paths(max_limit: int) -> dict[str, Any]:
    """``/api/ask`` and ``/api/search``: a question, an edition and a number of hits."""
    q = _query("q", "The question, in Russian, English or slang (at most 500 characters).", {"type": "string"}, True)
    edition = _query("edition", "Only this edition (empty: all).", EDITION)
    limit = _query("limit", "How many hits.", {"type": "integer", "minimum": 1, "maximum": max_limit, "default": 5})
    return {
        "/api/ask": {
            "get": {
                "summary": "Answer a question: the answer sentence, FAQ entry, concepts and cited hits.",
                "parameters": [q, edition, limit],
                "responses": {"200": _json(_ref(contracts.Ask), "The ask object."), **_errors(400, 503)},
            }
        },
        "/api/search": {
            "get": {
                "summary": "Ranked rule passages for a query.",
                "parameters": [q, edition, limit],
                "responses": {
                    "200": _json(_ref(contracts.SearchResult), "Hits, best first."),
                    **_errors(400, 503),
                },
            }
        },
    }


def _browse_paths() -> dict[str, Any]:
    """The rule, concept, termbase and source routes."""
    return {
        "/api/rules/{node_id}": {
            "get": {
                "summary": "One rule node with its citation, breadcrumb, parent, children and neighbours.",
                "parameters": [_path("node_id", "A node id such as `6e-assault/...` (slashes allowed).")],
                "responses": {
                    "200": _json(_ref(contracts.RulePage), "The node and its neighbours."),
                    **_errors(404, 503),
                },
            }
        },
        "/api/concepts": {
            "get": {
                "summary": "Every concept with the rules that define or mention it.",
                "responses": {
                    "200": _json({"type": "array", "items": _ref(contracts.Concept)}, "Concepts."),
                    **_errors(503),
                },
            }
        },
        "/api/concepts/{concept_id}": {
            "get": {
                "summary": "One concept: termbase entry, rules per edition, engine comparisons.",
                "parameters": [_path("concept_id", "An English concept id such as `overwatch`.")],
                "responses": {"200": _json(_ref(contracts.Concept), "The concept."), **_errors(404, 503)},
            }
        },
        "/api/terms": {
            "get": {
                "summary": "The termbase: renderings per book with status, count and lines.",
                "responses": {
                    "200": _json({"type": "array", "items": _ref(contracts.Term)}, "Every concept of the termbase."),
                    **_errors(503),
                },
            }
        },
        "/api/sources": {
            "get": {
                "summary": "The books: edition, translation, credits, hashes, node counts, parse issues.",
                "responses": {"200": _json(_ref(contracts.Sources), "Sources and issues."), **_errors(503)},
            }
        },
    }


def _calc_paths() -> dict[str, Any]:
    """``/api/calc`` by GET (the page's parameters) and by POST (a profile), with the engine's limits."""
    calc = {"oneOf": [_ref(contracts.AttackResult), _ref(contracts.TestResult)]}
    limits_text, limits_extra = _calc_limits()
    return {
        "/api/calc": {
            "get": {
                "summary": "The attack calculator with the same parameters as the /calc page.",
                "description": "GET with the page's parameters." + limits_text,
                "x-limits": limits_extra["x-limits"],
                "parameters": _calc_parameters(),
                "responses": {"200": _json(calc, "Expected values and exact distributions."),
                              **limits_extra["errors"]},
            },
            "post": {
                "summary": "The attack calculator on a profile posted as JSON (the `rulekb calc --json` input).",
                "description": "POST the profile object." + limits_text,
                "x-limits": limits_extra["x-limits"],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"200": _json(calc, "Expected values and exact distributions."),
                              **limits_extra["errors"]},
            },
        },
    }


def document(max_limit: int) -> dict[str, Any]:
    """The OpenAPI document (the ``limit`` bound comes from the app's config)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "rulekb API",
            "version": "1",
            "description": (
                "Read-only JSON over the built rules knowledge base: the same objects as the `rulekb` "
                "command line (`ask --json`, `nodes --json`, `terms --json`, `concepts --json`, `calc --json`). "
                "GET routes send `Access-Control-Allow-Origin: *`."
            ),
        },
        "paths": {
            **_search_paths(max_limit),
            **_browse_paths(),
            **_calc_paths(),
            "/api/openapi.json": {
                "get": {
                    "summary": "This document.",
                    "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")},
                }
            },
        },
        "components": {"schemas": schemas()},
    }
