"""The search page (``/``, ``/search``) and the ask adapter shared with the API.

:func:`run_ask` returns the ask object of the JSON contract (``rulekb ask --json``). It calls
``rulekb.kb.ask.answer`` (the Whoosh index is opened there, once per worker, on first use).
"""

from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, make_response, render_template, request
from markupsafe import Markup, escape

from rulekb.corpus.editions import chronological
from rulekb.corpus.errors import QueryError
from rulekb.kb.ask import answer as kb_answer
from rulekb.kb.contracts.cite import citation_label
from rulekb.kb.text.analysis import lemmas, tokens
from rulekb.webapp.data import Build
from rulekb.webapp.views.common import clean_query, current_build, parse_edition

__all__ = ["bp", "highlight", "marked_snippet", "run_ask"]

bp = Blueprint("search", __name__)

_NUMBER = re.compile(r"(\d+\s*[DdДд]\s*\d+|\b[DdДд]\d+|\d+\+|\d+(?:[.,]\d+)?\s*(?:\"|″|”|дюйм\w*)|\d+)")
#: answers kept per worker: players ask the same few questions again and again
ASK_CACHE_SIZE = 512
_ASK_CACHE: OrderedDict[tuple[str, str, str | None, int, str | None], dict[str, Any]] = OrderedDict()
#: rendered search pages kept per worker (the page is a pure function of the build and the query)
PAGE_CACHE_SIZE = 256
_PAGE_CACHE: OrderedDict[tuple[str, str, str | None, int, str | None], str] = OrderedDict()
_ASK_LOCK = threading.Lock()


#: The cookie keeping the edition a player plays (set from the page's «Я играю в» choice, ``?play=``).
PLAY_COOKIE = "rulekb_play"


def played_edition() -> str | None:
    """The edition the player plays: ``?play=`` in the URL, else the cookie; a bad value is ignored."""
    for raw in (request.args.get("play"), request.cookies.get(PLAY_COOKIE)):
        if raw is None:
            continue
        try:
            return parse_edition(raw)
        except QueryError:
            continue
    return None


def run_ask(build: Build, question: str, edition: str | None, limit: int, played: str | None = None) -> dict[str, Any]:
    """The ask object for ``question`` (``rulekb.kb.ask.answer``: the contract of ``rulekb ask --json``), plus the
    cited lines of its FAQ entry. A build without a search index raises IndexMissingError (a 503
    that says to run ``rulekb build``). Answers are cached per worker and per build (a rebuild has
    a new manifest stamp, a new key); callers get a shallow copy they may change.
    """
    key = (f"{build.path}@{build.stamp}", question, edition, limit, played)
    with _ASK_LOCK:
        cached = _ASK_CACHE.get(key)
        if cached is not None:
            _ASK_CACHE.move_to_end(key)
            return dict(cached)
    result = _answer(build, question, edition, limit, played)
    with _ASK_LOCK:
        _ASK_CACHE[key] = result
        while len(_ASK_CACHE) > ASK_CACHE_SIZE:
            _ASK_CACHE.popitem(last=False)
    return dict(result)


def _answer(build: Build, question: str, edition: str | None, limit: int, played: str | None) -> dict[str, Any]:
    result: dict[str, Any] = dict(
        kb_answer.ask(question, edition=edition, limit=limit, build_dir=build.path, played=played or DEFAULT_PLAYED)
    )
    faq = result.get("faq")
    if isinstance(faq, dict) and "citations" not in faq:
        result["faq"] = {**faq, "citations": _faq_citations(build.path, str(faq.get("id", "")))}
    return result


def _faq_citations(build_dir: Path, entry_id: str) -> list[dict[str, Any]]:
    for entry in kb_answer.load_faq_entries(build_dir):
        if entry.id == entry_id:
            return [{"source": c.source, "lines": list(c.lines), "quotes": list(c.quotes)} for c in entry.citations]
    return []


def highlight(text: str, question: str) -> Markup:
    """``text`` escaped, with the words sharing a lemma with ``question`` and the numbers marked."""
    wanted = {t for t in lemmas(question) if len(t) > 1}
    spans = [(t.start, t.end) for t in tokens(text) if t.text in wanted]
    out: list[str] = []
    pos = 0
    for start, end in spans:
        if start < pos:
            continue
        out.append(str(escape(text[pos:start])))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        pos = end
    out.append(str(escape(text[pos:])))
    return Markup("".join(out))  # safe: pieces are escaped above


def mark_numbers(text: str) -> Markup:
    """``text`` escaped with numbers and dice notation emphasised (for the answer sentence)."""
    out: list[str] = []
    pos = 0
    for match in _NUMBER.finditer(text):
        out.append(str(escape(text[pos : match.start()])))
        out.append(f'<strong class="num">{escape(match.group(0))}</strong>')
        pos = match.end()
    out.append(str(escape(text[pos:])))
    return Markup("".join(out))  # safe: pieces are escaped above


def _other_editions(build: Build, result: dict[str, Any]) -> list[dict[str, Any]]:
    """«The same in other editions»: from the ask object if it has them, else by the concepts found."""
    given = result.get("same_concept") or result.get("other_editions")
    if isinstance(given, list):
        return [g for g in given if isinstance(g, dict) and g.get("node_id") in build.nodes]
    hits = result.get("hits") or []
    shown = {h.get("edition") for h in hits[:1]}
    out = []
    for cid in result.get("concepts") or []:
        for ref in build.concept_nodes.get(cid, []):
            if ref.get("role") != "defines" or ref.get("edition") in shown:
                continue
            shown.add(ref.get("edition"))
            out.append({"concept": cid, "node_id": ref["node_id"], "edition": ref.get("edition")})
    return out


_MARKED = re.compile(r"<b>(.*?)</b>", re.S)
#: what escaping changes (markupsafe's five characters)
_UNSAFE = re.compile(r"[&<>\"']")


def marked_snippet(snippet: str) -> Markup:
    """A ``rulekb.kb.search.searcher`` snippet (escaped text with the matched words in ``<b>``) as safe markup.

    The snippet is parsed, not trusted: the text between the marks is unescaped and escaped again,
    and only the marks become ``<mark>`` elements; any other tag stays visible text.
    """
    pieces = _MARKED.split(snippet)  # text, marked, text, …, text
    if _UNSAFE.search("".join(pieces)) is None:  # nothing to unescape, nothing to escape (most snippets)
        pieces[1::2] = [f"<mark>{piece}</mark>" for piece in pieces[1::2]]
        return Markup("".join(pieces))  # safe: no piece holds a character HTML gives a meaning
    if "&" in snippet:  # without one there is nothing to unescape
        pieces = [html.unescape(piece) for piece in pieces]
    out = [str(escape(piece)) for piece in pieces]
    out[1::2] = [f"<mark>{piece}</mark>" for piece in out[1::2]]
    return Markup("".join(out))  # safe: pieces are escaped above


#: the rendered title and breadcrumb of a hit, per build, rule, title and edition (a worker serves
#: a few hundred rules; each question shows ten)
HEAD_CACHE_SIZE = 4096
_HEAD_CACHE: OrderedDict[tuple[str, str, str, str], Markup] = OrderedDict()


def hit_head(build: Build, hit: dict[str, Any]) -> Markup:
    """The hit's title link, edition badge and breadcrumb (the ``hit_head`` macro of
    ``_macros.html``), rendered once per worker for each rule: only the snippet depends on the question."""
    key = (f"{build.path}@{build.stamp}", str(hit["node_id"]), str(hit.get("title")), str(hit.get("edition")))
    with _ASK_LOCK:
        head = _HEAD_CACHE.get(key)
        if head is not None:
            _HEAD_CACHE.move_to_end(key)
            return head
    macros = current_app.jinja_env.get_template("_macros.html").module
    head = Markup(macros.hit_head(hit))  # type: ignore[attr-defined]
    with _ASK_LOCK:
        _HEAD_CACHE[key] = head
        while len(_HEAD_CACHE) > HEAD_CACHE_SIZE:
            _HEAD_CACHE.popitem(last=False)
    return head


#: a rule's breadcrumb, book and citation as a hit shows them, per build and rule
_PLACE_CACHE: OrderedDict[tuple[str, str], tuple[str, str, str]] = OrderedDict()


def _place(build: Build, node: Any) -> tuple[str, str, str]:
    """The breadcrumb, book title and citation of a hit's rule, worked out once per worker and rule."""
    key = (f"{build.path}@{build.stamp}", str(node.id))
    with _ASK_LOCK:
        place = _PLACE_CACHE.get(key)
        if place is not None:
            _PLACE_CACHE.move_to_end(key)
            return place
    source = build.source(node.source_id)
    place = (build.breadcrumb(node), source.get("title", node.source_id), citation_label("", node.lines, node.page))
    with _ASK_LOCK:
        _PLACE_CACHE[key] = place
        while len(_PLACE_CACHE) > HEAD_CACHE_SIZE:
            _PLACE_CACHE.popitem(last=False)
    return place


def display_hits(build: Build, hits: list[dict[str, Any]], question: str = "") -> list[dict[str, Any]]:
    """Hits with what the page shows besides the contract: breadcrumb, book, citation, snippet markup."""
    out = []
    for hit in hits:
        node = build.nodes.get(str(hit.get("node_id")))
        if node is None:
            continue
        breadcrumb, book, where = _place(build, node)
        shown = {
            **hit,
            "node": node,
            "breadcrumb": breadcrumb,
            "book": book,
            "where": where,
            "snippet_markup": marked_snippet(str(hit["snippet"]))
            if "<b>" in str(hit.get("snippet") or "")
            else highlight(str(hit.get("snippet") or node.text_clean[:300]), question),
        }
        shown["head"] = hit_head(build, shown)
        out.append(shown)
    return out


#: The web's default edition when the player has not chosen (the environment does not apply here).
DEFAULT_PLAYED = chronological()[-1]


@bp.route("/")
@bp.route("/search")
def search() -> Response | tuple[str, int]:
    """The search page; ``?play=`` (kept in a cookie) is the edition the player plays."""
    played = played_edition()
    response = make_response(_search(played))
    if "play" in request.args:
        if played is None:
            response.delete_cookie(PLAY_COOKIE)
        else:
            response.set_cookie(PLAY_COOKIE, played, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response


def _search(played: str | None) -> str | tuple[str, int]:
    build = current_build()
    raw_q = request.args.get("q", "")
    raw_edition = request.args.get("edition", "")
    notice = None
    try:
        edition = parse_edition(raw_edition)
    except QueryError as exc:
        edition, notice = None, exc.message
    try:
        question = clean_query(raw_q)
    except QueryError as exc:
        return render_template(
            "search.html", q=raw_q[:500], edition=edition, result=None, hits=[], notice=exc.message, other=[],
            played=played,
        ), 400
    if notice is None and question:
        key = (f"{build.path}@{build.stamp}", question, edition, int(current_app.config["SEARCH_LIMIT"]), played)
        with _ASK_LOCK:
            page = _PAGE_CACHE.get(key)
            if page is not None:
                _PAGE_CACHE.move_to_end(key)
                return page
    page = _render_search(build, question, edition, notice, played)
    if notice is None and question:
        with _ASK_LOCK:
            _PAGE_CACHE[key] = page
            while len(_PAGE_CACHE) > PAGE_CACHE_SIZE:
                _PAGE_CACHE.popitem(last=False)
    return page


def _render_search(build: Build, question: str, edition: str | None, notice: str | None, played: str | None) -> str:
    result = None
    other: list[dict[str, Any]] = []
    hits: list[dict[str, Any]] = []
    if question:
        result = run_ask(build, question, edition, int(current_app.config["SEARCH_LIMIT"]), played)
        other = _other_editions(build, result)
        hits = display_hits(build, result["hits"], question)
    return render_template(
        "search.html",
        q=question,
        edition=edition,
        result=result,
        hits=hits,
        notice=notice,
        other=other,
        played=played,
        nodes=build.nodes,
        concepts=build.concepts,
    )
