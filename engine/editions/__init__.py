"""The editions as declared variants, with alias lookup.

>>> find_edition("10th").name
'Warhammer 40,000, 10th edition'
>>> find_edition("кт").key
'kt'
"""

from __future__ import annotations

from rulekb.engine.editions.base import Edition
from rulekb.engine.editions.killteam import KillTeam
from rulekb.engine.editions.seventh import Seventh
from rulekb.engine.editions.sixth import Sixth
from rulekb.engine.editions.tenth import Tenth
from rulekb.engine.errors import UnknownEditionError

__all__ = ["EDITIONS", "Edition", "KillTeam", "Seventh", "Sixth", "Tenth", "find_edition", "get_edition"]

#: Every edition the engine knows, newest first.
EDITIONS: tuple[type[Edition], ...] = (Tenth, Sixth, Seventh, KillTeam)


def _norm(name: str) -> str:
    return " ".join(name.strip().lower().replace("ё", "е").replace("-", " ").replace("_", " ").split())


def find_edition(name: str | int) -> type[Edition]:
    """The edition class for a key or alias: ``"10"``, ``"10th"``, ``"6"``, ``"7e"``, ``"kt"``, ``"kill team"``…"""
    wanted = _norm(str(name))
    for edition in EDITIONS:
        if wanted == _norm(edition.key) or wanted in {_norm(a) for a in edition.aliases}:
            return edition
    known = "; ".join(f"{e.key} ({', '.join(e.aliases[:3])})" for e in EDITIONS)
    raise UnknownEditionError(f"Unknown edition {name!r}; known editions: {known}.")


def get_edition(name: str | int) -> Edition:
    """An instance of the edition named (editions hold no state)."""
    return find_edition(name)()
