"""The termbase for other tools: the JSON contract, TBX-Basic, an OmegaT glossary, a CSV.

All exports are written from the same records (:func:`to_records`, the ``rulekb terms --json``
contract), so they cannot disagree; they are deterministic: concepts in termbase order,
renderings in file order.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from rulekb.corpus.reader import find_source
from rulekb.kb.termbase.model import BAD_STATUSES, Concept, Status
from rulekb.kb.termbase.occurrences import TermIndex

__all__ = ["ADMIN_STATUS", "to_csv", "to_records", "to_tbx", "to_tsv", "tsv_rows"]

#: TBX-Basic administrative status per rendering status (a mistranslation is deprecated, with a note).
ADMIN_STATUS = {
    Status.PREFERRED: "preferredTerm-admn-sts",
    Status.ADMITTED: "admittedTerm-admn-sts",
    Status.DEPRECATED: "deprecatedTerm-admn-sts",
    Status.MISTRANSLATION: "deprecatedTerm-admn-sts",
}
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _concepts(index: TermIndex, concepts: Sequence[Concept] | None) -> Sequence[Concept]:
    return concepts if concepts is not None else index.termbase.concepts


def to_records(index: TermIndex, concepts: Sequence[Concept] | None = None, source_id: str | None = None) -> list[dict[str, Any]]:
    """The ``rulekb terms --json`` contract: one object per concept with its renderings,
    counts and line numbers (optionally only one source's renderings)."""
    out: list[dict[str, Any]] = []
    for concept in _concepts(index, concepts):
        renderings = []
        for r in concept.rendering:
            if source_id is not None and r.source != source_id:
                continue
            lines = index.lines(concept.id, r.source, r.text)
            renderings.append(
                {
                    "source_id": r.source,
                    "source_sha256": find_source(r.source).sha256,
                    "text": r.text,
                    "status": r.status.value,
                    "count": len(lines),
                    "lines": lines,
                    "note": r.note,
                }
            )
        out.append(
            {
                "concept": concept.id,
                "english": concept.english,
                "abbreviation": concept.abbreviation,
                "category": concept.category.value,
                "keyword": concept.keyword,
                "definition": concept.definition,
                "aliases": list(concept.aliases),
                "related": list(concept.related),
                "preferred": concept.recommended,
                "renderings": renderings,
            }
        )
    return out


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrib: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrib)
    if text is not None:
        element.text = text
    return element


def to_tbx(index: TermIndex, concepts: Sequence[Concept] | None = None, source_id: str | None = None) -> str:
    """TBX-Basic (ISO 30042): ``martif type="TBX-Basic"`` → ``text/body/termEntry`` →
    ``langSet`` (en, ru) → ``tig/term`` with the administrative status, the source and notes.
    Written from :func:`to_records`, so it says what ``rulekb terms --json`` says."""
    martif = ET.Element("martif", {"type": "TBX-Basic", _XML_LANG: "en"})
    header = _sub(martif, "martifHeader")
    file_desc = _sub(header, "fileDesc")
    _sub(_sub(file_desc, "titleStmt"), "title", "rulekb termbase: Warhammer 40,000 rules, English–Russian")
    source_desc = _sub(file_desc, "sourceDesc")
    _sub(source_desc, "p", "Renderings as printed in the rulebook texts of the rulekb corpus; statuses and notes by the rulekb editors.")
    _sub(_sub(header, "encodingDesc"), "p", "TBXBasicXCSV02.xcs", type="XCSURI")
    body = _sub(_sub(martif, "text"), "body")
    for record in to_records(index, concepts, source_id):
        entry = _sub(body, "termEntry", id=record["concept"])
        _sub(entry, "descrip", record["category"], type="subjectField")
        for other in record["related"]:
            _sub(entry, "ref", other, type="crossReference", target=other)
        english = _sub(entry, "langSet", **{_XML_LANG: "en"})
        tig = _sub(english, "tig")
        _sub(tig, "term", record["english"])
        if record["abbreviation"]:
            _sub(tig, "termNote", "fullForm", type="termType")
        _sub(tig, "termNote", ADMIN_STATUS[Status.PREFERRED], type="administrativeStatus")
        if record["abbreviation"]:
            tig = _sub(english, "tig")
            _sub(tig, "term", record["abbreviation"])
            _sub(tig, "termNote", "abbreviation", type="termType")
            _sub(tig, "termNote", ADMIN_STATUS[Status.ADMITTED], type="administrativeStatus")
        russian = _sub(entry, "langSet", **{_XML_LANG: "ru"})
        _sub(russian, "descrip", record["definition"], type="definition")
        for r in record["renderings"]:
            status = Status(r["status"])
            lines = r["lines"]
            tig = _sub(russian, "tig")
            _sub(tig, "term", r["text"])
            _sub(tig, "termNote", ADMIN_STATUS[status], type="administrativeStatus")
            _sub(tig, "admin", r["source_id"], type="source")
            shown = ", ".join(map(str, lines[:20])) + ("…" if len(lines) > 20 else "")
            _sub(tig, "descrip", f"{r['source_id']}, {r['count']}× (строки {shown})", type="context")
            if status is Status.MISTRANSLATION:
                _sub(tig, "note", f"Mistranslation. {r['note']}")
            elif r["note"]:
                _sub(tig, "note", r["note"])
    ET.indent(martif)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(martif, encoding="unicode") + "\n"


def _clean(text: str) -> str:
    return " ".join(text.replace("\t", " ").split())


def tsv_rows(records: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The OmegaT glossary rows of ``records``: per concept, one row per rendering and status
    (the sources that print it so, in order), under the English term and again under the
    abbreviation. Deprecated and mistranslated renderings are rows too, their comment starting
    «DO NOT USE», so a translator sees the forbidden term flagged — also for concepts that have
    no other rendering."""
    rows: list[tuple[str, str, str]] = []
    for record in records:
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in record["renderings"]:
            groups.setdefault((r["text"], r["status"]), []).append(r)
        for (text, status), uses in groups.items():
            sources = ", ".join(dict.fromkeys(u["source_id"] for u in uses))
            if Status(status) in BAD_STATUSES:
                use = f" use «{record['preferred']}»." if record["preferred"] else ""
                note = next((u["note"] for u in uses if u["note"]), "")
                comment = f"DO NOT USE ({status}; {record['concept']}; {sources}).{use} {note}".strip()
            else:
                comment = f"{record['concept']}; {status}; {sources}"
            for name in (record["english"], record["abbreviation"]):
                if name:
                    rows.append((_clean(name), _clean(text), _clean(comment)))
    return rows


def to_tsv(index: TermIndex, concepts: Sequence[Concept] | None = None, source_id: str | None = None) -> str:
    """An OmegaT glossary (``English TAB Russian TAB comment``, UTF-8) written from
    :func:`to_records`: every rendering with its status; the ones to avoid are marked «DO NOT
    USE» (see :func:`tsv_rows`)."""
    return "".join("\t".join(row) + "\n" for row in tsv_rows(to_records(index, concepts, source_id)))


CSV_FIELDS = [
    "concept", "english", "abbreviation", "category", "keyword", "source_id", "rendering", "status",
    "count", "lines", "note", "definition", "aliases",
]


def to_csv(index: TermIndex, concepts: Sequence[Concept] | None = None, source_id: str | None = None) -> str:
    """One row per rendering (a concept without renderings gets one row), for spreadsheets."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for record in to_records(index, concepts, source_id):
        base = {
            "concept": record["concept"],
            "english": record["english"],
            "abbreviation": record["abbreviation"],
            "category": record["category"],
            "keyword": "yes" if record["keyword"] else "",
            "definition": record["definition"],
            "aliases": "; ".join(record["aliases"]),
        }
        rows = record["renderings"] or [{}]
        for r in rows:
            writer.writerow(
                base
                | {
                    "source_id": r.get("source_id", ""),
                    "rendering": r.get("text", ""),
                    "status": r.get("status", ""),
                    "count": r.get("count", ""),
                    "lines": " ".join(map(str, r.get("lines", []))),
                    "note": r.get("note", ""),
                }
            )
    return buffer.getvalue()
