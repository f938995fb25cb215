"""A new rulebook needs only a file and a manifest entry: a corpus with one more text builds and serves it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rulekb.corpus.reader import CORPUS_DIR


def test_a_text_listed_under_a_new_id_is_built_searched_and_cited(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR / "sources", corpus / "sources")
    manifest = (CORPUS_DIR / "sources.toml").read_text(encoding="utf-8")
    kt = re.search(r'(?ms)^\[\[source\]\]\nid = "kt"\n.*', manifest)
    assert kt is not None
    extra = kt.group(0).replace('id = "kt"', 'id = "kt-reprint"', 1)
    (corpus / "sources.toml").write_text(manifest + "\n" + extra, encoding="utf-8")
    env = {**os.environ, "RULEKB_CORPUS": str(corpus)}
    rulekb = str(Path(sys.executable).with_name("rulekb"))
    build = tmp_path / "build"
    done = subprocess.run([rulekb, "build", "--quiet", "--build-dir", str(build)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    nodes = json.loads((build / "nodes.json").read_text(encoding="utf-8"))
    sources = {n["source_id"] for n in (nodes if isinstance(nodes, list) else nodes["nodes"])}
    assert {"kt", "kt-reprint", "10e-core"} <= sources
    found = subprocess.run([rulekb, "search", "--json", "--build-dir", str(build), "--edition", "kt", "овервотч"],
                           env=env, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)["hits"]
    assert {h["source_id"] for h in hits} >= {"kt-reprint"}
