"""Fragments the pages repeat, rendered once per worker: the edition badge.

A search page shows the edition badge of its answer card, of each part of a comparison and of a
related FAQ entry; each was a call of the ``badge`` macro of ``_macros.html`` (tens of microseconds
of Jinja's macro machinery). The badge depends on nothing but the edition, so :func:`install`
gives the templates a ``badge`` that renders the macro itself once per edition and app and then
returns the same markup. Templates that import the macro from ``_macros.html`` keep the macro.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup

__all__ = ["BADGES_KEPT", "install"]

#: badges kept per app (there are a handful of editions; the bound keeps odd values from piling up)
BADGES_KEPT = 64


def install(app: Flask) -> None:
    """The templates' ``badge(edition)``: the ``badge`` macro's markup, remembered per edition."""
    kept: dict[str | None, Markup] = {}

    def badge(edition: Any) -> Markup:
        if edition is None or type(edition) is str:
            found = kept.get(edition)
            if found is not None:
                return found
        macros: Any = app.jinja_env.get_template("_macros.html").module
        markup = Markup(macros.badge(edition))
        if (edition is None or type(edition) is str) and len(kept) < BADGES_KEPT:
            kept[edition] = markup
        return markup

    app.jinja_env.globals["badge"] = badge
