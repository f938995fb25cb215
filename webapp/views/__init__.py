"""The views: one blueprint per page family, the JSON API, and the error pages.

Errors never show a traceback: a missing build is a 503 page (or JSON) that says to run
``rulekb build``; unknown ids are 404 pages with suggestions; a bad parameter is a 400 with the
reason; anything unexpected is a plain 500 page (logged).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from rulekb.corpus.errors import IndexMissingError, QueryError, RulebaseError
from rulekb.corpus.models import EDITIONS
from rulekb.kb.contracts import Error, dump
from rulekb.kb.contracts.cite import citation_label
from rulekb.kb.store import verify_build
from rulekb.kb.text.fuzzy import close_matches
from rulekb.webapp.data import edition_label
from rulekb.webapp.guard import TimeBudgetExceeded
from rulekb.webapp.render import STATUS_LABELS, bar_chart_svg, flat, number, percent
from rulekb.webapp.views import api, calc, concepts, pages, rules, search, terms, warm
from rulekb.webapp.views.common import current_build

__all__ = ["register"]


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.endswith((".json", ".tsv", ".csv", ".tbx"))


def _printable(text: str) -> str:
    """``text`` without lone surrogates (a visitor's input quoted in a message must still encode)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _error(status: int, title: str, message: str, **extra: Any) -> tuple[Response | str, int]:
    message = _printable(message)
    if _wants_json():
        return jsonify(dump(Error, {"error": message, "status": status, **extra})), status
    return render_template("error.html", status=status, title=title, message=message, **extra), status


def _suggestions() -> list[Any]:
    """Rules or concepts whose id or title is close to the path asked for."""
    try:
        build = current_build()
    except RulebaseError:
        return []
    path = request.path
    for prefix in ("/api/rules/", "/rules/", "/api/concepts/", "/concepts/"):
        if path.startswith(prefix):
            wanted = path[len(prefix) :]
            if "concepts" in prefix:
                ids = close_matches(wanted, build.concepts, n=5, cutoff=0.4)
                return [{"href": f"/concepts/{i}", "title": build.concepts[i].english or i, "id": i} for i in ids]
            return [
                {"href": f"/rules/{n.id}", "title": n.title_clean or n.title, "id": n.id}
                for n in build.suggest(wanted)
            ]
    return []


def _damaged_build() -> IndexMissingError | None:
    """The damage of this app's build, if every file it lists is not there whole (checked after a failure)."""
    try:
        verify_build(current_app.config["BUILD_DIR"])
    except IndexMissingError as exc:
        return exc
    except Exception:  # the check itself must never turn a 500 into another 500
        return None
    return None


def register(app: Flask) -> None:
    for module in (search, rules, concepts, terms, calc, pages, api):
        app.register_blueprint(module.bp)

    warm.install(app)

    app.jinja_env.filters["edition_label"] = edition_label
    app.jinja_env.filters["citation_label"] = citation_label
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.filters["flat"] = flat
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["status_label"] = lambda status: STATUS_LABELS.get(status, status)
    app.jinja_env.filters["highlight"] = search.highlight
    app.jinja_env.filters["mark_numbers"] = search.mark_numbers
    app.jinja_env.globals["bar_chart"] = bar_chart_svg
    app.jinja_env.globals["EDITIONS"] = EDITIONS

    @app.errorhandler(IndexMissingError)
    def _missing(exc: IndexMissingError) -> tuple[Response | str, int]:
        return _error(
            503,
            "База правил ещё не собрана",
            exc.message,
            remedy="rulekb build",
        )

    @app.errorhandler(TimeBudgetExceeded)
    def _too_long(exc: TimeBudgetExceeded) -> tuple[Response | str, int]:
        return _error(503, "Слишком долгий расчёт", exc.message)

    @app.errorhandler(QueryError)
    def _query(exc: QueryError) -> tuple[Response | str, int]:
        return _error(400, "Неверный запрос", exc.message)

    @app.errorhandler(RulebaseError)
    def _rulebase(exc: RulebaseError) -> tuple[Response | str, int]:
        return _error(400, "Не получилось", exc.message)

    @app.errorhandler(404)
    def _not_found(exc: HTTPException) -> tuple[Response | str, int]:
        suggestions = _suggestions()
        return _error(
            404,
            "Не найдено",
            f"Здесь ничего нет: {request.path[:200]!r}.",
            suggestions=suggestions,
        )

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> tuple[Response | str, int]:
        status = exc.code or 500
        if status == 413:
            limit = current_app.config["MAX_CONTENT_LENGTH"] // 1024
            return _error(413, "Слишком большой текст", f"Можно отправить не больше {limit} КБ за раз.")
        return _error(status, exc.name, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Response | str, int]:
        damaged = _damaged_build()
        if damaged is not None:  # a file of the build broke under a reader (e.g. the search index)
            current_app.logger.warning("damaged build on %s: %s", request.path, damaged.message)
            return _missing(damaged)
        current_app.logger.exception("unexpected error on %s", request.path)
        return _error(500, "Внутренняя ошибка", "Что-то сломалось на сервере; ошибка записана в журнал.")
