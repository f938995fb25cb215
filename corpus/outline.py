"""The outline of a parsed source: one line per node, indented by depth.

``rulekb outline SOURCE_ID`` prints it; ``tests/golden/<source-id>.outline`` keeps it, so every
parser change shows up as a readable diff.
"""

from __future__ import annotations

from rulekb.corpus.models import RuleNode

__all__ = ["format_outline"]


def format_outline(nodes: list[RuleNode]) -> str:
    depth: dict[str, int] = {}
    out: list[str] = []
    for node in nodes:
        level = 0 if node.parent_id is None else depth[node.parent_id] + 1
        depth[node.id] = level
        a, b = node.lines
        span = f"{a}" if a == b else f"{a}-{b}"
        page = "" if node.page is None else f" p.{node.page}"
        title = node.title.replace("\n", " ")
        if len(title) > 70:
            title = title[:69] + "…"
        unprinted = " (unprinted)" if node.unprinted else ""
        out.append(f"{'  ' * level}{node.kind.value:<8} {title}{unprinted}  [{span}]{page}")
    return "\n".join(out) + "\n"
