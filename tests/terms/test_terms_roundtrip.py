"""The exports round-trip: TBX and the OmegaT glossary read back with translate-toolkit, and the
CSV, say exactly what `rulekb terms --json` says — every concept, including those whose only
renderings are deprecated, with every rendering's status, source and count."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from click.testing import CliRunner
from translate.storage import omegat, tbx

from rulekb.kb.termbase.export import ADMIN_STATUS
from rulekb.kb.termbase.model import Status
from rulekb.webapp.cli import main

_XML = "{http://www.w3.org/XML/1998/namespace}lang"


def _out(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(_out("terms", "--json"))
    return data


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def test_tbx_round_trips(records: list[dict[str, Any]]) -> None:
    store = tbx.tbxfile.parsestring(_out("terms", "--tbx").encode("utf-8"))
    units = {unit.getid(): unit for unit in store.units}
    assert list(units) == [r["concept"] for r in records]
    for record in records:
        unit = units[record["concept"]]
        assert unit.source == record["english"]
        russian = next(ls for ls in unit.xmlelement if _local(ls.tag) == "langSet" and ls.get(_XML) == "ru")
        read = []
        for tig in (e for e in russian if _local(e.tag) == "tig"):
            fields = {(_local(e.tag), e.get("type")): (e.text or "") for e in tig}
            context = fields[("descrip", "context")]
            read.append(
                (
                    fields[("term", None)],
                    fields[("termNote", "administrativeStatus")],
                    fields[("admin", "source")],
                    int(re.search(r", (\d+)×", context).group(1)),  # type: ignore[union-attr]
                    fields.get(("note", None), "").startswith("Mistranslation."),
                )
            )
        expected = [
            (r["text"], ADMIN_STATUS[Status(r["status"])], r["source_id"], r["count"], r["status"] == "mistranslation")
            for r in record["renderings"]
        ]
        assert read == expected, record["concept"]


def _expected_tsv(records: list[dict[str, Any]]) -> list[tuple[str, str, str, str, str]]:
    rows = []
    for record in records:
        groups: dict[tuple[str, str], list[str]] = {}
        for r in record["renderings"]:
            groups.setdefault((r["text"], r["status"]), []).append(r["source_id"])
        for (text, status), sources in groups.items():
            for name in (record["english"], record["abbreviation"]):
                if name:
                    rows.append((" ".join(name.split()), text, record["concept"], status, ", ".join(dict.fromkeys(sources))))
    return rows


def _read_comment(comment: str) -> tuple[str, str, str]:
    flagged = re.match(r"DO NOT USE \((\w+); ([a-z0-9-]+); ([^)]+)\)", comment)
    if flagged:
        status, concept, sources = flagged.groups()
        return concept, status, sources
    concept, status, sources = comment.split("; ", 2)
    return concept, status, sources


def test_omegat_glossary_round_trips(records: list[dict[str, Any]]) -> None:
    store = omegat.OmegaTFile.parsestring(_out("terms", "--tsv").encode("utf-8"))
    read = [(u.source, u.target, *_read_comment(u.getnotes())) for u in store.units]
    assert read == _expected_tsv(records)


def test_deprecated_only_concepts_are_exported_and_flagged(records: list[dict[str, Any]]) -> None:
    only_bad = [
        r["concept"] for r in records if r["renderings"] and all(x["status"] in ("deprecated", "mistranslation") for x in r["renderings"])
    ]
    assert {"titanic", "walker", "rapid-ingress"} <= set(only_bad)
    store = omegat.OmegaTFile.parsestring(_out("terms", "--tsv").encode("utf-8"))
    for concept in only_bad:
        rows = [u for u in store.units if _read_comment(u.getnotes())[0] == concept]
        assert rows and all(u.getnotes().startswith("DO NOT USE") for u in rows), concept


def test_csv_round_trips(records: list[dict[str, Any]]) -> None:
    rows = list(csv.DictReader(io.StringIO(_out("terms", "--csv"))))
    expected = [
        (r["concept"], x["source_id"], x["text"], x["status"], str(x["count"]), " ".join(map(str, x["lines"])))
        for r in records
        for x in r["renderings"]
    ]
    read = [(row["concept"], row["source_id"], row["rendering"], row["status"], row["count"], row["lines"]) for row in rows if row["rendering"]]
    assert read == expected
