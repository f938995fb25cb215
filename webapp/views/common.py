"""What every view shares: the build of this app, parameter checks, citations, node JSON."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import current_app, g, url_for

from rulekb.corpus.editions import by_id, display_order
from rulekb.corpus.errors import QueryError
from rulekb.corpus.models import EDITIONS, RuleNode
from rulekb.kb.contracts.cite import citation_label
from rulekb.webapp.data import Build, edition_label, get_build
from rulekb.webapp.guard import absolute

__all__ = [
    "EDITION_ALIASES",
    "citation",
    "clean_query",
    "current_build",
    "node_json",
    "parse_edition",
    "parse_limit",
]

#: What the edition filter accepts besides the codes themselves.
EDITION_ALIASES: dict[str, str] = {alias: code for code in display_order() for alias in by_id()[code].aliases}


def current_build() -> Build:
    """The knowledge base of this app (raises IndexMissingError with the fix when it is not built)."""
    if "rulekb_build" not in g:
        g.rulekb_build = get_build(current_app.config["BUILD_DIR"])
    build: Build = g.rulekb_build
    return build


def clean_query(raw: str | None) -> str:
    """The query with control characters dropped and whitespace collapsed; too long → QueryError."""
    text = raw or ""
    limit = int(current_app.config["MAX_QUERY_LENGTH"])
    if len(text) > limit:
        raise QueryError(
            f"Вопрос слишком длинный: {len(text)} символов, допускается не больше {limit}. "
            "Сократите его до главного — например, «дальность чарджа в 10-й»."
        )
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return " ".join(text.split())


def parse_edition(raw: str | None) -> str | None:
    """An edition code from a query parameter; empty or «all» → None; unknown → QueryError."""
    value = (raw or "").strip().lower()
    if value in ("", "all", "any", "все"):
        return None
    value = EDITION_ALIASES.get(value, value)
    if value not in EDITIONS:
        known = ", ".join(EDITIONS)
        raise QueryError(f"Неизвестная редакция {raw[:40] if raw else raw!r}: выберите одну из {known} или «все».")
    return value


def parse_limit(raw: str | None, default: int) -> int:
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise QueryError(f"limit must be a whole number, got {raw[:40]!r}.") from exc
    maximum = int(current_app.config["API_MAX_LIMIT"])
    if not 1 <= value <= maximum:
        raise QueryError(f"limit must be between 1 and {maximum}, got {value}.")
    return value


def base_url() -> str | None:
    """Where permalinks point: ``BASE_URL``, else the configured ``SERVER_NAME``, else nothing (relative).

    Both are the operator's settings; the visitor's ``Host`` header is never used.
    """
    config = current_app.config
    if config.get("BASE_URL"):
        return str(config["BASE_URL"])
    if config.get("SERVER_NAME"):
        return f"{config.get('PREFERRED_URL_SCHEME') or 'http'}://{config['SERVER_NAME']}"
    return None


def citation(build: Build, node: RuleNode) -> dict[str, Any]:
    """Book, edition, page and lines of a node, and its permalink."""
    source = build.source(node.source_id)
    start, end = node.lines
    title = source.get("title", node.source_id)
    return {
        "book": title,
        "edition": node.edition,
        "edition_label": edition_label(node.edition),
        "page": node.page,
        "lines": [start, end],
        "text": citation_label(title, node.lines, node.page),
        "short": citation_label(node.source_id, node.lines, node.page),
        "sha256": source.get("sha256", ""),
        "permalink": absolute(url_for("rules.rule", node_id=node.id), base_url()),
    }


def node_json(build: Build, node: RuleNode) -> dict[str, Any]:
    """A node as the API serves it: the ``rulekb nodes --json`` fields plus text and title_clean."""
    return {
        "id": node.id,
        "source_id": node.source_id,
        "source_sha256": build.source(node.source_id).get("sha256", ""),
        "edition": node.edition,
        "kind": node.kind.value,
        "title": node.title,
        "title_clean": node.title_clean,
        "parent_id": node.parent_id,
        "lines": list(node.lines),
        "page": node.page,
        "text": node.text,
        "text_clean": node.text_clean,
        "concepts": list(node.concepts),
    }
