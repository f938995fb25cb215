"""The OpenAPI 3.1 description of ``/api/``, written by hand (a test checks it lists every route)."""

from __future__ import annotations

from typing import Any

__all__ = ["document"]

_ERROR = {"$ref": "#/components/schemas/Error"}


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
    from engine import limits

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


EDITION = {"type": "string", "enum": ["6", "7", "10", "kt"]}


def _calc_parameters() -> list[dict[str, Any]]:
    from webapp.views.calc import FIELDS

    return [
        _query(f.name, f.help, {"type": "string" if f.kind in ("dice", "choice") else f.kind, **f.schema_extra()})
        for f in FIELDS
    ]


def document(max_limit: int) -> dict[str, Any]:
    """The OpenAPI document (the ``limit`` bound comes from the app's config)."""
    q = _query("q", "The question, in Russian, English or slang (at most 500 characters).", {"type": "string"}, True)
    edition = _query("edition", "Only this edition (empty: all).", EDITION)
    limit = _query("limit", "How many hits.", {"type": "integer", "minimum": 1, "maximum": max_limit, "default": 5})
    hit = {
        "type": "object",
        "required": ["node_id", "title", "edition", "source_id", "source_sha256", "lines", "page", "score", "snippet"],
        "properties": {
            "node_id": {"type": "string"},
            "title": {"type": "string"},
            "edition": EDITION,
            "source_id": {"type": "string"},
            "source_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "lines": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "page": {"type": ["integer", "null"]},
            "score": {"type": "number"},
            "snippet": {"type": "string"},
        },
    }
    ask = {
        "type": "object",
        "required": ["id", "question", "edition", "concepts", "answer", "hits"],
        "properties": {
            "id": {"type": ["string", "null"]},
            "question": {"type": "string"},
            "edition": {"oneOf": [EDITION, {"type": "null"}]},
            "concepts": {"type": "array", "items": {"type": "string"}},
            "answer": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["text", "node_id"],
                        "properties": {"text": {"type": "string"}, "node_id": {"type": "string"}},
                    },
                    {"type": "null"},
                ]
            },
            "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
            "faq": {"type": ["object", "null"]},
            "other_editions": {"type": "array", "items": {"type": "object"}},
            "did_you_mean": {"type": ["string", "null"]},
        },
    }
    node = {
        "type": "object",
        "required": ["id", "source_id", "source_sha256", "edition", "kind", "title", "parent_id", "lines", "page"],
        "properties": {
            "id": {"type": "string"},
            "source_id": {"type": "string"},
            "source_sha256": {"type": "string"},
            "edition": EDITION,
            "kind": {"type": "string"},
            "title": {"type": "string"},
            "parent_id": {"type": ["string", "null"]},
            "lines": {"type": "array", "items": {"type": "integer"}},
            "page": {"type": ["integer", "null"]},
            "text": {"type": "string"},
        },
    }
    term = {
        "type": "object",
        "required": ["concept", "english", "category", "definition", "aliases", "renderings"],
        "properties": {
            "concept": {"type": "string"},
            "english": {"type": "string"},
            "category": {"type": "string"},
            "definition": {"type": "string"},
            "aliases": {"type": "array", "items": {"type": "string"}},
            "renderings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "source_id": {"type": "string"},
                        "source_sha256": {"type": "string"},
                        "text": {"type": "string"},
                        "status": {"type": "string", "enum": ["preferred", "admitted", "deprecated", "mistranslation"]},
                        "count": {"type": "integer"},
                        "lines": {"type": "array", "items": {"type": "integer"}},
                    },
                },
            },
        },
    }
    concept = {
        "type": "object",
        "required": ["concept", "nodes"],
        "properties": {
            "concept": {"type": "string"},
            "english": {"type": "string"},
            "category": {"type": "string"},
            "nodes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "node_id": {"type": "string"},
                        "source_id": {"type": "string"},
                        "source_sha256": {"type": "string"},
                        "edition": EDITION,
                        "lines": {"type": "array", "items": {"type": "integer"}},
                        "role": {"type": "string", "enum": ["defines", "mentions"]},
                    },
                },
            },
            "comparisons": {"type": "array", "items": {"type": "object"}},
        },
    }
    fraction = {"type": "string", "description": "An exact probability as a fraction, e.g. \"25/36\"."}
    calc = {
        "type": "object",
        "required": ["edition", "expected", "distributions"],
        "properties": {
            "edition": {"type": "string"},
            "expected": {"type": "object", "additionalProperties": {"type": ["number", "string"]}},
            "distributions": {
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": "array", "prefixItems": [{"type": "integer"}, fraction]},
                },
            },
            "steps": {"type": "array"},
        },
    }
    limits_text, limits_extra = _calc_limits()
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
            "/api/ask": {
                "get": {
                    "summary": "Answer a question: the answer sentence, FAQ entry, concepts and cited hits.",
                    "parameters": [q, edition, limit],
                    "responses": {"200": _json(ask, "The ask object."), **_errors(400, 503)},
                }
            },
            "/api/search": {
                "get": {
                    "summary": "Ranked rule passages for a query.",
                    "parameters": [q, edition, limit],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {
                                    "question": {"type": "string"},
                                    "edition": {"oneOf": [EDITION, {"type": "null"}]},
                                    "did_you_mean": {"type": ["string", "null"]},
                                    "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
                                },
                            },
                            "Hits, best first.",
                        ),
                        **_errors(400, 503),
                    },
                }
            },
            "/api/rules/{node_id}": {
                "get": {
                    "summary": "One rule node with its citation, breadcrumb, parent, children and neighbours.",
                    "parameters": [_path("node_id", "A node id such as `6e-assault/...` (slashes allowed).")],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {
                                    "node": {"$ref": "#/components/schemas/Node"},
                                    "citation": {"type": "object"},
                                    "breadcrumb": {"type": "array"},
                                    "parent": {"type": ["object", "null"]},
                                    "children": {"type": "array"},
                                    "previous": {"type": ["object", "null"]},
                                    "next": {"type": ["object", "null"]},
                                    "same_concept": {"type": "array"},
                                    "refers_to": {"type": "array"},
                                    "referred_by": {"type": "array"},
                                    "examples": {"type": "array", "items": {"type": "string"}},
                                    "diagrams": {"type": "array", "items": {"type": "object", "properties": {"example": {"type": "string"}, "svg": {"type": "string"}, "figure": {"type": ["object", "null"]}}}},
                                },
                            },
                            "The node and its neighbours.",
                        ),
                        **_errors(404, 503),
                    },
                }
            },
            "/api/concepts": {
                "get": {
                    "summary": "Every concept with the rules that define or mention it.",
                    "responses": {
                        "200": _json({"type": "array", "items": {"$ref": "#/components/schemas/Concept"}}, "Concepts."),
                        **_errors(503),
                    },
                }
            },
            "/api/concepts/{concept_id}": {
                "get": {
                    "summary": "One concept: termbase entry, rules per edition, engine comparisons.",
                    "parameters": [_path("concept_id", "An English concept id such as `overwatch`.")],
                    "responses": {"200": _json(concept, "The concept."), **_errors(404, 503)},
                }
            },
            "/api/terms": {
                "get": {
                    "summary": "The termbase: renderings per book with status, count and lines.",
                    "responses": {
                        "200": _json({"type": "array", "items": term}, "Every concept of the termbase."),
                        **_errors(503),
                    },
                }
            },
            "/api/sources": {
                "get": {
                    "summary": "The books: edition, translation, credits, hashes, node counts, parse issues.",
                    "responses": {"200": _json({"type": "object"}, "Sources and issues."), **_errors(503)},
                }
            },
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
            "/api/openapi.json": {
                "get": {
                    "summary": "This document.",
                    "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")},
                }
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {"error": {"type": "string"}, "status": {"type": "integer"}},
                },
                "Hit": hit,
                "Node": node,
                "Concept": concept,
            }
        },
    }
