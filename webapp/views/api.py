"""The JSON API: the same objects as the CLI contracts, read-only, CORS-open for GET.

Every route is listed in :data:`rulekb.webapp.views.openapi.OPENAPI` (a test checks that). Errors are
``{"error": "..."}`` with 400 (bad parameter) or 404 (unknown id), 503 when nothing is built.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from rulekb.corpus.errors import QueryError
from rulekb.kb.contracts import Ask, Concept, RulePage, SearchResult, Sources, Term, dump, dump_list
from rulekb.kb.contracts.calc import calc_json
from rulekb.kb.search.searcher import search as kb_search
from rulekb.webapp.guard import read_json_body
from rulekb.webapp.views.calc import calculate, profile_from_args
from rulekb.webapp.views.common import clean_query, current_build, parse_edition, parse_limit
from rulekb.webapp.views.concepts import concept_ids, concept_json, concept_page
from rulekb.webapp.views.openapi import document
from rulekb.webapp.views.pages import sources_data
from rulekb.webapp.views.rules import rule_page
from rulekb.webapp.views.search import played_edition, run_ask
from rulekb.webapp.views.terms import terms_json

__all__ = ["bp"]

bp = Blueprint("api", __name__, url_prefix="/api")


def _question() -> tuple[str, str | None, int]:
    question = clean_query(request.args.get("q"))
    if not question:
        raise QueryError("Parameter q (the question) is required, e.g. /api/ask?q=дальность+чарджа.")
    edition = parse_edition(request.args.get("edition"))
    limit = parse_limit(request.args.get("limit"), 5)
    return question, edition, limit


@bp.route("/ask")
def ask() -> Response:
    """The ``rulekb ask --json`` object."""
    question, edition, limit = _question()
    result = run_ask(current_build(), question, edition, limit, played_edition())
    result.pop("engine", None)
    return jsonify(dump(Ask, result))


@bp.route("/search")
def search() -> Response:
    """Ranked rule leaves for a query (no answer extraction)."""
    question, edition, limit = _question()
    build = current_build()

    found = kb_search(question, edition=edition, limit=limit, build_dir=build.path)
    hits = [h.to_json() for h in found.hits]
    out = {"query": question, "question": question, "edition": edition, "concepts": found.parsed.concepts,
           "did_you_mean": found.did_you_mean, "hits": hits}
    return jsonify(dump(SearchResult, out))


@bp.route("/rules/<path:node_id>")
def rule(node_id: str) -> Response:
    """One node with its breadcrumb, parent, children, neighbours and same-concept rules (the rule
    page's data, :func:`rulekb.webapp.views.rules.rule_page`)."""
    build = current_build()
    return jsonify(dump(RulePage, rule_page(build, node_id).to_json()))


@bp.route("/concepts")
def concepts() -> Response:
    """Every concept with the rules that define or mention it (``rulekb concepts --json``)."""
    build = current_build()
    ids = concept_ids(build)
    return jsonify(dump_list(Concept, (concept_json(build, build.concepts.get(cid), cid) for cid in ids)))


@bp.route("/concepts/<path:concept_id>")
def concept(concept_id: str) -> Response:
    return jsonify(dump(Concept, concept_page(current_build(), concept_id).to_json()))


@bp.route("/terms")
def terms() -> Response:
    """The termbase (``rulekb terms --json``)."""
    return jsonify(dump_list(Term, terms_json(current_build())))


@bp.route("/sources")
def sources() -> Response:
    """The books: the ``sources`` of ``build/manifest.json``, plus parse issues."""
    return jsonify(dump(Sources, sources_data(current_build())))


@bp.route("/calc", methods=["GET", "POST"])
def calc() -> Response | tuple[Response, int]:
    """The engine on one attack profile: GET with the calculator's parameters, or POST the profile JSON."""
    if request.method == "POST":
        profile = read_json_body(request.get_data(cache=False), request.mimetype)
    else:
        profile = profile_from_args(request.args)
    return jsonify(calc_json(calculate(profile)))


@bp.route("/openapi.json")
def openapi() -> Response:
    return jsonify(document(current_app.config["API_MAX_LIMIT"]))
