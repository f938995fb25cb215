"""Exports: the JSON contract, TBX-Basic, the OmegaT TSV glossary and CSV."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

from rulekb.corpus.reader import find_source
from rulekb.kb.termbase import Termbase, TermIndex, to_csv, to_records, to_tbx, to_tsv

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ADMIN = {"preferredTerm-admn-sts", "admittedTerm-admn-sts", "deprecatedTerm-admn-sts"}


def test_json_records_follow_the_contract(termbase: Termbase, index: TermIndex) -> None:
    records = to_records(index)
    assert len(records) == len(termbase)
    for record in records:
        assert {"concept", "english", "category", "definition", "aliases", "renderings"} <= set(record)
        for r in record["renderings"]:
            assert {"source_id", "source_sha256", "text", "status", "count", "lines"} <= set(r)
            assert r["source_sha256"] == find_source(r["source_id"]).sha256
            assert r["count"] == len(r["lines"]) > 0
    hit = next(r for r in records if r["concept"] == "hit-roll")
    wicket = next(r for r in hit["renderings"] if r["text"] == "Ударная калитка")
    assert wicket == wicket | {"source_id": "10e-core", "status": "mistranslation", "count": 2, "lines": [23, 604]}


def test_json_records_for_one_source(index: TermIndex) -> None:
    records = to_records(index, source_id="kt")
    assert {r["source_id"] for rec in records for r in rec["renderings"]} == {"kt"}


def test_tbx_is_tbx_basic(termbase: Termbase, index: TermIndex) -> None:
    root = ET.fromstring(to_tbx(index))
    assert root.tag == "martif" and root.get("type") == "TBX-Basic"
    assert root.find("martifHeader/fileDesc/titleStmt/title") is not None
    entries = root.findall("text/body/termEntry")
    assert [e.get("id") for e in entries] == [c.id for c in termbase]
    for entry in entries:
        languages = [ls.get(XML_LANG) for ls in entry.findall("langSet")]
        assert languages == ["en", "ru"]
        for tig in entry.findall("langSet/tig"):
            assert tig.findtext("term")
            assert tig.findtext("termNote[@type='administrativeStatus']") in ADMIN
    hit = next(e for e in entries if e.get("id") == "hit-roll")
    wicket = next(t for t in hit.findall("langSet/tig") if t.findtext("term") == "Ударная калитка")
    assert wicket.findtext("termNote[@type='administrativeStatus']") == "deprecatedTerm-admn-sts"
    assert wicket.findtext("admin[@type='source']") == "10e-core"
    assert (wicket.findtext("note") or "").startswith("Mistranslation.")
    ws = next(e for e in entries if e.get("id") == "weapon-skill")
    assert "WS" in [t.findtext("term") for t in ws.findall("langSet[@{http://www.w3.org/XML/1998/namespace}lang='en']/tig")]


def test_tsv_is_an_omegat_glossary(index: TermIndex) -> None:
    text = to_tsv(index)
    lines = text.splitlines()
    assert len(lines) > 300
    for line in lines:
        columns = line.split("\t")
        assert len(columns) == 3 and all(columns), line
    # one row per status: 7e admits what 10e and 6e prefer
    assert "Hit roll\tбросок на попадание\thit-roll; preferred; 10e-core, 6e-assault" in lines
    assert "Hit roll\tбросок на попадание\thit-roll; admitted; 7e-pp58-67" in lines
    # a mistranslation is a row, flagged, with the term to use
    (bad,) = [line for line in lines if "\tУдарная калитка\t" in line]
    assert "DO NOT USE (mistranslation; hit-roll; 10e-core)" in bad and "«бросок на попадание»" in bad


def test_csv_loads(termbase: Termbase, index: TermIndex) -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(index))))
    assert len(rows) == sum(max(1, len(c.rendering)) for c in termbase)
    row = next(r for r in rows if r["rendering"] == "Ударная калитка")
    assert (row["concept"], row["status"], row["count"], row["lines"]) == ("hit-roll", "mistranslation", "2", "23 604")
