"""Named entry points into the engine (``run = "tenth.blast"`` in a worked example), by edition.

:mod:`rulekb.engine.runners.base` holds the registry and the strict input reader; importing this package
registers every runner of :mod:`~rulekb.engine.runners.common`, :mod:`~rulekb.engine.runners.tenth`,
:mod:`~rulekb.engine.runners.older`, :mod:`~rulekb.engine.runners.table` and
:mod:`~rulekb.engine.runners.older_table`.
"""

from __future__ import annotations

from rulekb.engine.runners import common, older, older_table, table, tenth
from rulekb.engine.runners.base import RUNNERS, Inputs, Result, Runner, run

__all__ = ["RUNNERS", "Inputs", "Result", "Runner", "common", "older", "older_table", "run", "table", "tenth"]
