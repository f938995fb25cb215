"""A new edition needs only manifest entries: an [[edition]] table and a source that declares it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulekb.corpus.editions import load_editions
from rulekb.corpus.errors import CorpusError
from rulekb.corpus.reader import CORPUS_DIR
from rulekb.kb.termbase.model import DEFAULT_TERMS

NEW_EDITION = '''
[[edition]]
id = "11"
name = "11-я редакция"
name_en = "11th edition"
short = "11-я ред."
order = 0
era = 9
family = "11"
faq_prefix = "11e-"
colour = "#123456"
colour_dark = "#abcdef"
'''

#: ``rulekb`` with another termbase file (argv[1]).
BUILD = """
import sys
from pathlib import Path
import rulekb.kb.termbase.model
rulekb.kb.termbase.model.DEFAULT_TERMS = Path(sys.argv.pop(1))
from rulekb.webapp.cli import main
sys.argv[0] = "rulekb"
main()
"""

#: Run inside the temporary corpus (``RULEKB_CORPUS`` is read at import): the pages the edition must reach.
PAGES = '''
import json, sys
from rulekb.webapp import create_app
app = create_app({"TESTING": True, "BUILD_DIR": sys.argv[1], "SERVER_NAME": "rulekb.test"})
out = {}
with app.test_client() as client:
    for url in ["/search", "/search?q=%D0%BE%D0%B2%D0%B5%D1%80%D0%B2%D0%BE%D1%82%D1%87&edition=11", "/sources",
                "/api/sources", "/concepts/" + sys.argv[2]]:
        response = client.get(url)
        out[url.split("?")[0] if "edition" not in url else "filtered"] = [response.status_code, response.get_data(as_text=True)]
    css = app.extensions["rulekb_assets"]["editions.css"].data.decode()
    out["css"] = [200, css]
print(json.dumps(out))
'''


def test_an_edition_declared_only_in_the_manifest_is_built_searched_and_shown(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR / "sources", corpus / "sources")
    manifest = (CORPUS_DIR / "sources.toml").read_text(encoding="utf-8")
    # a copy of the Kill Team text as the one book of the new edition
    kt = re.search(r'(?ms)^\[\[source\]\]\nid = "kt"\n.*', manifest)
    assert kt is not None
    extra = kt.group(0).replace('id = "kt"', 'id = "kt-11"', 1).replace('edition = "kt"', 'edition = "11"', 1)
    manifest = manifest.replace("\n[[source]]\n", NEW_EDITION + "\n[[source]]\n", 1)
    (corpus / "sources.toml").write_text(manifest + "\n" + extra, encoding="utf-8")
    # concepts link through the termbase's renderings, which name their source: a new book gets its own
    # (here the Kill Team ones, repeated for the copy) — a termbase matter, not an edition one
    terms = DEFAULT_TERMS.read_text(encoding="utf-8")
    copies = re.findall(r'(?m)^\[\[concept\.rendering\]\]\nsource = "kt"\n(?:(?!\[\[|\n).*\n)*', terms)
    assert copies
    for block in copies:
        terms = terms.replace(block, block + block.replace('source = "kt"', 'source = "kt-11"'), 1)
    termbase = tmp_path / "terms.toml"
    termbase.write_text(terms, encoding="utf-8")
    env = {**os.environ, "RULEKB_CORPUS": str(corpus)}
    rulekb = str(Path(sys.executable).with_name("rulekb"))
    build = tmp_path / "build"
    done = subprocess.run([sys.executable, "-c", BUILD, str(termbase), "build", "--quiet", "--build-dir", str(build)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = subprocess.run([rulekb, "search", "--json", "--build-dir", str(build), "--edition", "11", "овервотч"],
                           env=env, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)["hits"]
    assert hits and {h["source_id"] for h in hits} == {"kt-11"}
    concepts = subprocess.run([rulekb, "concepts", "--json", "--build-dir", str(build)], env=env,
                              capture_output=True, text=True, timeout=120)
    assert concepts.returncode == 0, concepts.stderr
    shared = [c["concept"] for c in json.loads(concepts.stdout) if any(n["edition"] == "11" for n in c["nodes"])]
    assert shared, "no concept reaches the new edition"
    pages = subprocess.run([sys.executable, "-c", PAGES, str(build), shared[0]], env=env,
                           capture_output=True, text=True, timeout=300)
    assert pages.returncode == 0, pages.stderr
    out = json.loads(pages.stdout.strip().splitlines()[-1])
    assert all(status == 200 for status, _ in out.values()), {k: v[0] for k, v in out.items()}
    assert '<option value="11"' in out["/search"][1] and "11-я редакция" in out["/search"][1]
    assert "kt-11" in out["filtered"][1]
    assert "kt-11" in out["/sources"][1] and "11-я редакция" in out["/sources"][1]
    assert {s["id"]: s["edition"] for s in json.loads(out["/api/sources"][1])["sources"]}["kt-11"] == "11"
    assert "11-я редакция" in out["/concepts/" + shared[0]][1]
    assert "--ed-11: #123456" in out["css"][1] and ".ed-11 {" in out["css"][1]


def test_a_bad_edition_entry_is_refused_with_its_name(tmp_path: Path) -> None:
    manifest = tmp_path / "sources.toml"
    manifest.write_text(NEW_EDITION.replace('colour = "#123456"', 'colour = "blue"'), encoding="utf-8")
    with pytest.raises(CorpusError, match=r"\[\[edition\]\] #1 \('11'\): field 'colour'"):
        load_editions(manifest)
