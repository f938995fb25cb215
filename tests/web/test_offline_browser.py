"""The installable offline app in real headless Chromium (Debian ``chromium`` through Playwright).

Each test serves its own copy of the session's build on a free loopback port (a werkzeug server in
a thread) and records every request that reaches it, so "offline" is checked twice: the browser
context is set offline *and* the server must see no request meanwhile. The service worker runs
for real: it installs, precaches, takes over, serves pages offline, and is replaced when the build
changes (the main test builds twice).

Without ``/usr/bin/chromium`` these tests skip, unless ``CI`` is set: then they fail.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

import pytest
from werkzeug.serving import make_server

from rulekb.kb.search.offline import INDEX_FILE, terms_of
from rulekb.webapp import create_app

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 640}

#: What the page-side script knows about the worker's caches: the precache record and the cache names.
STATUS_JS = """async () => {
  const keys = await caches.keys();
  for (const key of keys) {
    const found = await (await caches.open(key)).match('/offline/status.json');
    if (found) return {keys: keys, status: await found.json()};
  }
  return {keys: keys, status: null};
}"""


@dataclass
class Site:
    base_url: str
    build_dir: Path
    requests: list[tuple[str, str, int, str | None]] = field(default_factory=list)

    def paths(self, since: int = 0) -> list[str]:
        return [path for _, path, _, _ in self.requests[since:]]


@contextmanager
def serve(build_dir: Path, **config: Any) -> Iterator[Site]:
    app = create_app({"BUILD_DIR": build_dir, "WARM_UP": False, **config})
    site = Site("", build_dir)
    inner = app.wsgi_app
    lock = threading.Lock()

    def recording(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            with lock:
                site.requests.append(
                    (environ["REQUEST_METHOD"], environ["PATH_INFO"], int(status.split()[0]), environ.get("HTTP_IF_NONE_MATCH"))
                )
            return start_response(status, headers, exc_info)

        return inner(environ, start)

    app.wsgi_app = recording  # type: ignore[method-assign]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    site.base_url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, name="rulekb-offline-test-server", daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()





@pytest.fixture(scope="module")
def playwright(chromium_path: Path, playwright_driver: Any) -> Any:
    return playwright_driver


@pytest.fixture(scope="module")
def browser(playwright: Any, chromium_path: Path) -> Iterator[Any]:
    launched = playwright.chromium.launch(executable_path=str(chromium_path), args=ARGS)
    try:
        yield launched
    finally:
        launched.close()


def _copy(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "build"
    shutil.copytree(built, copy)
    return copy


def wait_precached(page: Any, version: str | None = None, timeout: float = 240) -> dict[str, Any]:
    """The worker's precache record once it has finished (for ``version``, when given)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = page.evaluate(STATUS_JS)
        status = found["status"]
        if status and (version is None or status["version"] == version):
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            return dict(found)
        time.sleep(0.5)
    raise AssertionError(f"the service worker did not finish precaching within {timeout:.0f} s: {found}")


def wait_keys_gone(page: Any, names: set[str], timeout: float = 60) -> list[str]:
    """The cache names once none of ``names`` is left: the new worker deletes the old caches when it
    activates, which may come a moment after its precache record is written."""
    deadline = time.monotonic() + timeout
    keys: list[str] = page.evaluate("caches.keys()")
    while names & set(keys) and time.monotonic() < deadline:
        time.sleep(0.5)
        keys = page.evaluate("caches.keys()")
    return keys


def _defining(build_dir: Path, concept: str) -> set[str]:
    concepts = json.loads((build_dir / "concepts.json").read_text(encoding="utf-8"))
    return {r["node_id"] for c in concepts if c["concept"] == concept for r in c["nodes"] if r["role"] == "defines"}


def _sw_version(page: Any) -> str:
    body: str = page.evaluate("fetch('/sw.js', {cache: 'no-store'}).then(r => r.text())")
    return body.split('const VERSION = "', 1)[1].split('"', 1)[0]


def test_the_manifest_is_valid_and_the_page_is_installable(
    playwright: Any, chromium_path: Path, built: Path, tmp_path: Path
) -> None:
    budget = 3 * 1024 * 1024
    with serve(_copy(built, tmp_path), OFFLINE_BUDGET_BYTES=budget) as site:
        # a persistent profile: Chromium never offers to install from an incognito context
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(chromium_path), args=ARGS, base_url=site.base_url,
            viewport=PHONE,
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto("/")
            found = wait_precached(page)
            status = found["status"]
            assert status["bytes"] <= budget and status["skipped"] > 0 and status["failed"] == 0  # the budget holds
            cdp = context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"] == f"{site.base_url}/manifest.webmanifest"
            assert manifest["errors"] == [], manifest["errors"]
            parsed = json.loads(manifest["data"])
            assert parsed["display"] == "standalone" and parsed["start_url"] == "/search"
            errors: list[Any] = []
            for _ in range(20):  # the check needs the worker to control the page
                errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
                if not errors:
                    break
                page.reload()
                time.sleep(0.5)
            assert errors == []
        finally:
            context.close()


def test_offline_after_one_visit_and_a_new_build_replaces_the_cache(
    browser: Any, built: Path, tmp_path: Path, leaf_at: Any
) -> None:
    build_dir = _copy(built, tmp_path)
    with serve(build_dir) as site:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, base_url=site.base_url
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            # one online visit: the home page, and one search the server answers
            page.goto("/")
            first = wait_precached(page)
            status = first["status"]
            assert status["failed"] == 0 and status["skipped"] == 0 and status["stored"] == status["pages"] > 1000
            assert status["bytes"] <= status["budget"]
            assert [k for k in first["keys"] if not k.startswith("rulekb-runtime-")] == [f"rulekb-{status['version']}"]
            page.reload()  # now controlled by the worker
            asked = "/search?q=" + quote("проверка на боевой шок")
            page.goto(asked)
            page.wait_for_selector("ol.results .hit")
            online_titles = page.locator("ol.results a.hit-title").all_inner_texts()
            node = leaf_at("6e-assault", 75)
            rule_url = f"/rules/{node.id}"

            context.set_offline(True)
            seen = len(site.requests)
            # a rule page never visited opens
            page.goto(rule_url)
            assert page.locator("article.rule h1").inner_text().strip() == (node.title_clean or node.title).strip()
            notice = page.locator("#offline-notice")
            assert notice.is_visible() and "Нет сети" in notice.inner_text() and "без полного текста" in notice.inner_text()
            # the termbase: a page of its table never visited, through the letter index, and the report
            page.goto("/terms")
            page.locator("nav.letters").get_by_role("link", name="S", exact=True).click()
            page.wait_for_url("**/terms?page=*#c-*")
            anchor = urlparse(page.url).fragment
            assert page.locator(f"tr#{anchor}").is_visible() and page.locator(f"tr#{anchor} strong").inner_text().startswith("S")
            page.goto("/terms/report")
            assert page.locator("main h1").inner_text() == "Расхождения в переводах"
            # the termbase's search box: the client index finds the concept by slang and by a
            # machine translation, and its concept page opens
            for query, concept in (("овервотч", "overwatch"), ("ударная калитка", "hit-roll")):
                page.goto("/terms?q=" + quote(query))
                page.wait_for_selector("#offline-page[data-searched='1']")
                found = page.locator("ul.offline-terms a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
                assert f"/concepts/{concept}" in found, (query, found)
            page.locator(f"ul.offline-terms a[href='/concepts/{concept}']").click()
            page.wait_for_selector("main h1")
            assert urlparse(page.url).path == f"/concepts/{concept}"
            # searches run against the client index and give rule results
            for query, concept in (("чардж", "charge"), ("overwatch", "overwatch"), ("пайл ин", "pile-in")):
                page.goto("/")  # the search page, from the cache
                page.fill("#q", query)
                page.press("#q", "Enter")
                page.wait_for_selector("#offline-page[data-searched='1']")
                assert page.locator("#offline-notice").is_visible()
                hrefs = [page.locator("ol.offline-results a.hit-title").nth(i).get_attribute("href") for i in range(
                    page.locator("ol.offline-results a.hit-title").count())]
                assert len(hrefs) >= 3 and all(h and h.startswith("/rules/") for h in hrefs), (query, hrefs)
                top = {urlparse(h).path.removeprefix("/rules/") for h in hrefs[:5] if h}
                assert top & _defining(build_dir, concept), (query, hrefs)
                page.locator("ol.offline-results a.hit-title").first.click()  # and the result opens offline
                page.wait_for_selector("article.rule h1")
            # the answer asked online is still there
            page.goto(asked)
            assert page.locator("ol.results a.hit-title").all_inner_texts() == online_titles
            assert page.locator("#offline-notice").is_visible()
            # Nothing the pages asked for reached the server. The browser's own update check of the
            # service worker script runs outside the page's emulated network and may come at any time.
            assert [p for p in site.paths(seen) if p != "/sw.js"] == [], site.paths(seen)
            context.set_offline(False)

            # a new build: the worker is replaced and the old cache deleted
            from rulekb.kb.build import build

            build(out=build_dir)
            page.goto("/about")
            new_version = _sw_version(page)
            assert new_version != status["version"]
            page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
            second = wait_precached(page, version=new_version)
            assert second["status"]["stored"] == second["status"]["pages"]
            keys = wait_keys_gone(page, {f"rulekb-{status['version']}", f"rulekb-runtime-{status['version']}"})
            assert f"rulekb-{status['version']}" not in keys
            assert f"rulekb-runtime-{status['version']}" not in keys
            assert [k for k in keys if not k.startswith("rulekb-runtime-")] == [f"rulekb-{new_version}"]
            context.set_offline(True)
            seen = len(site.requests)
            page.goto(rule_url)
            assert page.locator("article.rule h1").inner_text().strip() == (node.title_clean or node.title).strip()
            assert [p for p in site.paths(seen) if p != "/sw.js"] == [], site.paths(seen)
        finally:
            context.close()
    assert not errors, errors


def test_conditional_requests_get_304_and_hashed_assets_are_not_asked_again(
    browser: Any, built: Path, tmp_path: Path, leaf_at: Any
) -> None:
    with serve(_copy(built, tmp_path)) as site:
        context = browser.new_context(viewport=PHONE, base_url=site.base_url, service_workers="block")
        page = context.new_page()
        try:
            url = f"/rules/{leaf_at('10e-core', 317).id}"
            page.goto(url)
            first = [r for r in site.requests if r[1] == url]
            assert [r[2] for r in first] == [200]
            assets_before = [r for r in site.requests if r[1].startswith("/assets/")]
            seen = len(site.requests)
            page.reload()
            again = [r for r in site.requests[seen:] if r[1] == url]
            assert [r[2] for r in again] == [304] and again[0][3], again  # revalidated with If-None-Match
            # Chromium's favicon loader keeps its own cache; the page's own assets are not fetched again
            assert not [r for r in site.requests[seen:] if r[1].startswith("/assets/") and "favicon" not in r[1]]
            assert assets_before  # the page did load its hashed assets the first time
            assert page.locator("article.rule h1").is_visible()
        finally:
            context.close()


def test_the_browser_folds_words_exactly_like_the_build(browser: Any, built: Path, tmp_path: Path) -> None:
    index = json.loads((built / INDEX_FILE).read_text(encoding="utf-8"))
    texts = [doc[1] for doc in index["docs"]] + [doc[4] for doc in index["docs"]] + [f[0] for f in index["faq"]]
    texts += ["Ёлки, чарджа! Overwatching, fell back; 2Д6 и 3+ на 6\"", "ПАЙЛ-ИН", "charges piles"]
    with serve(_copy(built, tmp_path)) as site:
        context = browser.new_context(base_url=site.base_url, service_workers="block")
        page = context.new_page()
        try:
            page.goto("/about")
            page.wait_for_function("window.rulekbOffline !== undefined")
            folded = page.evaluate(
                """async (texts) => {
                  const index = await (await fetch('/offline/search-index.json')).json();
                  const fold = window.rulekbOffline.folder(index.fold);
                  return texts.map(t => fold.termsOf(t));
                }""",
                texts,
            )
        finally:
            context.close()
    mismatched = [(t, js, terms_of(t)) for t, js in zip(texts, folded, strict=True) if js != terms_of(t)]
    assert not mismatched, mismatched[:5]
    assert sum(len(f) for f in folded) > 5000
