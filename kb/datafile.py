"""Reading kb's TOML data files: one helper, so every file fails the same clear way.

:func:`read_toml` reads a file or raises the caller's error naming the file, the line and the fix;
:func:`validation_problem` words the first problem of a pydantic :class:`~pydantic.ValidationError`
as ``field 'a.b': message (got …)``, the key path the editor looks for.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rulekb.corpus.citations import normalise_space

__all__ = ["read_toml", "validation_problem"]


def read_toml(path: Path, error: Callable[[str], Exception], *, missing: str) -> dict[str, Any]:
    """The parsed TOML of ``path``; ``error(missing)`` when there is no such file, and
    ``error("<name>: not valid TOML: <what> (at line L, column C). Fix the syntax.")`` when it does
    not parse."""
    if not path.is_file():
        raise error(missing)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{path.name}: not valid TOML: {normalise_space(str(exc))}. Fix the syntax.") from exc


def validation_problem(exc: ValidationError) -> str:
    """``field 'where': message (got value)`` for the first error of ``exc``."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "entry"
    message = normalise_space(str(first["msg"])).removeprefix("Value error, ")
    value = first.get("input")
    shown = "" if isinstance(value, dict) else f" (got {normalise_space(repr(value))[:80]})"
    return f"field {where!r}: {message}{shown}"
