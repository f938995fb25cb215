"""Named entry points into the engine (``run = "tenth.blast"`` in a worked example), by edition.

:mod:`engine.runners.base` holds the registry and the strict input reader; importing this package
registers every runner of :mod:`~engine.runners.common`, :mod:`~engine.runners.tenth`,
:mod:`~engine.runners.older` and :mod:`~engine.runners.table`.
"""

from __future__ import annotations

from engine.runners import common, older, table, tenth
from engine.runners.base import RUNNERS, Inputs, Result, Runner, run

__all__ = ["RUNNERS", "Inputs", "Result", "Runner", "common", "older", "run", "table", "tenth"]
