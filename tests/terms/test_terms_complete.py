"""The termbase is complete for every book: every printed heading names a concept or is ignored
with a reason, the renderings found by reading the texts are registered where they stand, and a
rendering means the same status for the same concept in every book."""

from __future__ import annotations

import pytest

from rulekb.corpus.words import is_caps
from rulekb.kb.termbase import Termbase, TermIndex, headings, unmapped_headings
from rulekb.kb.termbase.model import BAD_STATUSES
from rulekb.kb.termbase.occurrences import blocks, line_of
from rulekb.kb.text.analysis import lemma_key


def test_every_heading_names_a_concept_or_is_ignored_with_a_reason(termbase: Termbase) -> None:
    missing = unmapped_headings(termbase)
    assert not missing, "headings without a concept: " + "; ".join(f"{h.source_id}:{h.line} «{h.text}»" for h in missing)


def test_ignored_headings_are_printed_headings(termbase: Termbase) -> None:
    printed = {(h.source_id, " ".join(h.text.split()).casefold()) for h in headings(termbase)}
    for ignored in termbase.ignore:
        if ignored.heading:
            assert ignored.reason.strip()
            assert (ignored.source, " ".join(ignored.text.split()).casefold()) in printed, ignored.text


@pytest.mark.parametrize(
    ("concept", "source", "text", "line"),
    [
        ("overwatch", "6e-assault", "Дозорные выстрелы", 60),
        ("cover-save", "6e-assault", "спас бросков за укрытия", 54),
        ("armour-save", "6e-assault", "спасбросок за броню", 178),
        ("armour-save", "6e-assault", "спасбросок за броню", 201),
        ("assault", "10e-core", "Атаковать", 716),
        ("blast", "10e-core", "Взрыв", 836),
        ("heavy", "10e-core", "Тяжелый", 861),
        ("hazardous", "10e-core", "Опасный", 873),
        ("terrain", "kt", "ландшафт", 97),
        ("terrain-feature", "kt", "элементы террейна", 97),
        ("sweeping-advance", "7e-pp58-67", "преследование", 183),
        ("overwatch", "7e-pp58-67", "упреждающий", 43),
        ("move-over-models-and-terrain", "7e-pp58-67", "НЕБЕСНО-ДЕСАНТНЫЙ", 217),
        ("move-over-models-and-terrain", "7e-pp58-67", "НЕБЕСНО-ДЕСАНТНЫЙ", 233),
        ("bike-toughness-bonus", "7e-pp58-67", "ЖЕЛЕЗНЫЙ КОНЬ", 103),
        ("charge-sub-phase", "6e-assault", "фаза атаки", 103),
        ("charge-sub-phase", "6e-assault", "фаза атаки", 104),
    ],
)
def test_renderings_found_by_reading_count_where_they_stand(index: TermIndex, concept: str, source: str, text: str, line: int) -> None:
    assert line in index.lines(concept, source, text)


def test_the_charge_sub_phase_is_not_filed_as_the_assault_phase(index: TermIndex) -> None:
    assert not {103, 104} & {o.line for o in index.occurrences("6e-assault", "assault-phase") if "атак" in o.text.casefold()}


def test_heading_renderings_count_only_in_headings(termbase: Termbase, index: TermIndex) -> None:
    only = {(c.id, r.source, r.text) for c in termbase for r in c.rendering if r.heading}
    assert only
    for source in index.sources:
        heads = {b.first for b in blocks(source) if b.heading}
        for o in index.occurrences(source):
            if (o.concept_id, o.source_id, o.rendering) in only:
                assert line_of(source, o.start) in heads, f"{source}:{o.line} «{o.text}» is not a heading"
    # «Тяжелый» heads the Heavy rule once; the adjective elsewhere is not the ability
    assert index.lines("heavy", "10e-core", "Тяжелый") == [861]


def test_a_rendering_has_one_verdict_per_concept_across_books(termbase: Termbase) -> None:
    """The same string for the same concept is acceptable (preferred/admitted) in every book or
    to be avoided (deprecated/mistranslation) in every book."""
    for concept in termbase:
        verdicts: dict[tuple[tuple[str, ...], bool], set[bool]] = {}
        for r in concept.rendering:
            verdicts.setdefault((lemma_key(r.text), is_caps(r.text)), set()).add(r.status in BAD_STATUSES)
        mixed = [" ".join(key[0]) for key, v in verdicts.items() if len(v) > 1]
        assert not mixed, f"{concept.id}: «{mixed[0]}» is acceptable in one book and deprecated in another"
