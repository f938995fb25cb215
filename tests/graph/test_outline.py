"""Breadcrumbs and previous/next come from one outline: the graph and the knowledge base agree."""

from __future__ import annotations

from pathlib import Path

from rulekb.corpus.models import NodeKind, RuleNode
from rulekb.kb.graph.outline import Outline
from rulekb.kb.graph.queries import load_graph
from rulekb.kb.knowledge import open_knowledge_base


def _node(node_id: str, parent: str | None, line: int, title: str, kind: NodeKind = NodeKind.RULE) -> RuleNode:
    return RuleNode.model_validate(
        {
            "id": node_id, "source_id": "s", "edition": "10", "kind": kind.value, "parent_id": parent,
            "title": title, "lines": [line, line], "text": title, "text_clean": title,
        }
    )


def test_outline_trail_and_reading_order() -> None:
    nodes = [
        _node("s", None, 1, "Book", NodeKind.SOURCE),
        _node("s/a", "s", 1, "Chapter"),
        _node("s/a/x", "s/a", 1, "First"),  # starts on its parent's line: after the parent
        _node("s/a/y", "s/a", 5, "Second"),
        _node("s/loop", "s/loop", 9, "Its own parent"),
    ]
    outline = Outline.of_nodes(nodes)
    assert outline.trail("s/a/y") == ["s", "s/a"]
    assert outline.breadcrumb("s/a/y") == ["Book", "Chapter"]
    assert outline.depth("s/a/x") == 2 and outline.trail("s/loop") == ["s/loop"]
    assert outline.reading_order["s"] == ["s/a", "s/a/x", "s/a/y", "s/loop"]
    assert outline.adjacent("s/a") == (None, "s/a/x")
    assert outline.adjacent("s/a/y") == ("s/a/x", "s/loop")
    assert outline.adjacent("s") == (None, None)  # the source node is not read


def test_graph_and_knowledge_base_read_the_same_breadcrumbs(built: Path) -> None:
    base, graph = open_knowledge_base(built), load_graph(built)
    assert base.nodes
    for node in base.nodes.values():
        assert base.breadcrumb(node) == " › ".join(graph.breadcrumb(node.id)[1:]), node.id
        assert [n.id for n in base.trail(node)] == graph.outline.trail(node.id)


def test_next_edges_follow_the_reading_order(built: Path) -> None:
    base, graph = open_knowledge_base(built), load_graph(built)
    for node in base.nodes.values():
        if not node.is_leaf or graph.neighbours(node.id)["next"] is None:
            continue
        following = graph.neighbours(node.id)["next"]
        _, after = base.neighbours(node)
        while after is not None and after.id != following:
            assert not (after.is_leaf and graph.neighbours(after.id)["previous"] is not None), after.id
            _, after = base.neighbours(after)
        assert after is not None and after.id == following
