"""The termbase for other tools: the JSON contract, TBX-Basic, an OmegaT glossary, a CSV.

All exports are deterministic: concepts in termbase order, renderings in file order.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from corpus.reader import find_source
from kb.terms_corpus import TermIndex
from kb.terms_model import Concept, Status

__all__ = ["ADMIN_STATUS", "to_csv", "to_records", "to_tbx", "to_tsv"]

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
    ``langSet`` (en, ru) → ``tig/term`` with the administrative status, the source and notes."""
    martif = ET.Element("martif", {"type": "TBX-Basic", _XML_LANG: "en"})
    header = _sub(martif, "martifHeader")
    file_desc = _sub(header, "fileDesc")
    _sub(_sub(file_desc, "titleStmt"), "title", "rulekb termbase: Warhammer 40,000 rules, English–Russian")
    source_desc = _sub(file_desc, "sourceDesc")
    _sub(source_desc, "p", "Renderings as printed in the rulebook texts of the rulekb corpus; statuses and notes by the rulekb editors.")
    _sub(_sub(header, "encodingDesc"), "p", "TBXBasicXCSV02.xcs", type="XCSURI")
    body = _sub(_sub(martif, "text"), "body")
    for concept in _concepts(index, concepts):
        renderings = [r for r in concept.rendering if source_id is None or r.source == source_id]
        entry = _sub(body, "termEntry", id=concept.id)
        _sub(entry, "descrip", concept.category.value, type="subjectField")
        for other in concept.related:
            _sub(entry, "ref", other, type="crossReference", target=other)
        english = _sub(entry, "langSet", **{_XML_LANG: "en"})
        tig = _sub(english, "tig")
        _sub(tig, "term", concept.english)
        if concept.abbreviation:
            _sub(tig, "termNote", "fullForm", type="termType")
        _sub(tig, "termNote", ADMIN_STATUS[Status.PREFERRED], type="administrativeStatus")
        if concept.abbreviation:
            tig = _sub(english, "tig")
            _sub(tig, "term", concept.abbreviation)
            _sub(tig, "termNote", "abbreviation", type="termType")
            _sub(tig, "termNote", ADMIN_STATUS[Status.ADMITTED], type="administrativeStatus")
        russian = _sub(entry, "langSet", **{_XML_LANG: "ru"})
        _sub(russian, "descrip", concept.definition, type="definition")
        for r in renderings:
            tig = _sub(russian, "tig")
            _sub(tig, "term", r.text)
            _sub(tig, "termNote", ADMIN_STATUS[r.status], type="administrativeStatus")
            _sub(tig, "admin", r.source, type="source")
            count = index.count(concept.id, r.source, r.text)
            lines = index.lines(concept.id, r.source, r.text)
            _sub(tig, "descrip", f"{r.source}, {count}× (строки {', '.join(map(str, lines[:20]))}{'…' if len(lines) > 20 else ''})", type="context")
            if r.status is Status.MISTRANSLATION:
                _sub(tig, "note", f"Mistranslation. {r.note}")
            elif r.note:
                _sub(tig, "note", r.note)
    ET.indent(martif)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(martif, encoding="unicode") + "\n"


def _clean(text: str) -> str:
    return " ".join(text.replace("\t", " ").split())


def to_tsv(index: TermIndex, concepts: Sequence[Concept] | None = None, source_id: str | None = None) -> str:
    """An OmegaT glossary: ``English TAB Russian TAB comment`` per accepted rendering (preferred
    and admitted; deprecated ones are for the lint, not for suggestions)."""
    lines: list[str] = []
    for concept in _concepts(index, concepts):
        seen: set[str] = set()
        for r in concept.rendering:
            if (source_id is not None and r.source != source_id) or r.status not in (Status.PREFERRED, Status.ADMITTED):
                continue
            if r.text in seen:
                continue
            seen.add(r.text)
            sources = ", ".join(x.source for x in concept.rendering if x.text == r.text)
            comment = f"{concept.id}; {r.status.value}; {sources}"
            lines.append("\t".join(_clean(x) for x in (concept.english, r.text, comment)))
            if concept.abbreviation:
                lines.append("\t".join(_clean(x) for x in (concept.abbreviation, r.text, comment)))
    return "".join(line + "\n" for line in lines)


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
