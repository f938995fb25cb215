"""The web app reads nothing but build/ at request time.

Every route is served, in a fresh process, from the session's build in a temporary directory while
an audit hook refuses any opening of the source tree's texts (``corpus/sources/``), its manifest
(``corpus/sources.toml``) and the project's data files (``kb/data/``); each route must answer what it
answers with the source tree in reach, and nothing may have tried to open those files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[2]

#: Run in a fresh process (no module cache has read the source tree yet): argv = build dir, project
#: root, a JSON file of requests. Prints {"status": [...], "refused": [...], "probe": "..."}.
SEALED = r'''
import json, os, sys
from pathlib import Path

build_dir, root, requests = Path(sys.argv[1]), Path(sys.argv[2]).resolve(), json.loads(Path(sys.argv[3]).read_text())
sealed = [str(root / "corpus" / "sources"), str(root / "kb" / "data")]
refused = []

def hook(event, args):
    if event != "open" or not args or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    path = os.path.abspath(os.fsdecode(args[0]))
    if any(path == s or path.startswith(s + os.sep) or path.startswith(s + ".") for s in sealed):
        import traceback
        where = [f"{f.filename}:{f.lineno}" for f in traceback.extract_stack()[:-1] if str(root) in f.filename]
        refused.append(path + " from " + " < ".join(reversed(where[-6:])))
        raise PermissionError(f"sealed: {path}")

from rulekb.webapp import create_app
from rulekb.webapp.views.warm import warm

sys.addaudithook(hook)
try:
    open(root / "kb" / "data" / "terms.toml").close()
    probe = "open"
except PermissionError:
    probe = "refused"
refused.clear()
app = create_app({"TESTING": True, "BUILD_DIR": build_dir, "SERVER_NAME": "rulekb.test", "WARM_UP": False})
status = []
with app.test_client() as client:
    for method, url, data in requests:
        response = client.open(url, method=method, data=data)
        status.append(response.status_code)
        response.close()
    from rulekb.webapp.data import get_build
    warm(app, get_build(build_dir))
print(json.dumps({"status": status, "refused": sorted(set(refused)), "probe": probe}))
'''


def _requests(app: Flask, built: Path) -> list[tuple[str, str, dict[str, str] | None]]:
    """A request for every route of the app (each argument filled from the build), plus 404s and POSTs."""
    nodes = json.loads((built / "nodes.json").read_text(encoding="utf-8"))
    terms = json.loads((built / "terms.json").read_text(encoding="utf-8"))
    leaf = next(n for n in nodes if n["kind"] not in ("source", "chapter", "section"))
    concept = terms[0]["concept"]
    values = {
        "node_id": leaf["id"],
        "concept_id": concept,
        "source_id": leaf["source_id"],
        "line": str(leaf["lines"][0]),
        "filename": "style.css",
        "name": app.extensions["rulekb_assets"]["style.css"].hashed,
    }
    requests: list[tuple[str, str, dict[str, str] | None]] = []
    for rule in app.url_map.iter_rules():
        url = rule.rule
        for name in rule.arguments:
            url = url.replace(f"<path:{name}>", values[name]).replace(f"<int:{name}>", values[name])
            url = url.replace(f"<{name}>", values[name])
        requests.append(("GET", url, None))
        if "<" in rule.rule and "static" not in rule.endpoint:
            requests.append(("GET", rule.rule.split("<")[0] + "no-such-thing", None))
    draft = "Сначала\nсделайте ударную калитку. Зона досягаемости отряда."
    requests += [
        ("GET", "/search?q=дальность+чарджа+в+6-й", None),
        ("GET", "/api/ask?q=не+докатил+чардж", None),
        ("GET", "/api/search?q=overwatch", None),
        # one question of each card kind: terminology, English, comparison, yes/no
        ("GET", "/api/ask?q=как+переведён+Overwatch", None),
        ("GET", "/api/ask?q=how+far+can+a+unit+charge", None),
        ("GET", "/api/ask?q=чем+отличается+овервотч+в+6-й+и+10-й", None),
        ("GET", "/search?q=можно+ли+стрелять+после+фолбэка", None),
        ("GET", "/terms?q=калитка", None),
        ("GET", "/terms?page=3", None),
        ("GET", "/terms?page=all", None),
        ("POST", "/terms/check", {"draft": draft}),
        ("POST", "/terms/check", {"draft": draft, "source": "10e-core"}),
        ("POST", "/terms/check", {"draft": draft, "edition": "6"}),
        ("POST", "/terms/check", {"draft": draft, "edition": "99"}),
    ]
    return requests


def test_every_route_answers_from_the_build_alone(app: Flask, client: FlaskClient, built: Path, tmp_path: Path) -> None:
    requests = _requests(app, built)
    expected = []
    for method, url, data in requests:
        response = client.open(url, method=method, data=data)
        expected.append(response.status_code)
        response.close()
    assert set(expected) <= {200, 302, 400, 404, 405}, dict(zip([r[1] for r in requests], expected, strict=True))
    assert expected.count(200) > 20
    script, listing = tmp_path / "sealed.py", tmp_path / "requests.json"
    script.write_text(SEALED, encoding="utf-8")
    listing.write_text(json.dumps(requests, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(built), str(ROOT), str(listing)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["probe"] == "refused", "the audit hook must seal the source tree"
    assert result["refused"] == [], "the web app opened the source tree at request time:\n" + "\n".join(result["refused"])
    answered = dict(zip([f"{m} {u}" for m, u, _ in requests], result["status"], strict=True))
    assert answered == dict(zip([f"{m} {u}" for m, u, _ in requests], expected, strict=True))
