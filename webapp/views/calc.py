"""The calculator page (filled in below as engine.calc lands)."""

from __future__ import annotations

from flask import Blueprint, render_template

__all__ = ["bp"]

bp = Blueprint("calc", __name__)


@bp.route("/calc")
def calc() -> str:
    return render_template("about.html", sources=[], translation={}, manifest={})
