"""Serving properly and offline, without a browser: validators and 304s, gzip, hashed assets, the
web app manifest, the service worker and its precache list, the client search index, gunicorn."""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from rulekb.kb.search.offline import INDEX_FILE, fold_word, terms_of
from rulekb.kb.text.analysis import stem_en as server_stem_en
from rulekb.webapp import create_app
from rulekb.webapp.data import get_build

ROOT = Path(__file__).resolve().parents[2]


def _rebuilt_copy(built: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the build, and the same copy after what a new `rulekb build` changes: the manifest."""
    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    return copy, copy / "manifest.json"


def _new_manifest(manifest: Path) -> None:
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["timings_ms"]["total"] = data["timings_ms"].get("total", 0) + 1
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, manifest)
    stamp = manifest.stat().st_mtime_ns + 2_000_000_000
    os.utime(manifest, ns=(stamp, stamp))


def test_pages_carry_validators_tied_to_the_build_and_answer_304(built: Path, tmp_path: Path, leaf_at: Any) -> None:
    copy, manifest = _rebuilt_copy(built, tmp_path)
    client = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": False}).test_client()
    url = f"/rules/{leaf_at('6e-assault', 75).id}"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
    assert re.fullmatch(r'W/"[0-9a-f]{16}-[0-9a-f]{10}"', etag)
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == etag
    assert client.get(url, headers={"If-None-Match": f'"other", {etag}'}).status_code == 304
    assert client.get(url, headers={"If-Modified-Since": modified}).status_code == 304
    assert client.get(url, headers={"If-None-Match": 'W/"0000-0000"'}).status_code == 200
    assert client.get(url, headers={"If-Modified-Since": "Thu, 01 Jan 1970 00:00:01 GMT"}).status_code == 200
    for page in ("/search?q=чардж", "/api/ask?q=чардж", "/concepts/overwatch", "/terms"):
        response = client.get(page)
        assert response.headers["ETag"] == etag, page  # one build, one code: one validator
        assert client.get(page, headers={"If-None-Match": etag}).status_code == 304, page
    missing = client.get("/rules/no-such-rule")
    assert missing.status_code == 404 and "ETag" not in missing.headers
    _new_manifest(manifest)  # a new build: the old validator no longer matches
    fresh = client.get(url, headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != etag


def test_html_json_svg_and_assets_are_gzipped(client: FlaskClient, app: Flask) -> None:
    for url in ("/search?q=овервотч", "/api/ask?q=овервотч", "/manifest.webmanifest", "/concepts/charge"):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
        assert "Content-Encoding" not in plain.headers, url
        assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"], url
        assert gzip.decompress(packed.get_data()) == plain.get_data(), url
        assert len(packed.get_data()) < len(plain.get_data()) / 2, url
    assets = app.extensions["rulekb_assets"]
    for name in ("style.css", "app.js", "offline.js", "icons/icon.svg"):
        url = f"/assets/{assets[name].hashed}"
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.headers["Content-Encoding"] == "gzip", name
        assert gzip.decompress(response.get_data()) == (ROOT / "webapp" / "static" / name).read_bytes(), name
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert client.get(url, headers={"If-None-Match": response.headers["ETag"]}).status_code == 304
    png = client.get(f"/assets/{assets['icons/icon-192.png'].hashed}", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in png.headers  # already compressed


def test_an_outdated_asset_hash_gets_the_current_file_uncached(client: FlaskClient) -> None:
    response = client.get("/assets/style.0123456789.css")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    assert response.get_data() == (ROOT / "webapp" / "static" / "style.css").read_bytes()
    assert client.get("/assets/nothing.0123456789.css").status_code == 404


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_web_app_manifest_names_the_app_its_icons_and_colours(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/search" and manifest["scope"] == "/"
    assert manifest["name"] and manifest["short_name"] == "rulekb" and manifest["lang"] == "ru"
    css = (ROOT / "webapp" / "static" / "style.css").read_text(encoding="utf-8")
    assert manifest["background_color"] in css and manifest["theme_color"] in css
    sizes = {}
    for icon in manifest["icons"]:
        data = client.get(icon["src"]).get_data()
        if icon["type"] == "image/png":
            width, height = _png_size(data)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.setdefault(icon["purpose"], set()).add(width)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]
    page = client.get("/about").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    colours = re.findall(r'<meta name="theme-color" media="\(prefers-color-scheme: (\w+)\)" content="(#[0-9a-f]{6})">', page)
    assert dict(colours).keys() == {"light", "dark"}
    for _, colour in colours:
        assert colour in css  # the page backgrounds of the two themes


def test_the_service_worker_is_versioned_by_the_build_and_precaches_every_page(
    built: Path, tmp_path: Path
) -> None:
    copy, manifest = _rebuilt_copy(built, tmp_path)
    app = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": False})
    client = app.test_client()
    sw = client.get("/sw.js")
    assert sw.mimetype == "text/javascript" and sw.headers["Cache-Control"] == "no-cache"
    assert sw.headers["Service-Worker-Allowed"] == "/"
    body = sw.get_data(as_text=True)
    version = re.search(r'^const VERSION = "([^"]+)";', body, re.M)
    precache_url = re.search(r'^const PRECACHE_URL = "([^"]+)";', body, re.M)
    assert version and precache_url and body.endswith((ROOT / "webapp" / "static" / "sw.js").read_text(encoding="utf-8"))
    listing = client.get(precache_url.group(1)).get_json()
    assert listing["version"] == version.group(1) and listing["budget"] == 24 * 1024 * 1024
    build = get_build(copy)
    pages = set(listing["pages"])
    assert {f"/rules/{node_id}" for node_id in build.nodes} <= pages
    assert {f"/concepts/{cid}" for cid in build.concepts} <= pages and "/terms" in pages
    # every page of the termbase table (so every entry), the whole table and the report
    table = re.findall(r'<li><a href="(/terms\?page=\d+)">', client.get("/terms").get_data(as_text=True))
    assert len(table) > 1 and set(table) | {"/terms?page=all", "/terms/report"} <= pages
    for url in listing["shell"]:
        assert client.get(url).status_code == 200, url
    assert "/offline" in listing["shell"] and any(u.startswith("/offline/search-index.json") for u in listing["shell"])
    _new_manifest(manifest)
    newer = client.get("/sw.js").get_data(as_text=True)
    assert newer != body and version.group(1) not in newer  # the browser sees a new worker


def test_offline_routes_say_how_to_build_when_the_build_is_missing(missing_client: FlaskClient) -> None:
    for url in ("/sw.js", "/offline", "/offline/precache.json", "/offline/search-index.json"):
        response = missing_client.get(url)
        assert response.status_code == 503 and "rulekb build" in response.get_data(as_text=True), url
    assert missing_client.get("/manifest.webmanifest").status_code == 200  # the manifest needs no build


def test_the_client_index_folds_like_the_server(built: Path) -> None:
    index = json.loads((built / INDEX_FILE).read_text(encoding="utf-8"))
    assert index["fold"]["endings"] == sorted(index["fold"]["endings"], key=lambda e: (-len(e), e))
    latin = {w for doc in index["docs"] for w in re.findall(r"[a-z]+", doc[1].lower() + " " + doc[4].lower())}
    latin |= {w for entry in index["faq"] for w in re.findall(r"[a-z]+", entry[0].lower())}
    assert len(latin) > 50
    for word in latin | {"charges", "fell", "overwatching", "piles"}:
        assert fold_word(word) == server_stem_en(word), word  # the server's English stemmer
    for forms in (("чардж", "чарджа", "чарджем", "чарджи"), ("отряд", "отряда", "отрядов", "отрядами"),
                  ("атакующий", "атакующего", "атакующими"), ("ещё", "еще")):
        assert len({fold_word(f) for f in forms}) == 1, forms
    assert terms_of("Пайл-ин на 3\" и 2Д6") == ["пайл", "ин", "на", "3", "и", "2d6"]


def test_the_client_index_leads_slang_to_the_defining_rules(built: Path) -> None:
    index = json.loads((built / INDEX_FILE).read_text(encoding="utf-8"))
    concepts = json.loads((built / "concepts.json").read_text(encoding="utf-8"))
    ids = [doc[0] for doc in index["docs"]]
    for query, concept in (("чардж", "charge"), ("overwatch", "overwatch"), ("пайл ин", "pile-in")):
        defining = {ref["node_id"] for c in concepts if c["concept"] == concept for ref in c["nodes"] if ref["role"] == "defines"}
        assert defining, concept
        scores: dict[int, float] = {}
        for term in terms_of(query):
            flat = index["postings"][term]
            for doc, weight in zip(flat[::2], flat[1::2], strict=True):
                scores[doc] = scores.get(doc, 0) + weight
        best = sorted(scores, key=lambda d: -scores[d])[:5]
        assert defining & {ids[d] for d in best}, (query, [ids[d] for d in best])
    data = (built / INDEX_FILE).read_bytes()
    assert len(gzip.compress(data)) < 400_000  # compact enough for a slow phone


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _wait_for(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_gunicorn_serves_with_sync_workers_logs_access_and_reloads_on_a_new_build(built: Path, tmp_path: Path) -> None:
    from rulekb.webapp.gunicorn_conf import default_workers

    assert default_workers(cores=2, available_mb=24_000) == 5
    assert default_workers(cores=16, available_mb=24_000) == 8
    assert default_workers(cores=2, available_mb=700) == 2
    copy, manifest = _rebuilt_copy(built, tmp_path)
    port = _free_port()
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    env = {**os.environ, "RULEKB_BUILD_DIR": str(copy), "RULEKB_BIND": f"127.0.0.1:{port}", "RULEKB_WORKERS": "2",
           "RULEKB_RELOAD_POLL": "0.3"}
    gunicorn = Path(sys.executable).parent / "gunicorn"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        server = subprocess.Popen(
            [str(gunicorn), "-c", "webapp/gunicorn_conf.py", "rulekb.webapp:create_app()"],
            cwd=ROOT, env=env, stdout=stdout, stderr=stderr, start_new_session=True,
        )
        try:
            def up() -> bool:
                try:
                    return _get(port, "/about") == 200
                except OSError:
                    return False

            assert _wait_for(up, 60), err.read_text()
            assert _wait_for(lambda: err.read_text().count("warm in") == 2, 60), err.read_text()  # before real requests
            log = err.read_text()
            assert "sync" in log and log.count("Booting worker") == 2 and "[200, 200, 200]" in log
            assert _wait_for(lambda: '"GET /about HTTP/1.1" 200' in out.read_text(), 10)  # access log on stdout
            _new_manifest(manifest)
            assert _wait_for(lambda: "reloading the workers gracefully" in err.read_text(), 20), err.read_text()
            assert _wait_for(lambda: err.read_text().count("Booting worker") >= 4, 30), err.read_text()
            assert _wait_for(lambda: err.read_text().count("warm in") >= 4, 60), err.read_text()
            assert _get(port, "/about") == 200
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def test_run_sh_serves_with_gunicorn() -> None:
    script = (ROOT / "scripts" / "run.sh").read_text(encoding="utf-8")
    last = [line for line in script.splitlines() if line.strip() and not line.startswith("#")][-1]
    assert last.startswith("exec .venv/bin/gunicorn -c webapp/gunicorn_conf.py") and "rulekb serve" not in last


def test_a_page_asked_again_in_the_same_build_is_sent_without_running_its_view(
    built: Path, tmp_path: Path, leaf_at: Any, monkeypatch: Any
) -> None:
    import rulekb.webapp.views.rules

    copy, manifest = _rebuilt_copy(built, tmp_path)
    client = create_app({"TESTING": True, "BUILD_DIR": copy, "WARM_UP": False}).test_client()
    renders: list[str] = []
    real = rulekb.webapp.views.rules.render_template

    def counting(name: str, **context: Any) -> str:
        renders.append(name)
        return real(name, **context)

    monkeypatch.setattr(rulekb.webapp.views.rules, "render_template", counting)
    url = f"/rules/{leaf_at('10e-core', 317).id}"
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    again = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert len(renders) == 1
    assert again.get_data() == first.get_data() and again.headers["Content-Encoding"] == "gzip"
    assert again.headers["ETag"] == first.headers["ETag"] and again.headers["Content-Security-Policy"]
    assert again.content_type == first.content_type == "text/html; charset=utf-8"
    plain = client.get(url)
    assert len(renders) == 2 and gzip.decompress(first.get_data()) == plain.get_data()  # each encoding once
    _new_manifest(manifest)
    client.get(url, headers={"Accept-Encoding": "gzip"})
    assert len(renders) == 3  # a new build renders again


def test_the_serving_settings_are_documented_with_their_defaults(app: Flask) -> None:
    doc = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    for name in ("GZIP_MIN_SIZE", "GZIP_LEVEL", "OFFLINE_BUDGET_BYTES"):
        row = re.search(rf"^\| `{name}` \| ([^|]+) \|", doc, flags=re.M)
        assert row and row.group(1).strip() == str(app.config[name]), name


def test_pages_that_depend_on_the_played_edition_are_cached_per_player(built: Path) -> None:
    """The answer card puts the player's edition first: a page cached for one player must not be
    served, or validated with a 304, to a player of another edition."""
    from rulekb.webapp.caching import VARY_COOKIES

    client = create_app({"BUILD_DIR": built, "TESTING": True}).test_client()
    url = "/search?q=" + "дальность чарджа"
    plain = client.get(url)
    client.set_cookie(VARY_COOKIES[0], "6")
    sixth = client.get(url)
    assert plain.status_code == sixth.status_code == 200
    assert plain.headers["ETag"] != sixth.headers["ETag"]
    assert "Cookie" in sixth.headers.get("Vary", "")
    assert client.get(url, headers={"If-None-Match": plain.headers["ETag"]}).status_code == 200
    assert client.get(url, headers={"If-None-Match": sixth.headers["ETag"]}).status_code == 304


def test_each_app_has_its_own_response_cache(built: Path) -> None:
    """Two apps in one process never share cached pages: a page depends on the app's settings too
    (with BASE_URL a rule page's permalink is absolute)."""
    nodes = json.loads((built / "nodes.json").read_text(encoding="utf-8"))
    node_id = next(n["id"] for n in (nodes if isinstance(nodes, list) else nodes["nodes"]) if n["kind"] == "rule")
    path = f"/rules/{node_id}"
    relative = create_app({"BUILD_DIR": built, "TESTING": True}).test_client().get(path)
    absolute = create_app({"BUILD_DIR": built, "TESTING": True, "BASE_URL": "https://rulekb.example"})
    page = absolute.test_client().get(path)
    assert relative.status_code == page.status_code == 200
    assert f"https://rulekb.example{path}" not in relative.get_data(as_text=True)
    assert f"https://rulekb.example{path}" in page.get_data(as_text=True)
