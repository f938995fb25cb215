"""The termbase against the sources: counts, raw line numbers, pages, KWIC, printed English."""

from __future__ import annotations

from rulekb.corpus.reader import read_lines
from rulekb.kb.termbase import Termbase, TermIndex, extract_english_terms, kwic, page_of
from rulekb.kb.text.analysis import lemma_key


def test_counts_and_lines_of_a_mistranslation(index: TermIndex) -> None:
    assert index.lines("hit-roll", "10e-core", "Ударная калитка") == [23, 604]
    assert index.count("hit-roll", "10e-core", "Ударная калитка") == 2


def test_lines_are_raw_lines(termbase: Termbase, index: TermIndex) -> None:
    """Every occurrence's line holds a word of the rendering (1-based, as sed -n counts)."""
    for occurrence in index.occurrences("kt") + index.occurrences("7e-pp58-67"):
        line = read_lines(occurrence.source_id)[occurrence.line - 1]
        first = occurrence.text.split()[0]
        assert first in line, (occurrence, line)


def test_occurrence_text_is_an_inflection_of_the_rendering(index: TermIndex) -> None:
    for occurrence in index.occurrences("kt"):
        if occurrence.rendering.isupper():
            continue
        assert len(lemma_key(occurrence.text)) == len(lemma_key(occurrence.rendering)), occurrence


def test_pages_from_markers() -> None:
    assert page_of("7e-pp58-67", 1) == 58
    assert page_of("7e-pp58-67", 37) == 59
    assert page_of("7e-pp58-67", 295) == 67
    assert page_of("10e-core", 604) is None


def test_kwic_by_concept_alias_and_phrase(index: TermIndex) -> None:
    rows = kwic("безумный героизм", index=index, width=30)
    assert {(r.source_id, r.line, r.page) for r in rows} >= {("7e-pp58-67", 37, 59), ("7e-pp58-67", 49, 59)}
    assert all(len(r.left) <= 30 and len(r.right) <= 30 for r in rows)
    overwatch = kwic("овервотч", source="kt", index=index)
    assert [r.line for r in overwatch] == [1, 3, 3, 3, 3, 73]
    assert overwatch[0].match == "Огонь на упреждение"
    phrase = kwic("карабкаться", index=index)
    assert [(r.source_id, r.line, r.match) for r in phrase] == [("kt", 71, "карабкаться"), ("kt", 71, "карабкаясь")]
    assert phrase[0].concept_id is None


def test_every_occurrence_belongs_to_a_rendering_of_its_source(termbase: Termbase, index: TermIndex) -> None:
    for occurrence in index.occurrences("6e-rules"):
        texts = {r.text for r in termbase[occurrence.concept_id].renderings_for("6e-rules")}
        assert occurrence.rendering in texts


def test_printed_english_terms() -> None:
    terms = extract_english_terms()
    found = {(t.source_id, t.line, t.text, t.kind) for t in terms}
    assert ("kt", 1, "overwatch", "gloss") in found
    assert ("kt", 7, "COUNTER- CHARGE", "gloss") in found
    assert ("10e-core", 732, "RAPID FIRE X", "ability") in found
    assert ("10e-core", 2046, "Objective Control", "gloss") in found
    assert ("6e-rules", 35, "WS", "gloss") in found
    assert {t.text for t in terms if (t.source_id, t.line) == ("7e-pp58-67", 153)} == {
        "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"
    }
    # model labels in a diagram caption and dice notation are not terms
    assert not [t for t in terms if (t.source_id, t.line) == ("6e-assault", 301)]
    assert not [t for t in terms if t.text == "x" or (t.text == "D" and t.kind != "gloss")]
