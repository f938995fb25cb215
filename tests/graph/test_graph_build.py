"""The built graph: deterministic, every edge kind, same concept across editions, contracts."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from rulekb.corpus.models import NON_RULE_KINDS
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.build import build
from rulekb.kb.examples.model import EXAMPLES_DIR, load_examples
from rulekb.kb.graph.build import build_graph, graph_data
from rulekb.kb.graph.curation import covering_leaves, link_examples, load_curation, span_text
from rulekb.kb.graph.linker import link
from rulekb.kb.graph.queries import EDGE_KINDS, GRAPH_SCHEMA, KnowledgeGraph, load_graph
from rulekb.kb.termbase.model import default_termbase

OLD_EDITIONS = {"6", "7", "kt"}


@pytest.fixture(scope="module")
def data(built: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((built / "graph.json").read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def kg(built: Path) -> KnowledgeGraph:
    return load_graph(built)


def test_two_builds_write_identical_bytes(built: Path, tmp_path: Path) -> None:
    again = build(out=tmp_path / "build").out
    for name in ("graph.json", "concepts.json", "terms.json"):
        assert (again / name).read_bytes() == (built / name).read_bytes(), name


def test_graph_json_is_schema_versioned_and_sorted(data: dict[str, Any]) -> None:
    assert data["schema_version"] == GRAPH_SCHEMA
    ids = [n["id"] for n in data["nodes"]]
    assert ids == sorted(ids) and len(ids) == len(set(ids))
    keys = [(e["source"], e["target"], e["key"]) for e in data["links"]]
    assert keys == sorted(keys) and len(keys) == len(set(keys))
    known = set(ids)
    assert all(e["source"] in known and e["target"] in known for e in data["links"])


def test_every_edge_kind_is_present(data: dict[str, Any]) -> None:
    counts = data["graph"]["edge_counts"]
    assert set(counts) == set(EDGE_KINDS)
    # Worked examples come from kb/examples/*.toml; without any, «demonstrates» has nothing to link
    # (test_examples_demonstrate_rules builds it from an example file of its own).
    has_examples = any(EXAMPLES_DIR.glob("*.toml"))
    wanted = set(EDGE_KINDS) - (set() if has_examples else {"demonstrates"})
    assert all(counts[kind] > 0 for kind in wanted), counts
    types = {"source", "rule", "concept", "rendering"} | ({"example"} if has_examples else set())
    assert {n["type"] for n in data["nodes"]} == types


def test_examples_demonstrate_rules(corpus: ParsedCorpus, tmp_path: Path) -> None:
    (leaf,) = covering_leaves(corpus.nodes, "6e-assault", (60, 60))
    (cited,) = covering_leaves(corpus.nodes, "kt", (3, 3))
    # a restored diagram's caption: the example demonstrates the rule the figure illustrates too
    pictured = next(n for n in corpus.nodes if n.source_id == "kt" and n.is_leaf and n.lines[0] > cited.lines[1])
    (tmp_path / "charge.toml").write_text(
        f'''[[example]]
id = "charge-range"
title = "Charge range 2D6"
concepts = ["charge-roll"]
rule_ids = ["{leaf.id}", "6e-assault/no-such-node"]
run = "dice.expression"
explanation = "2D6"
citations = [{{ source = "kt", lines = [3, 3], quotes = ["Огонь на упреждение"] }}]
figure = {{ source = "kt", lines = [{pictured.lines[0]}, {pictured.lines[0]}], quotes = ["x"] }}
inputs = {{ expr = "2D6" }}
expected = {{ min = 2 }}
''',
        encoding="utf-8",
    )
    examples, issues = link_examples(corpus.nodes, load_examples(tmp_path))
    assert [e["rule_ids"] for e in examples] == [sorted([leaf.id, cited.id, pictured.id])]
    assert [(i.severity, i.code) for i in issues] == [("error", "dangling")]
    assert "6e-assault/no-such-node" in issues[0].message
    termbase = default_termbase()
    links = link(corpus, termbase)
    kg = KnowledgeGraph(graph_data(build_graph(corpus, links, termbase, {}, examples), links))
    assert kg.neighbours(leaf.id)["examples"] == ["charge-range"]
    assert kg.neighbours(cited.id)["examples"] == ["charge-range"]
    assert kg.neighbours(pictured.id)["examples"] == ["charge-range"]


def test_hierarchy_and_sequence_cover_the_corpus(kg: KnowledgeGraph, corpus: ParsedCorpus) -> None:
    for node in corpus.nodes:
        parents = [u for u, _, a in kg.graph.in_edges(node.id, data=True) if a["kind"] == "contains"]
        assert parents == ([node.parent_id] if node.parent_id else []), node.id
    for parsed in corpus.sources:
        leaves = [n.id for n in parsed.nodes if n.is_leaf and n.kind not in NON_RULE_KINDS]
        chain = [leaves[0]]
        while (following := kg.neighbours(chain[-1])["next"]) is not None:
            chain.append(following)
        assert chain == leaves, parsed.source.id


def test_mentions_fill_the_node_concept_lists(kg: KnowledgeGraph) -> None:
    mentioned = 0
    for node_id, attrs in kg.graph.nodes(data=True):
        if attrs["type"] != "rule":
            continue
        edges = sorted(v.removeprefix("concept:") for _, v, a in kg.graph.out_edges(node_id, data=True) if a["kind"] == "mentions")
        assert attrs["concepts"] == edges, node_id
        mentioned += bool(edges)
    assert mentioned >= 200


def _spanning_mechanics(kg: KnowledgeGraph) -> dict[str, set[tuple[str, str]]]:
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for u, v, attrs in kg.graph.edges(data=True):
        if attrs["kind"] == "same_concept":
            editions = (kg.graph.nodes[u]["edition"], kg.graph.nodes[v]["edition"])
            assert editions[0] != editions[1]
            if editions[0] in OLD_EDITIONS and editions[1] == "10":
                found[attrs["mechanic"]].add(editions)
    return found


def test_thirty_mechanics_link_the_older_editions_to_the_tenth(kg: KnowledgeGraph) -> None:
    spanning = _spanning_mechanics(kg)
    assert len(spanning) >= 30, sorted(spanning)
    for wanted in ("overwatch", "hit-roll", "wound-roll", "pile-in", "consolidate", "blast", "re-roll", "strike-order"):
        assert any(wanted in mechanic for mechanic in spanning), wanted


def test_same_concept_edges_go_both_ways(kg: KnowledgeGraph) -> None:
    pairs = {(u, v, a["concept"], a["counterpart"]) for u, v, a in kg.graph.edges(data=True) if a["kind"] == "same_concept"}
    assert pairs
    assert all((v, u, cb, ca) in pairs for u, v, ca, cb in pairs)


def test_concepts_json_contract(built: Path, corpus: ParsedCorpus) -> None:
    rows = json.loads((built / "concepts.json").read_text(encoding="utf-8"))
    assert rows and [r["concept"] for r in rows] == sorted(r["concept"] for r in rows)
    sha = {p.source.id: p.sha256 for p in corpus.sources}
    nodes = {n.id: n for n in corpus.nodes}
    for row in rows:
        assert set(row) == {"concept", "english", "category", "nodes"}
        assert all(isinstance(row[k], str) and row[k] for k in ("concept", "english", "category"))
        for item in row["nodes"]:
            assert set(item) == {"node_id", "source_id", "source_sha256", "edition", "lines", "role"}
            node = nodes[item["node_id"]]
            assert (item["source_id"], item["edition"], item["lines"]) == (node.source_id, node.edition, list(node.lines))
            assert item["source_sha256"] == sha[node.source_id]
            assert item["role"] in ("defines", "mentions")
    roles = {item["role"] for row in rows for item in row["nodes"]}
    assert roles == {"defines", "mentions"}


def test_terms_json_contract(built: Path) -> None:
    rows = json.loads((built / "terms.json").read_text(encoding="utf-8"))
    assert rows
    for row in rows:  # the contract's fields (it may be extended by adding fields)
        assert {"concept", "english", "category", "definition", "aliases", "renderings"} <= set(row)
        assert isinstance(row["aliases"], list)
        for rendering in row["renderings"]:
            assert {"source_id", "source_sha256", "text", "status", "count", "lines"} <= set(rendering)
            assert rendering["count"] == len(rendering["lines"])
            assert rendering["status"] in ("preferred", "admitted", "deprecated", "mistranslation")


def test_compare_overwatch_has_the_sixth_edition_and_kill_team(kg: KnowledgeGraph) -> None:
    comparison = kg.compare("overwatch")
    by_edition = {e["edition"]: e["passages"] for e in comparison["editions"]}
    assert {"6", "kt"} <= set(by_edition)
    assert [e["edition"] for e in comparison["editions"]] == sorted(by_edition, key=["6", "7", "kt", "10"].index)
    six = by_edition["6"][0]
    assert six["source_id"] == "6e-assault" and "Дозорн" in six["text"]
    assert "Огонь на упреждение" in by_edition["kt"][0]["text"]


def test_a_concept_is_found_by_english_russian_inflection_and_alias(kg: KnowledgeGraph) -> None:
    assert kg.resolve_concept("overwatch") == "overwatch"
    assert kg.resolve_concept("Overwatch") == "overwatch"
    assert kg.resolve_concept("дозорной стрельбы") == "overwatch"
    assert kg.resolve_concept("огнём на упреждение") == "overwatch"


def test_neighbours_of_a_rule_that_cites_a_page(kg: KnowledgeGraph, corpus: ParsedCorpus) -> None:
    (leaf,) = covering_leaves(corpus.nodes, "7e-pp58-67", (13, 13))
    found = kg.neighbours(leaf.id)
    targets = [r["target"] for r in found["references_out"]]
    assert len(targets) == 1 and kg.graph.nodes[targets[0]]["page"] == 63
    assert [r["text"] for r in found["references_unresolved"]] == ["см. с. 38 и 63"]
    assert leaf.id in [r["source"] for r in kg.neighbours(targets[0])["references_in"]]
    assert found["parent"] == leaf.parent_id
    assert kg.neighbours(found["next"])["previous"] == leaf.id


def test_curated_definitions_quote_their_lines_and_resolve(corpus: ParsedCorpus) -> None:
    curation = load_curation()
    termbase = default_termbase()
    assert len(curation.defines) >= 60
    for entry in curation.defines:
        leaves = covering_leaves(corpus.nodes, entry.source, entry.lines)
        assert leaves, entry
        assert " ".join(entry.quote.split()) in span_text(leaves, entry.lines), entry
        assert entry.concept in termbase, entry
    for mechanic in curation.mechanics:
        assert all(concept in termbase for concept in mechanic.concepts), mechanic


def test_the_docs_name_every_edge_and_reference_kind() -> None:
    from rulekb.kb.graph.references import PATTERNS

    text = (Path(__file__).resolve().parents[2] / "docs" / "graph.md").read_text(encoding="utf-8")
    for kind in [*EDGE_KINDS, *(name for name, _ in PATTERNS)]:
        assert f"`{kind}`" in text, kind


def test_a_curated_passage_narrower_than_its_leaf_is_cited_and_quoted_by_its_own_lines(kg: KnowledgeGraph) -> None:
    narrower = []
    for concept in sorted({c for c, _ in kg.graph.nodes(data="kind") if isinstance(c, str) and c.startswith("concept:")}):
        comparison = kg.compare(concept.removeprefix("concept:"))
        for edition in comparison["editions"]:
            narrower += [p for p in edition["passages"] if p["leaf_lines"] != p["lines"]]
    assert narrower, "some curated passage is narrower than its leaf"
    for passage in narrower:
        a, b = passage["lines"]
        assert passage["leaf_lines"][0] <= a <= b <= passage["leaf_lines"][1]


def test_a_stratagem_is_compared_by_its_own_box(kg: KnowledgeGraph) -> None:
    comparison = kg.compare("fire-overwatch")
    (tenth,) = [e["passages"] for e in comparison["editions"] if e["edition"] == "10"]
    text = " ".join(p["text"] for p in tenth)
    # its own title and cost (printed on the last line of Rapid Ingress), not the next one's
    assert text.lstrip().startswith("КОНТРОЛЬ ЗА ПОЖАРОМ1CP") and "может стрелять по этому вражескому" in text
    assert "находящийся в резерве" not in text  # the stratagem printed before it
    assert "СПУСТИТЬСЯ НА ЗЕМЛЮ" not in text  # the stratagem printed after it
    assert {"6", "kt"} <= {e["edition"] for e in comparison["editions"]}  # overwatch: the same mechanic
