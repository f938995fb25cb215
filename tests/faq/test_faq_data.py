"""The curated FAQ data: size, coverage, and every quote checked against the raw texts."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rulekb.corpus.models import EDITIONS
from rulekb.corpus.reader import load_manifest, read_lines
from rulekb.kb.faq.entries import MAX_CITED_LINES, FaqEntry, check_citations, load_faq

ENTRIES = load_faq()
SOURCES = {source.id: source for source in load_manifest()}

#: The least number of entries that must cite each source (the brief's rough split).
MIN_PER_SOURCE = {"10e-core": 40, "6e-rules": 12, "6e-assault": 15, "7e-pp58-67": 10, "kt": 8}


def _citing(source_id: str) -> list[FaqEntry]:
    return [e for e in ENTRIES if any(c.source == source_id for c in e.citations)]


def test_at_least_90_entries() -> None:
    assert len(ENTRIES) >= 90, f"the FAQ files have {len(ENTRIES)} entries; at least 90 are required"


def test_ids_are_unique() -> None:
    repeated = [entry_id for entry_id, n in Counter(e.id for e in ENTRIES).items() if n > 1]
    assert not repeated, f"repeated ids: {repeated}"


def test_every_edition_is_covered() -> None:
    assert {e.edition for e in ENTRIES} == set(EDITIONS)


@pytest.mark.parametrize("source_id", sorted(MIN_PER_SOURCE))
def test_every_source_is_cited_enough(source_id: str) -> None:
    assert source_id in SOURCES, f"{source_id!r} is not in corpus/sources.toml"
    count = len(_citing(source_id))
    assert count >= MIN_PER_SOURCE[source_id], (
        f"{source_id}: {count} entries cite it, want {MIN_PER_SOURCE[source_id]}"
    )


def test_every_manifest_source_is_cited() -> None:
    cited = {c.source for e in ENTRIES for c in e.citations}
    assert set(SOURCES) <= cited, f"never cited: {sorted(set(SOURCES) - cited)}"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_quotes_occur_in_cited_lines(entry: FaqEntry) -> None:
    problems = check_citations([entry])
    assert not problems, "\n".join(str(p) for p in problems)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_line_ranges_are_tight_and_inside_the_text(entry: FaqEntry) -> None:
    for citation in entry.citations:
        start, end = citation.lines
        total = len(read_lines(citation.source))
        assert 1 <= start <= end <= total, (
            f"{entry.id}: {citation.source} [{start}, {end}] outside 1..{total}"
        )
        assert end - start + 1 <= MAX_CITED_LINES, f"{entry.id}: {citation.source} [{start}, {end}] too wide"
        first, last = read_lines(citation.source)[start - 1], read_lines(citation.source)[end - 1]
        assert first.strip() and last.strip(), (
            f"{entry.id}: {citation.source} [{start}, {end}] starts or ends on a blank line; make it tight"
        )


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_entry_cites_its_own_edition(entry: FaqEntry) -> None:
    editions = {SOURCES[c.source].edition for c in entry.citations}
    assert entry.edition in editions, f"{entry.id}: edition {entry.edition!r}, cites {sorted(editions)}"


def test_variants_are_not_shared_between_entries() -> None:
    owners: dict[str, set[str]] = {}
    for entry in ENTRIES:
        for phrasing in (entry.question, *entry.variants):
            owners.setdefault(" ".join(phrasing.lower().split()), set()).add(entry.id)
    shared = {text: ids for text, ids in owners.items() if len(ids) > 1}
    assert not shared, f"phrasings used by more than one entry: {shared}"


def test_concepts_are_reused() -> None:
    """Concept ids are a shared vocabulary: most of them name more than one entry."""
    counts = Counter(concept for e in ENTRIES for concept in e.concepts)
    shared = sum(1 for n in counts.values() if n > 1)
    assert shared / len(counts) >= 0.5, f"only {shared} of {len(counts)} concepts are used twice or more"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_every_entry_has_an_english_answer_with_its_numbers(entry: FaqEntry) -> None:
    english = (entry.answer_en or "").strip()
    assert english, f"{entry.id}: add answer_en (the ruling in English) after its answer"
    # Russian renderings may be named in «», as the translation prints them; the rest is English.
    outside_quotes = re.sub(r"«[^»]*»", "", english)
    assert not re.search(r"[а-яё]", outside_quotes, re.IGNORECASE), f"{entry.id}: answer_en is not English: {english!r}"
    missing = sorted(set(re.findall(r"\d+", entry.answer)) - set(re.findall(r"\d+", english)), key=int)
    assert not missing, f"{entry.id}: answer_en lacks the numbers {missing} of the Russian answer"
