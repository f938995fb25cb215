"""Worked examples with positions: the loader's new fields, the restored diagrams, the contract's added fields."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulekb.corpus.errors import ExampleError
from rulekb.kb.examples.worked import load_examples, run_example, run_examples

EXAMPLES = load_examples()
HEAD = ('[[example]]\nid = "x-1"\ntitle = "t"\nrun = "table.measure"\nexplanation = "e"\nconcepts = ["range"]\n'
        'citations = [{source = "10e-core", lines = [188, 188], quotes = ["расстояния измеряются в дюймах"]}]\n')
TAIL = ('[example.inputs]\na = "A/1"\nb = "A/2"\nwithin = 2\n[example.positions]\n'
        'units = [{name = "A", models = [[1, 1], [3, 1]]}]\n[example.expected]\nwithin = true\n')

#: every caption the machine translation kept of the 10th edition's diagrams
LOST_CAPTIONS = [(369, 369), (411, 411), (413, 413), (415, 415), (417, 417), (419, 419), (421, 423), (454, 454),
                 (527, 527), (529, 529), (531, 531), (1010, 1010), (1021, 1023)]


def test_every_lost_diagram_is_restored_and_reproduces() -> None:
    restored = {e.figure.lines: e for e in EXAMPLES if e.figure is not None}
    assert sorted(restored) == LOST_CAPTIONS
    for example in restored.values():
        assert example.positions is not None and example.figure is not None
        assert example.figure.source == "10e-core"
        result = run_example(example)
        assert result.ok, (example.id, result.problems)


def test_a_positions_example_runs_and_is_drawn(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(HEAD + TAIL, encoding="utf-8")
    (out,) = run_examples(load_examples(tmp_path))
    assert out["ok"] and out["result"]["within"] is True
    assert out["positions"]["units"][0]["name"] == "A"
    ET.fromstring(out["svg"])
    assert "figure" not in out


def test_bad_positions_are_refused_with_the_field(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(HEAD + TAIL.replace("[[1, 1], [3, 1]]", "[[1]]"), encoding="utf-8")
    with pytest.raises(ExampleError) as info:
        load_examples(tmp_path)
    assert "'positions'" in info.value.message and "models[0]" in info.value.message


def test_a_wrong_caption_is_a_problem(tmp_path: Path) -> None:
    figure = 'figure = {source = "10e-core", lines = [1010, 1010], quotes = ["потребуется выбросить 8"]}\n'
    (tmp_path / "t.toml").write_text(HEAD + figure + TAIL, encoding="utf-8")
    (out,) = run_examples(load_examples(tmp_path))
    assert not out["ok"] and any(p.startswith("caption:") for p in out["problems"])


def test_a_wrong_rule_fails_the_example(tmp_path: Path) -> None:
    # the same models 2 1/2" apart are not within 2": the runner measures, it does not restate
    (tmp_path / "t.toml").write_text(HEAD + TAIL.replace("[3, 1]", "[3.5, 1]").replace("within = 2\n", "within = 1\n"),
                                     encoding="utf-8")
    (out,) = run_examples(load_examples(tmp_path))
    assert not out["ok"] and "within" in out["problems"][0]
