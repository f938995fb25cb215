"""A rule function's answer: ok or not, with the reasons, each naming the rule (concept and lines) it applies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulekb.engine.concepts import Citation, citations_of, concept_of

__all__ = ["Reason", "Verdict"]


@dataclass(frozen=True)
class Reason:
    rule: str
    """The concept id of the rule applied (``charge``, ``unit-coherency``…)."""
    cites: tuple[Citation, ...]
    ok: bool
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "cites": [c.to_json() for c in self.cites], "ok": self.ok, "text": self.text}

    def __str__(self) -> str:
        where = ", ".join(str(c) for c in self.cites)
        return f"[{'ok' if self.ok else 'no'}] {self.rule} ({where}): {self.text}"


@dataclass
class Verdict:
    """``ok`` is false as soon as one checked condition fails; ``values`` holds what the rule computed."""

    ok: bool = True
    reasons: list[Reason] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)

    def check(self, fn: Callable[..., Any], ok: bool, text: str) -> bool:
        """Record a condition of the rule ``fn`` implements; a failed one makes the verdict fail."""
        self.reasons.append(Reason(concept_of(fn), citations_of(fn), ok, text))
        if not ok:
            self.ok = False
        return ok

    def note(self, fn: Callable[..., Any], text: str) -> None:
        self.reasons.append(Reason(concept_of(fn), citations_of(fn), True, text))

    def merge(self, other: Verdict) -> Verdict:
        self.reasons.extend(other.reasons)
        self.ok = self.ok and other.ok
        return self

    @property
    def failed(self) -> list[Reason]:
        return [r for r in self.reasons if not r.ok]

    @property
    def rules(self) -> list[str]:
        seen: list[str] = []
        for r in self.reasons:
            if r.rule not in seen:
                seen.append(r.rule)
        return seen

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "reasons": [r.to_json() for r in self.reasons], "values": self.values}
