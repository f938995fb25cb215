"""The termbase page: concepts with their renderings per book, statuses and counts; KWIC lines
linked to their rules; the inconsistency report; TBX/TSV/CSV downloads; the draft checker.

The table comes in pages of ``TERMS_PAGE_SIZE`` concepts in alphabetical order (``/terms`` is the
first, ``/terms?page=N`` the others, ``/terms?page=all`` the whole table on one page for the
browser's find-in-page), with a letter index linking each letter's first concept
(``/terms?page=N#c-<id>``); a search (``?q=``) looks through every concept. The inconsistency
report is its own page, ``/terms/report``. The first screen of a phone on a slow network is then a
few kilobytes, and every page is in the service worker's precache (:func:`table_urls`).

Everything comes from the build (:mod:`rulekb.kb.termbase.built`): ``terms.json`` (the ``rulekb terms
--json`` contract), ``kwic.json``, ``inconsistencies.json``, the exports and ``termbase.json``,
which the draft check (``rulekb.kb.termbase.check_draft``) reads against — no request opens the source tree.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from rulekb.corpus.errors import QueryError
from rulekb.kb.termbase.report import check_draft as lint_draft
from rulekb.kb.text.analysis import fold
from rulekb.webapp.data import Build
from rulekb.webapp.render import STATUS_LABELS
from rulekb.webapp.views.common import current_build

__all__ = ["PAGE_SIZE", "bp", "concept_url", "ordered_concepts", "table_pages", "table_urls", "terms_json"]

bp = Blueprint("terms", __name__)

#: concepts per page of the termbase table (the ``TERMS_PAGE_SIZE`` setting)
PAGE_SIZE = 40
#: the paths under /terms/ that are pages, not concept ids (a test checks no concept takes them)
RESERVED = ("check", "report")


@dataclasses.dataclass(frozen=True)
class TablePage:
    """One page of the termbase table: its number (1-based), URL and concepts."""

    number: int
    url: str
    concepts: tuple[Any, ...]

    @property
    def label(self) -> str:
        """«Abilities – Attack»: the first and the last concept of the page."""
        first, last = self.concepts[0], self.concepts[-1]
        return f"{first.english or first.id} – {last.english or last.id}"


def _page_size() -> int:
    return max(1, int(current_app.config.get("TERMS_PAGE_SIZE", PAGE_SIZE)))


def page_url(number: int) -> str:
    """The address of a page of the table: ``/terms`` for the first."""
    return url_for("terms.terms") if number == 1 else url_for("terms.terms", page=number)


def ordered_concepts(build: Build) -> tuple[Any, ...]:
    """The concepts in the alphabetical order of the names the table shows (English, else the id)."""
    return tuple(sorted(build.concepts.values(), key=lambda c: (fold(c.english or c.id), c.id)))


def table_pages(build: Build) -> list[TablePage]:
    """The table's pages: the concepts in alphabetical order of their names, ``TERMS_PAGE_SIZE`` a page."""
    size = _page_size()
    concepts = ordered_concepts(build)
    chunks = [concepts[i : i + size] for i in range(0, len(concepts), size)] or [()]
    return [TablePage(n, page_url(n), chunk) for n, chunk in enumerate(chunks, start=1)]


def _letter(concept: Any) -> str:
    first = (concept.english or concept.id or "#")[:1].upper()
    return first if first.isalpha() else "0–9"


def letter_index(pages: list[TablePage]) -> list[tuple[str, str]]:
    """Each first letter of the concepts' English names with the address of its first concept."""
    out: dict[str, str] = {}
    for page in pages:
        for concept in page.concepts:
            out.setdefault(_letter(concept), f"{page.url}#c-{concept.id}")
    return list(out.items())


def concept_url(build: Build, concept_id: str) -> str | None:
    """The concept's row in the paged table (``/terms?page=N#c-<id>``), or None if unknown."""
    for page in table_pages(build):
        if any(c.id == concept_id for c in page.concepts):
            return f"{page.url}#c-{concept_id}"
    return None


def table_urls(build: Build) -> list[str]:
    """Every page of the termbase the offline app stores: the pages of the table, the whole
    table, the inconsistency report."""
    return [
        *(page.url for page in table_pages(build)),
        url_for("terms.terms", page="all"),
        url_for("terms.report"),
    ]


def _parse_page(raw: str | None, count: int) -> int | None:
    """The page number asked for; «all» → None; anything else → QueryError naming the choices."""
    value = (raw or "1").strip().lower()
    if value in ("all", "все"):
        return None
    if value.isdigit() and 1 <= int(value) <= count:
        return int(value)
    raise QueryError(
        f"Нет страницы {value[:20]!r} в таблице терминов: страницы 1–{count} или «all» (вся таблица)."
    )


def _report_counts(report: dict[str, list[Any]] | None) -> dict[str, int]:
    report = report or {}
    return {key: len(report.get(key) or []) for key in ("variants", "within_source", "across_sources")}


def terms_json(build: Build) -> list[dict[str, Any]]:
    """The ``rulekb terms --json`` list of this build."""
    if build.terms_raw is not None:
        return build.terms_raw
    return [c.to_json() for c in build.concepts.values()]


def _filter(build: Build, query: str) -> list[Any]:
    concepts = list(ordered_concepts(build))
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
    pages = table_pages(build)
    current: TablePage | None = None
    if query:
        concepts = _filter(build, query)
    else:
        number = _parse_page(request.args.get("page"), len(pages))
        current = pages[number - 1] if number is not None else None
        concepts = list(current.concepts) if current is not None else list(ordered_concepts(build))
    return render_template(
        "terms.html",
        q=query,
        concepts=concepts,
        total=len(build.concepts),
        pages=pages,
        current=current,
        whole=not query and current is None,
        letters=letter_index(pages),
        report_counts=_report_counts(build.inconsistencies),
        sources=build.sources,
        editions=build.editions,
        status_labels=STATUS_LABELS,
        draft=None,
        flags=None,
    )


@bp.route("/terms/report")
def report() -> str:
    """The inconsistency report: a book rendering one concept several ways, one string used for
    different concepts in one book or across books."""
    build = current_build()
    return render_template("terms_report.html", report=build.inconsistencies, status_labels=STATUS_LABELS)


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
        pages=table_pages(build),
        current=None,
        whole=False,
        letters=letter_index(table_pages(build)),
        report_counts=_report_counts(build.inconsistencies),
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
