"""Worked examples on rule pages: inputs, steps, the expected outcome and the exact distribution as SVG.

The build's ``examples.json`` (the ``rulekb examples --json`` list) is read when present; here a copy
of the session's build gets one example about a real rule, so the page is tested whatever the
examples data holds today.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from rulekb.kb.build import seal_build
from rulekb.webapp import create_app


def test_rule_page_renders_a_worked_example_with_its_chart(built: Path, tmp_path: Path, leaf_at: Any) -> None:
    from rulekb.engine.calc import calculate

    node = leaf_at("10e-core", 606)
    result = calculate({"edition": "10", "attacker": {"models": 1}, "weapon": {"attacks": 3, "skill": 3}})
    example = {
        "id": "hit-roll-three-shots",
        "rule_ids": [node.id],
        "concepts": ["hit-roll"],
        "citations": [{"source_sha256": "x", "lines": list(node.lines), "quotes": ["бросок на попадание"]}],
        "inputs": {"weapon": {"attacks": 3, "skill": "3+"}},
        "expected": {"hits": "2"},
        "result": result,
        "ok": True,
    }
    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    (copy / "examples.json").write_text(json.dumps([example], ensure_ascii=False), encoding="utf-8")
    seal_build(copy)  # the edited build is whole again
    client = create_app({"TESTING": True, "BUILD_DIR": copy}).test_client()
    html = client.get(f"/rules/{node.id}").get_data(as_text=True)
    section = html.split('aria-label="Разобранные примеры"')[1]
    assert "hit-roll-three-shots" in section and "✓ сходится" in section
    assert "<dt>weapon.attacks</dt><dd>3</dd>" in section
    assert section.count("<li>") >= len(result["steps"])
    svg = re.search(r"<svg.*?</svg>", section, flags=re.S)
    assert svg is not None
    bars = ET.fromstring(svg.group(0)).findall(".//{http://www.w3.org/2000/svg}rect")
    assert len(bars) == len(result["distributions"]["hits"])
    other = client.get(f"/rules/{leaf_at('kt', 3).id}").get_data(as_text=True)
    assert "Разобранные примеры" not in other


def test_rule_pages_show_the_projects_worked_examples(client: Any, built: Path) -> None:
    from rulekb.kb.build import load_nodes
    from rulekb.kb.examples.worked import run_examples

    examples = run_examples(nodes=load_nodes(built))
    with_dist = next(e for e in examples if e["rule_ids"] and len((e["result"] or {}).get("p_hits") or {}) > 1)
    html = client.get(f"/rules/{with_dist['rule_ids'][0]}").get_data(as_text=True)
    section = html.split('aria-label="Разобранные примеры"')[1]
    card = section.split(f'id="ex-{with_dist["id"]}"')[1].split("</article>")[0]
    assert with_dist["title"] in card
    bars = ET.fromstring(re.search(r"<svg.*?</svg>", card, flags=re.S).group(0))  # type: ignore[union-attr]
    assert len(bars.findall(".//{http://www.w3.org/2000/svg}rect")) == len(with_dist["result"]["p_hits"])
    for key, value in with_dist["expected"].items():
        assert f"<dt>{key}</dt><dd>{value}</dd>" in card


def test_rule_page_and_api_show_a_restored_diagram(client: Any, leaf_at: Any) -> None:
    # the session's build runs the real examples: the caption of 10e-core 1010 is restored as a diagram
    node = leaf_at("10e-core", 1010)
    html = client.get(f"/rules/{node.id}").get_data(as_text=True)
    assert 'class="table-diagram"' in html and "Восстановленная схема (10e-core, строка 1010)" in html
    svg = html.split('<svg xmlns="http://www.w3.org/2000/svg" class="table-diagram"')[1].split("</svg>")[0]
    assert "<circle" in svg and "<polygon" in svg and "<script" not in svg
    api = client.get(f"/api/rules/{node.id}").get_json()
    diagrams = {d["example"]: d for d in api["diagrams"]}
    assert "10e-diagram-charge-onto-terrain" in diagrams
    figure = diagrams["10e-diagram-charge-onto-terrain"]["figure"]
    assert figure["lines"] == [1010, 1010] and figure["source"] == "10e-core"
    ET.fromstring(diagrams["10e-diagram-charge-onto-terrain"]["svg"])  # well-formed XML


def test_every_rule_page_with_a_worked_example_renders(built: Path) -> None:
    """Examples' results are free-form mappings: a runner's own ``steps`` count must not be taken for
    the calculator's list of steps (it once broke three rule pages)."""
    examples = json.loads((built / "examples.json").read_text(encoding="utf-8"))
    pages = sorted({rule_id for example in examples for rule_id in example["rule_ids"]})
    assert any(not isinstance(e["result"].get("steps", []), list) for e in examples if isinstance(e["result"], dict))
    client = create_app({"TESTING": True, "BUILD_DIR": built}).test_client()
    broken = [page for page in pages if client.get(f"/rules/{page}").status_code != 200]
    assert not broken
