"""What the build stages share (:class:`BuildContext`) and how they write JSON (:func:`dump_json`).

Every stage is a plain function ``stage(ctx: BuildContext) -> None`` (:data:`Stage`) that writes its
artefacts into ``ctx.out`` and may record counts and issues; :mod:`rulekb.kb.build` runs them in order.
This module imports nothing of kb, so every stage can import it without a cycle.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekb.corpus.models import ParseIssue, RuleNode
from rulekb.corpus.parser import ParsedCorpus

__all__ = ["BuildContext", "Stage", "dump_json"]


def dump_json(path: Path, data: Any) -> None:
    """Write JSON deterministically: sorted keys, UTF-8, a trailing newline."""
    path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n", encoding="utf-8")


@dataclass
class BuildContext:
    """What the stages share."""

    out: Path
    corpus: ParsedCorpus
    strict: bool = False
    counts: dict[str, Any] = field(default_factory=dict)
    issues: list[ParseIssue] = field(default_factory=list)
    log: Callable[[str], None] = lambda message: None

    @property
    def nodes(self) -> list[RuleNode]:
        return self.corpus.nodes


Stage = Callable[[BuildContext], None]
