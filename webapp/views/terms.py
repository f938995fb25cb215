"""The termbase page (filled in below as kb.terms lands)."""

from __future__ import annotations

from flask import Blueprint, render_template

from webapp.views.common import current_build

__all__ = ["bp"]

bp = Blueprint("terms", __name__)


@bp.route("/terms")
def terms() -> str:
    build = current_build()
    return render_template("concepts.html", concepts=list(build.concepts.values()), counts={})
