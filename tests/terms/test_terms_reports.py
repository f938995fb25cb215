"""Inconsistency reports, the draft lint and the summary table."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.termbase import (
    ConceptFinder,
    Termbase,
    TermIndex,
    check_draft,
    inconsistencies,
    stats_rows,
    stats_table,
)

DATA = Path(__file__).parent / "data"


def test_variants_per_source(index: TermIndex) -> None:
    report = inconsistencies(index, "10e-core")
    assert {v.source_id for v in report.variants} == {"10e-core"}
    er = next(v for v in report.variants if v.concept_id == "engagement-range")
    texts = [t for t, _, _ in er.renderings]
    assert {"зона поражения", "дальность боя", "Диапазон поражения", "досягаемость"} <= set(texts)
    counts = [n for _, _, n in er.renderings]
    assert counts == sorted(counts, reverse=True) and all(n > 0 for n in counts)


def test_one_string_several_concepts_within_a_source(index: TermIndex) -> None:
    report = inconsistencies(index)
    reach = [s for s in report.within_source if s.text == "досягаемость"]
    assert len(reach) == 1
    assert {u[0] for u in reach[0].uses} == {"10e-core"}
    assert reach[0].concept_ids == ["engagement-range", "objective-range", "range"]


def test_one_string_different_concepts_across_sources(index: TermIndex) -> None:
    report = inconsistencies(index)
    advance = [s for s in report.across_sources if s.text.lower() == "наступление"]
    assert len(advance) == 1
    assert {(u[0], u[1]) for u in advance[0].uses} == {("kt", "charge"), ("7e-pp58-67", "assault-phase"), ("10e-core", "advance")}
    counter = [s for s in report.across_sources if s.text.lower() == "контрнаступление"]
    assert {(u[0], u[1]) for u in counter[0].uses} == {("kt", "counter-charge"), ("10e-core", "counter-offensive")}


def test_source_filter_keeps_only_strings_used_there(index: TermIndex) -> None:
    report = inconsistencies(index, "kt")
    assert all("kt" in {u[0] for u in s.uses} for s in report.across_sources)
    assert all(u[0] == "kt" for s in report.within_source for u in s.uses)


def test_check_draft_flags_exactly_the_known_mistakes(termbase: Termbase, finder: ConceptFinder) -> None:
    flags = check_draft((DATA / "draft.txt").read_text(encoding="utf-8"), termbase, finder)
    assert {(f.line, f.column, f.concept_id) for f in flags} == {
        (2, 4, "hit-roll"),
        (4, 17, "benefit-of-cover"),
        (4, 52, "pile-in"),
        (5, 1, "roll-off"),
        (5, 38, "character"),
        (6, 23, "attached-unit"),
        (6, 43, "vehicle"),
        (7, 3, "charge-phase"),
        (7, 28, "declare-charge"),
        (8, 19, "engagement-range"),  # once, for the sense its context gives — not three fixes
    }
    hit = next(f for f in flags if f.concept_id == "hit-roll")
    assert (hit.text, hit.status, hit.preferred) == ("Ударная калитка", "mistranslation", "бросок на попадание")
    assert hit.note


def test_check_draft_leaves_a_clean_text_alone(termbase: Termbase, finder: ConceptFinder) -> None:
    assert check_draft((DATA / "clean.txt").read_text(encoding="utf-8"), termbase, finder) == []


def test_stats(index: TermIndex) -> None:
    rows = {row["source_id"]: row for row in stats_rows(index)}
    assert set(rows) == set(index.sources)
    assert rows["10e-core"]["flagged"] > rows["6e-assault"]["flagged"]
    assert sum(r["renderings"] for r in rows.values()) == sum(len(c.rendering) for c in index.termbase)
    table = stats_table(index)
    assert table.count("\n") == len(rows) + 3
    assert table.startswith("| source |")
