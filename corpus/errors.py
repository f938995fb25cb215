"""One exception root the CLI knows how to print.

Every failure a user can cause is a :class:`RulebaseError`: the message names the input, the
context and the fix. It subclasses :class:`click.ClickException`, so the command line prints
one line and exits with status 2; library code never raises ``SystemExit``.
"""

from __future__ import annotations

import click

__all__ = [
    "CorpusError",
    "ExampleError",
    "IndexMissingError",
    "LinkError",
    "QueryError",
    "RulebaseError",
    "TermbaseError",
]


class RulebaseError(click.ClickException, ValueError):
    """Base of every error rulekb reports to a user."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)


class CorpusError(RulebaseError):
    """A source text or the manifest cannot be used: missing, not UTF-8, empty, hash changed."""


class TermbaseError(RulebaseError):
    """``kb/data/terms.toml`` (or another curated data file) has an invalid entry."""


class LinkError(RulebaseError):
    """The linker found something it cannot resolve in strict mode."""


class IndexMissingError(RulebaseError):
    """The built artefacts are missing or stale; the message says how to build them."""


class ExampleError(RulebaseError):
    """A worked example is malformed or cites text that is not in its source."""


class QueryError(RulebaseError):
    """A query cannot be answered as given (too long, unknown edition, unknown id)."""
