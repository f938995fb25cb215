"""The termbase page: concepts with their renderings per book, statuses and counts; KWIC lines
linked to their rules; the inconsistency report; TBX/TSV/CSV downloads; the draft checker.

Everything comes from the build (:mod:`rulekb.kb.termbase.built`): ``terms.json`` (the ``rulekb terms
--json`` contract), ``kwic.json``, ``inconsistencies.json``, the exports and ``termbase.json``,
which the draft check (``rulekb.kb.termbase.check_draft``) reads against — no request opens the source tree.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request

from rulekb.corpus.errors import QueryError
from rulekb.kb.termbase.report import check_draft as lint_draft
from rulekb.kb.text.analysis import fold
from rulekb.webapp.data import Build
from rulekb.webapp.render import STATUS_LABELS
from rulekb.webapp.views.common import current_build

__all__ = ["bp", "terms_json"]

bp = Blueprint("terms", __name__)


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


@bp.route("/terms")
def terms() -> str:
    build = current_build()
    query = request.args.get("q", "")[:100]
    return render_template(
        "terms.html",
        q=query,
        concepts=_filter(build, query),
        total=len(build.concepts),
        report=build.inconsistencies,
        sources=build.sources,
        editions=build.editions,
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
        kwic=build.kwic(concept_id),
        sources=build.sources,
        status_labels=STATUS_LABELS,
    )


@bp.route("/terms/check", methods=["GET", "POST"])
def check() -> str | tuple[str, int]:
    """Paste a draft translation; get the terms it uses that the termbase flags, optionally read
    against one book's or one edition's renderings (``rulekb terms check --source/--edition``)."""
    build = current_build()
    form = request.form if request.method == "POST" else request.args
    draft = form.get("draft", "") if request.method == "POST" else ""
    source = form.get("source", "").strip() or None
    edition = form.get("edition", "").strip() or None
    flags: list[dict[str, Any]] | None = None
    if request.method == "POST":
        if len(draft) > current_app.config["MAX_CONTENT_LENGTH"]:
            raise QueryError("Текст слишком длинный для проверки.")
        flags = check_draft(build, draft, source=source, edition=edition)
    return render_template(
        "terms.html",
        q="",
        concepts=[],
        total=len(build.concepts),
        report=None,
        sources=build.sources,
        editions=build.editions,
        status_labels=STATUS_LABELS,
        draft=draft,
        flags=flags,
        check_source=source or "",
        check_edition=edition or "",
    )


def _books(build: Build, source: str | None, edition: str | None) -> list[str] | None:
    """The books a draft is read against: one source, an edition's sources, or all (None)."""
    if source is not None and edition is not None:
        raise QueryError("Выберите книгу или редакцию, не обе сразу.")
    if source is not None:
        if source not in build.sources:
            known = ", ".join(build.sources)
            raise QueryError(f"Неизвестная книга {source[:40]!r}: выберите одну из {known}.")
        return [source]
    if edition is not None:
        if edition not in build.editions:
            known = ", ".join(build.editions)
            raise QueryError(f"Неизвестная редакция {edition[:40]!r}: выберите одну из {known}.")
        return build.sources_of_edition(edition)
    return None


def check_draft(build: Build, draft: str, *, source: str | None = None, edition: str | None = None) -> list[dict[str, Any]]:
    """The deprecated and mistranslated renderings in a draft (``rulekb.kb.termbase.check_draft``), against
    this build's termbase."""
    books = _books(build, source, edition)
    finder = build.concept_finder
    if finder is None:
        raise QueryError("Проверка черновика недоступна: эта сборка без termbase.json — выполните `rulekb build`.")
    flags = lint_draft(draft, finder.termbase, finder, books=books)
    return [dataclasses.asdict(flag) for flag in flags]


def _download(kind: str, mimetype: str, filename: str) -> Response:
    body = current_build().export(kind)
    if body is None:
        abort(404)
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.route("/terms.tbx")
def tbx() -> Response:
    return _download("tbx", "application/x-tbx+xml", "rulekb-terms.tbx")


@bp.route("/terms.tsv")
def tsv() -> Response:
    return _download("tsv", "text/tab-separated-values; charset=utf-8", "rulekb-terms.tsv")


@bp.route("/terms.csv")
def csv() -> Response:
    return _download("csv", "text/csv; charset=utf-8", "rulekb-terms.csv")
