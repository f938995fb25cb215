"""The JSON API (filled in below)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

__all__ = ["bp"]

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.route("/openapi.json")
def openapi() -> Any:
    return jsonify({"openapi": "3.1.0"})
