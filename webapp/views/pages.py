"""Pages about the knowledge base itself: sources (books, counts, parse issues) and about."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask import Blueprint, render_template

from rulekb.webapp.data import Build
from rulekb.webapp.views.common import current_build

__all__ = ["bp", "sources_data"]

bp = Blueprint("pages", __name__)

TRANSLATION = {"machine": "машинный перевод", "community": "любительский перевод", "official": "официальный перевод"}


def sources_data(build: Build) -> dict[str, Any]:
    """What the sources page shows and ``/api/sources`` serves (the :class:`rulekb.kb.contracts.Sources`
    object): the manifest's books and the parse issues."""
    return {"sources": list(build.sources.values()), "issues": build.issues}


@bp.route("/sources")
def sources() -> str:
    build = current_build()
    data = sources_data(build)
    issues: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for issue in data["issues"]:
        issues[str(issue.get("source_id", ""))].append(issue)
    roots = {n.source_id: n for n in build.nodes.values() if n.parent_id is None}
    return render_template(
        "sources.html",
        sources=data["sources"],
        issues=issues,
        roots=roots,
        manifest=build.manifest,
        translation=TRANSLATION,
    )


@bp.route("/about")
def about() -> str:
    build = current_build()
    return render_template(
        "about.html", sources=list(build.sources.values()), translation=TRANSLATION, manifest=build.manifest
    )
