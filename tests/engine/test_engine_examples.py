"""Every worked example in kb/examples/ runs through the engine and quotes its source exactly."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulekb.corpus.errors import ExampleError
from rulekb.corpus.reader import find_source
from rulekb.kb.examples.worked import (
    EXAMPLES_DIR,
    Citation,
    check_quotes,
    load_examples,
    matches,
    resolve_rule_ids,
    run_example,
    run_examples,
)

EXAMPLES = load_examples()
BY_ID = {e.id: e for e in EXAMPLES}


@pytest.mark.parametrize("example_id", sorted(BY_ID))
def test_example_reproduces_its_numbers(example_id: str) -> None:
    result = run_example(BY_ID[example_id])
    assert result.ok, result.problems


@pytest.mark.parametrize("example_id", sorted(BY_ID))
def test_example_quotes_are_in_the_cited_lines(example_id: str) -> None:
    for citation in BY_ID[example_id].citations:
        assert check_quotes(citation) == []


def test_the_books_printed_examples_are_covered() -> None:
    printed = [e for e in EXAMPLES if e.printed]
    assert len(printed) >= 40
    by_source: dict[str, set[str]] = {}
    for e in printed:
        for c in e.citations:
            by_source.setdefault(c.source, set()).update(e.concepts)
    assert {"rapid-fire", "melta", "blast", "sustained-hits", "devastating-wounds", "hazardous", "indirect-fire",
            "armour-save", "starting-strength", "random-characteristics", "anti", "deadly-demise"} <= by_source["10e-core"]
    assert {"modifier", "d3", "random-selection", "dividing-rolls"} <= by_source["6e-rules"]
    assert {"attacks", "charge", "difficult-terrain", "weapon-skill", "toughness", "initiative-step"} <= by_source["6e-assault"]
    assert {"bikes", "fall-back"} <= by_source["7e-pp58-67"]


def test_every_concept_is_a_termbase_concept() -> None:
    terms = tomllib.loads((EXAMPLES_DIR.parent / "data" / "terms.toml").read_text(encoding="utf-8"))
    known = {c["id"] for c in terms["concept"]}
    from rulekb.engine import runners  # noqa: F401 - importing registers every rule function
    from rulekb.engine.concepts import REGISTRY

    assert {c for e in EXAMPLES for c in e.concepts} - known == set()
    assert set(REGISTRY) - known == set()


def test_contract_with_rule_ids_from_the_parsed_corpus(corpus) -> None:  # type: ignore[no-untyped-def]
    out = run_examples(nodes=corpus.nodes)
    assert len(out) == len(EXAMPLES)
    assert all(item["ok"] for item in out)
    rapid = next(item for item in out if item["id"] == "10e-rapid-fire-1-half-range")
    assert set(rapid) >= {"id", "rule_ids", "concepts", "citations", "inputs", "expected", "result", "ok"}
    assert rapid["citations"][0]["source_sha256"] == find_source("10e-core").sha256
    assert rapid["result"] == {"attacks": 2, "hit_rolls": 2}
    assert rapid["rule_ids"] and all(r.startswith("10e-core/") for r in rapid["rule_ids"])
    leaf_ids = {n.id for n in corpus.nodes if n.is_leaf}
    assert all(r in leaf_ids for item in out for r in item["rule_ids"])
    assert all(item["rule_ids"] for item in out)


@dataclass(frozen=True)
class Node:
    id: str
    source_id: str
    lines: tuple[int, int]
    is_leaf: bool = True


def test_resolve_rule_ids_with_synthetic_nodes() -> None:
    nodes = [
        Node("a/root", "a", (1, 1), is_leaf=False),
        Node("a/one", "a", (2, 5)),
        Node("a/two", "a", (6, 9)),
        Node("a/three", "a", (10, 12)),
        Node("b/one", "b", (1, 20)),
    ]
    assert resolve_rule_ids([Citation(source="a", lines=(5, 6), quotes=("x",))], nodes) == ["a/one", "a/two"]
    assert resolve_rule_ids([Citation(source="a", lines=(1, 1), quotes=("x",))], nodes) == []
    assert resolve_rule_ids([Citation(source="b", lines=(3, 3), quotes=("x",)), Citation(source="a", lines=(11, 11), quotes=("x",))], nodes) == [
        "a/three", "b/one"]


@pytest.mark.parametrize("body, field", [
    ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "nope"\nexplanation = "e"\nconcepts = ["d3"]\n'
     'citations = [{source = "10e-core", lines = [224, 224], quotes = ["D3"]}]\ninputs = {}\nexpected = {a = 1}\n', "run"),
    ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["d3"]\n'
     'citations = [{source = "10e-core", lines = [224, 9999], quotes = ["D3"]}]\ninputs = {}\nexpected = {a = 1}\n',
     "citations[0].lines"),
    ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["d3"]\n'
     'citations = [{source = "11e", lines = [1, 1], quotes = ["D3"]}]\ninputs = {}\nexpected = {a = 1}\n',
     "citations[0].source"),
    ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["d3"]\n'
     'citations = []\ninputs = {}\nexpected = {a = 1}\n', "citations"),
    ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["D3!"]\n'
     'citations = [{source = "10e-core", lines = [224, 224], quotes = ["D3"]}]\ninputs = {}\nexpected = {a = 1}\n',
     "concepts"),
    ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["d3"]\ncolour = 1\n'
     'citations = [{source = "10e-core", lines = [224, 224], quotes = ["D3"]}]\ninputs = {}\nexpected = {a = 1}\n',
     "colour"),
])
def test_malformed_examples_name_file_id_and_field(tmp_path: Path, body: str, field: str) -> None:
    (tmp_path / "broken.toml").write_text(body, encoding="utf-8")
    with pytest.raises(ExampleError) as info:
        load_examples(tmp_path)
    message = str(info.value.message)
    assert "broken.toml" in message and "'x-1'" in message and f"'{field}'" in message


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    entry = ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["d3"]\n'
             'citations = [{source = "10e-core", lines = [224, 224], quotes = ["D3"]}]\ninputs = {expr = "D3"}\n'
             'expected = {min = 1}\n')
    (tmp_path / "a.toml").write_text(entry, encoding="utf-8")
    (tmp_path / "b.toml").write_text(entry, encoding="utf-8")
    with pytest.raises(ExampleError, match="already used in a.toml"):
        load_examples(tmp_path)


def test_a_wrong_quote_or_number_is_reported(tmp_path: Path) -> None:
    (tmp_path / "wrong.toml").write_text(
        '[[example]]\nid = "x-1"\ntitle = "t"\nrun = "dice.expression"\nexplanation = "e"\nconcepts = ["d3"]\n'
        'citations = [{source = "10e-core", lines = [224, 224], quotes = ["бросьте D8"]}]\n'
        'inputs = {expr = "D3"}\nexpected = {max = 4}\n', encoding="utf-8")
    (example,) = load_examples(tmp_path)
    problems = run_example(example).problems
    assert any("бросьте D8" in p for p in problems)
    assert any(p.startswith("max: expected 4") for p in problems)


def test_matches_is_exact() -> None:
    from fractions import Fraction

    assert matches("7/12", Fraction(7, 12)) and not matches("7/12", Fraction(7, 13))
    assert matches(2, Fraction(2)) and matches({"a": [1, "1/2"]}, {"a": [1, Fraction(1, 2)], "b": 3})
    assert not matches(True, 1) and not matches(1, True)
    assert matches(0.5, Fraction(1, 2)) and not matches([1, 2], [1])


def test_docs_list_every_printed_example_and_runner() -> None:
    from rulekb.engine.calc import CONTRACT_KEYS
    from rulekb.engine.runners import RUNNERS

    doc = (EXAMPLES_DIR.parents[1] / "docs" / "engine.md").read_text(encoding="utf-8")
    assert [e.id for e in EXAMPLES if e.printed and f"`{e.id}`" not in doc] == []
    assert [name for name in RUNNERS if f"`{name}`" not in doc] == []
    assert all(f'"{key}"' in doc for key in CONTRACT_KEYS)
