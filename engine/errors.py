"""The engine's own errors: plain ``ValueError`` subclasses (the engine imports nothing from the CLI).

Each message names the input (quoted with ``!r``), where it came from and what to do instead. The
command line wraps them in a ``RulebaseError`` so they print as one line with exit status 2.
"""

from __future__ import annotations

__all__ = ["DiceError", "EngineError", "ProfileError", "RuleNotInEdition", "UnknownEditionError"]


class EngineError(ValueError):
    """Root of every error the engine raises for bad input."""


class DiceError(EngineError):
    """A dice expression or a distribution cannot be built as given (``"2D"``, ``"D0"``, empty weights)."""


class ProfileError(EngineError):
    """An attack profile has a missing, mistyped or out-of-range field; the message names the field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


class UnknownEditionError(EngineError):
    """No edition matches the name or alias given."""


class RuleNotInEdition(EngineError):
    """The edition asked for has no such rule (e.g. battle-shock in the 6th edition)."""
