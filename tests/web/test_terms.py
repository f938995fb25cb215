"""The termbase page: renderings per book, KWIC lines, the inconsistency report, exports, the draft check."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from flask.testing import FlaskClient


def _terms(built: Path) -> list[dict]:  # type: ignore[type-arg]
    data: list[dict] = json.loads((built / "terms.json").read_text(encoding="utf-8"))  # type: ignore[type-arg]
    return data


ROW = re.compile(r'<tr id="c-([a-z0-9-]+)">')


def _table_pages(client: FlaskClient) -> list[tuple[str, str]]:
    """The pages of the termbase table, following its «next» links from /terms."""
    out, url = [], "/terms"
    while url:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        out.append((url, html))
        assert len(out) < 100, "the pager does not end"
        found = re.search(r'<a class="next" rel="next" href="([^"]+)">', html)
        url = found.group(1).replace("&amp;", "&") if found else ""
    return out


def _rows(html: str) -> dict[str, str]:
    return {cid: html.split(f'<tr id="c-{cid}">')[1].split("</tr>")[0] for cid in ROW.findall(html)}


def test_every_concept_is_on_one_page_of_the_table_with_renderings_statuses_and_counts(
    client: FlaskClient, built: Path
) -> None:
    pages = _table_pages(client)
    assert len(pages) > 1  # the table comes in pages
    seen: dict[str, str] = {}
    for url, html in pages:
        rows = _rows(html)
        assert 0 < len(rows) <= 40, url  # TERMS_PAGE_SIZE
        assert not set(rows) & set(seen), url  # each concept on one page only
        seen.update(rows)
    whole = _rows(client.get("/terms?page=all").get_data(as_text=True))
    for concept in _terms(built):
        for rows in (seen, whole):
            row = rows[concept["concept"]]
            for rendering in concept["renderings"]:
                assert f"{rendering['source_id']}: «{rendering['text']}»" in row
                assert f"· {rendering['count']}</div>" in row
    assert list(seen) == list(whole) and len(whole) == len(_terms(built))
    from rulekb.kb.text.analysis import fold

    names = [fold(re.search(r"<strong>([^<]+)</strong>", row).group(1)) for row in whole.values()]  # type: ignore[union-attr]
    assert names == sorted(names)  # alphabetical by the name the table shows


def test_the_letter_index_and_the_page_list_lead_to_every_page(client: FlaskClient) -> None:
    first = client.get("/terms").get_data(as_text=True)
    letters = re.findall(r'<a href="(/terms[^"#]*)#c-([a-z0-9-]+)">([^<]+)</a>', first.split('class="letters"')[1].split("</nav>")[0])
    assert len(letters) > 15
    shown = [letter for _, _, letter in letters]
    assert shown[0] == "0–9" and shown[1:] == sorted(shown[1:])  # in alphabetical order
    for url, concept_id, letter in letters:
        html = client.get(url.replace("&amp;", "&")).get_data(as_text=True)
        row = _rows(html)[concept_id]  # the link's anchor is on the page it names
        name = re.search(r"<strong>([^<]+)</strong>", row)
        assert name and (name.group(1)[0].upper() == letter or (letter == "0–9" and not name.group(1)[0].isalpha()))
    listed = re.findall(r'<li><a href="(/terms\?page=\d+)">', first)
    assert listed == [url for url, _ in _table_pages(client)][1:]


def test_a_page_number_out_of_range_is_a_400_naming_the_choices(client: FlaskClient) -> None:
    for bad in ("0", "999", "два", "-1"):
        response = client.get("/terms", query_string={"page": bad})
        assert response.status_code == 400, bad
        assert "«all»" in response.get_data(as_text=True)


def test_no_concept_id_is_taken_by_a_termbase_page(built: Path) -> None:
    from rulekb.webapp.views.terms import RESERVED

    assert not {c["concept"] for c in _terms(built)} & set(RESERVED)


def test_terms_search_filters_by_any_name(client: FlaskClient) -> None:
    html = client.get("/terms", query_string={"q": "калитка"}).get_data(as_text=True)
    rows = re.findall(r'<tr id="c-([a-z0-9-]+)">', html)
    assert "hit-roll" in rows and len(rows) < 5
    english = re.findall(r'<tr id="c-([a-z0-9-]+)">', client.get("/terms?q=Overwatch").get_data(as_text=True))
    assert "overwatch" in english


def test_kwic_lines_are_the_termbase_kwic_linked_to_their_rules(client: FlaskClient, leaf_at) -> None:  # type: ignore[no-untyped-def]
    from rulekb.kb.termbase import kwic

    rows = kwic("hit-roll", width=50)
    html = client.get("/terms/hit-roll").get_data(as_text=True)
    links = re.findall(r'<li><a href="/cite/([^/]+)/(\d+)">', html)
    assert [(r.source_id, r.line) for r in rows] == [(s, int(n)) for s, n in links]
    source, line = links[0]
    redirect = client.get(f"/cite/{source}/{line}")
    assert redirect.headers["Location"].endswith(f"/rules/{leaf_at(source, int(line)).id}#L{line}")
    assert html.count('class="kw"') == len(rows)


def test_inconsistency_report_is_its_own_page_linked_from_the_table(client: FlaskClient) -> None:
    from rulekb.kb.termbase import default_index, inconsistencies

    report = inconsistencies(default_index())
    summary = client.get("/terms").get_data(as_text=True).split('aria-label="Расхождения в переводах"')[1]
    assert f"несколько переводов: {len(report.variants)}." in summary and 'href="/terms/report"' in summary
    html = client.get("/terms/report").get_data(as_text=True)
    section = html.split('aria-label="Расхождения в переводах"')[1]
    assert report.variants, "the 10th-edition text renders Engagement Range several ways"
    for variant in report.variants:
        assert f'href="/terms/{variant.concept_id}">' in section


def test_tbx_download_is_xml_with_every_concept(client: FlaskClient, built: Path) -> None:
    response = client.get("/terms.tbx")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    root = ET.fromstring(response.data)
    entries = [e for e in root.iter() if e.tag.endswith("conceptEntry") or e.tag.endswith("termEntry")]
    assert len(entries) == len(_terms(built))


def test_tsv_and_csv_downloads_are_the_termbase_exports(client: FlaskClient) -> None:
    from rulekb.kb.termbase import default_index, to_csv, to_tsv

    tsv = client.get("/terms.tsv")
    assert tsv.mimetype == "text/tab-separated-values"
    assert tsv.get_data(as_text=True) == to_tsv(default_index())
    rows = list(csv.reader(io.StringIO(client.get("/terms.csv").get_data(as_text=True))))
    assert rows and rows[1:] and all(len(r) == len(rows[0]) for r in rows)
    assert client.get("/terms.csv").get_data(as_text=True) == to_csv(default_index())


def test_draft_check_flags_the_machine_translation_of_hit_roll(client: FlaskClient) -> None:
    html = client.post("/terms/check", data={"draft": "Сначала\nсделайте ударную калитку."}).get_data(as_text=True)
    assert "Замечаний: 1." in html
    assert "«ударную калитку»</strong> — строка 2" in html
    assert 'href="/terms/hit-roll"' in html
    assert "Лучше:" in html
    clean = client.post("/terms/check", data={"draft": "Сделайте бросок на попадание."}).get_data(as_text=True)
    assert "не найдено" in clean


def test_draft_check_form_is_a_post_without_inline_code(client: FlaskClient) -> None:
    html = client.get("/terms/check").get_data(as_text=True)
    assert re.search(r'<form action="/terms/check" method="post">', html)
    assert '<textarea id="draft" name="draft"' in html


def test_draft_check_reads_against_a_chosen_book_or_edition_like_the_cli(client: FlaskClient, built: Path) -> None:
    from rulekb.kb.termbase import check_draft

    draft = "Модели в зоне досягаемости врага. Сначала сделайте ударную калитку."
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    choices: list[dict[str, str]] = [{}]
    choices += [{"source": s["id"]} for s in manifest["sources"]]
    choices += [{"edition": e} for e in sorted({s["edition"] for s in manifest["sources"]})]
    seen: set[tuple[tuple[str, str, str], ...]] = set()
    for choice in choices:
        expected = check_draft(draft, **choice)  # type: ignore[arg-type]
        html = client.post("/terms/check", data={"draft": draft, **choice}).get_data(as_text=True)
        flags = html.count('<div class="flag">')
        assert flags == len(expected), choice
        for flag in expected:
            assert f"«{flag.text}»</strong> — строка {flag.line}, позиция {flag.column}" in html
            assert f"Лучше: «{flag.preferred}»" in html
            if flag.source_id:
                assert f"(как в {flag.source_id})" in html
        for name, value in choice.items():
            assert re.search(rf'<select id="check-{name}" name="{name}">.*?<option value="{value}" selected>', html, re.S)
        seen.add(tuple((f.text, f.preferred, f.source_id) for f in expected))
    assert len(seen) > 1, "the choice of book must change what is flagged"


def test_draft_check_refuses_an_unknown_book_or_both_choices(client: FlaskClient) -> None:
    for data in ({"source": "no-such-book"}, {"edition": "99"}, {"source": "kt", "edition": "6"}):
        response = client.post("/terms/check", data={"draft": "текст", **data})
        assert response.status_code == 400, data
