"""The termbase page: concepts with their renderings per book, statuses and counts; KWIC lines
linked to their rules; the inconsistency report; TBX/TSV/CSV downloads; the draft checker.

The data is the build's ``terms.json`` (the ``rulekb terms --json`` contract); KWIC lines, the
report, the exports and the draft check are ``kb.terms`` functions.
"""

from __future__ import annotations

import importlib
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request

from corpus.errors import QueryError
from kb.analysis import fold
from webapp.data import Build
from webapp.render import STATUS_LABELS
from webapp.views.common import current_build

__all__ = ["bp", "terms_json"]

bp = Blueprint("terms", __name__)



def _kb_terms() -> Any | None:
    try:
        return importlib.import_module("kb.terms")
    except ImportError:
        return None


def terms_json(build: Build) -> list[dict[str, Any]]:
    """The ``rulekb terms --json`` list of this build."""
    if build.terms_raw is not None:
        return build.terms_raw
    return [c.to_json() for c in build.concepts.values()]


def _filter(build: Build, query: str) -> list[Any]:
    concepts = list(build.concepts.values())
    if not query:
        return concepts
    wanted = fold(query)
    out = []
    for c in concepts:
        names = [c.id, c.english, c.abbreviation, c.category, *c.aliases, *(r.text for r in c.renderings)]
        if any(wanted in fold(name) for name in names if name):
            out.append(c)
    return out


def _as_dict(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    for name in ("to_json", "model_dump"):
        method = getattr(item, name, None)
        if callable(method):
            value = method()
            if isinstance(value, dict):
                return value
    import dataclasses

    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return dataclasses.asdict(item)
    return {"text": str(item)}


def inconsistencies() -> dict[str, list[dict[str, Any]]]:
    """The inconsistency report of ``kb.terms``: concepts one book renders several ways, and Russian
    strings used for different concepts within a book and across books."""
    module = _kb_terms()
    if module is None:
        return {"variants": [], "within_source": [], "across_sources": []}
    report: dict[str, list[dict[str, Any]]] = module.inconsistencies(module.default_index()).to_json()
    return report


@bp.route("/terms")
def terms() -> str:
    build = current_build()
    query = request.args.get("q", "")[:100]
    return render_template(
        "terms.html",
        q=query,
        concepts=_filter(build, query),
        total=len(build.concepts),
        report=inconsistencies(),
        sources=build.sources,
        status_labels=STATUS_LABELS,
        draft=None,
        flags=None,
    )


@bp.route("/terms/<concept_id>")
def term(concept_id: str) -> str:
    build = current_build()
    concept = build.concepts.get(concept_id)
    if concept is None:
        abort(404)
    return render_template(
        "term.html",
        concept=concept,
        kwic=_kwic(concept_id),
        sources=build.sources,
        status_labels=STATUS_LABELS,
    )


def _kwic(concept_id: str) -> list[dict[str, Any]]:
    """Every occurrence of the concept's renderings in context (``kb.terms.kwic``)."""
    module = _kb_terms()
    if module is None:
        return []
    return [_as_dict(row) for row in module.kwic(concept_id, width=50)]


@bp.route("/terms/check", methods=["GET", "POST"])
def check() -> str | tuple[str, int]:
    """Paste a draft translation; get the terms it uses that the termbase flags."""
    build = current_build()
    draft = request.form.get("draft", "") if request.method == "POST" else ""
    flags: list[dict[str, Any]] | None = None
    if request.method == "POST":
        if len(draft) > current_app.config["MAX_CONTENT_LENGTH"]:
            raise QueryError("Текст слишком длинный для проверки.")
        flags = check_draft(draft)
    return render_template(
        "terms.html",
        q="",
        concepts=[],
        total=len(build.concepts),
        report=None,
        sources=build.sources,
        status_labels=STATUS_LABELS,
        draft=draft,
        flags=flags,
    )


def check_draft(draft: str) -> list[dict[str, Any]]:
    """The deprecated and mistranslated renderings in a draft (``kb.terms.check_draft``)."""
    module = _kb_terms()
    if module is None:
        raise QueryError("Проверка черновика недоступна: в этой установке нет словаря терминов (kb.terms).")
    flags = module.check_draft(draft, module.default_termbase(), module.default_finder())
    return [_as_dict(flag) for flag in flags]


def _download(kind: str, mimetype: str, filename: str) -> Response:
    module = _kb_terms()
    if module is None:
        abort(404)
    exporter = getattr(module, f"to_{kind}")
    response = Response(exporter(module.default_index()), mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/terms.tbx")
def tbx() -> Response:
    current_build()
    return _download("tbx", "application/x-tbx+xml", "rulekb-terms.tbx")


@bp.route("/terms.tsv")
def tsv() -> Response:
    current_build()
    return _download("tsv", "text/tab-separated-values; charset=utf-8", "rulekb-terms.tsv")


@bp.route("/terms.csv")
def csv() -> Response:
    current_build()
    return _download("csv", "text/csv; charset=utf-8", "rulekb-terms.csv")
