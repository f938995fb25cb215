"""Finding concepts in text: inflections, slang, English, typos, glued keywords, spans."""

from __future__ import annotations

import pytest

from rulekb.corpus.reader import read_lines
from rulekb.kb.termbase import ConceptFinder, Matcher, Pattern, analyse, edit_distance
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.fuzzy import SlangIndex, deletions, slang_key
from rulekb.kb.text.matcher import as_tokens, term_tokens


@pytest.mark.parametrize(
    ("text", "concept_id"),
    [
        ("зоны поражения", "engagement-range"),
        ("в зоне поражения врага", "engagement-range"),
        ("бросков на попадание", "hit-roll"),
        ("неуязвимыми спасбросками", "invulnerable-save"),
        ("стратегемы", "stratagem"),
        ("стратегему", "stratagem"),
        ("спасброском брони", "armour-save"),
        ("Дозорной стрельбой", "overwatch"),
        ("чарджить", "charge"),
        ("реролл", "re-roll"),
        ("инвуль", "invulnerable-save"),
        ("дипстрайком", "deep-strike"),
        ("Engagement Range", "engagement-range"),
        ("overwatch", "overwatch"),
        ("Look Out Sir", "look-out-sir"),
        ("WS", "weapon-skill"),
    ],
)
def test_inflections_slang_and_english(finder: ConceptFinder, text: str, concept_id: str) -> None:
    assert concept_id in finder.concepts(text)


@pytest.mark.parametrize(
    ("typo", "concept_id"),
    [("овервотш", "overwatch"), ("кохерэнси", "unit-coherency"), ("дипстрак", "deep-strike"), ("overwach", "overwatch"), ("свипенг", "sweeping-advance")],
)
def test_fuzzy_aliases(finder: ConceptFinder, typo: str, concept_id: str) -> None:
    assert concept_id not in finder.concepts(typo, query=False)
    fuzzy = [m for m in finder.find(typo, query=True) if m.concept_id == concept_id]
    assert fuzzy and all(m.fuzzy for m in fuzzy)
    assert concept_id in [c.id for c in finder.search(typo)]


def test_short_words_are_not_fuzzy(finder: ConceptFinder) -> None:
    assert finder.concepts("фнв") == []  # «фнп» is three letters: only exact
    assert finder.concepts("xyzzy") == []


def test_function_word_is_not_an_abbreviation(finder: ConceptFinder) -> None:
    assert "victory-points" not in finder.concepts("по правилам")
    assert "victory-points" in finder.concepts("1 ПО за маркер", query=False)


def test_spans_point_into_the_text(finder: ConceptFinder) -> None:
    text = "Модели не могут завершить ход в пределах зоны поражения; инвуль не меняется от AP."
    for match in finder.find(text, query=True):
        assert text[match.start : match.end] == match.text
    spans = {m.concept_id: m.text for m in finder.find(text, query=True)}
    assert spans["engagement-range"] == "зоны поражения"
    assert spans["invulnerable-save"] == "инвуль"
    assert spans["armour-penetration"] == "AP"


def test_longest_match_wins(finder: ConceptFinder) -> None:
    found = finder.concepts("начальная сила отряда", query=False)
    assert "starting-strength" in found and "strength" not in found


def test_glued_keywords_are_split_with_raw_offsets(finder: ConceptFinder) -> None:
    line = read_lines("10e-core")[415 - 1]
    assert line.startswith("ЭтотТРАНСПОРТНОЕ СРЕДСТВООбладает")
    vehicle = [m for m in finder.find(line) if m.concept_id == "vehicle"]
    assert vehicle and (vehicle[0].start, vehicle[0].end) == (4, 4 + len("ТРАНСПОРТНОЕ СРЕДСТВО"))
    assert [t.original for t in analyse("ХАРАКТЕРмодель ЛЕТАТЬМодели ПОдвиг")] == ["ХАРАКТЕР", "модель", "ЛЕТАТЬ", "Модели", "ПОдвиг"]


@pytest.mark.parametrize(
    ("line", "concept_id", "text"),
    [
        (360, "monster", "МОНСТР"),
        (451, "fly", "ЛЕТАТЬ"),
        (434, "titanic", "ТИТАНИК"),
        (1270, "character", "ХАРАКТЕР"),  # «ХАРАКТЕРВ технических»
        (1409, "core-stratagem", "Основная стратегия"),  # «1CPОсновная стратегия»
        (1529, "infantry", "ПЕХОТА"),  # «ПЕХОТАОтряд»
        (1543, "smoke", "ДЫМ"),  # «ДЫМОтряд»
        (1735, "beasts", "ЗВЕРИ"),  # «ЗВЕРИиЛЕТАТЬМодели»
        (1954, "dedicated-transport", "ПРЕДАННЫЙ ТРАНСПОРТ"),
        (1958, "character", "ПЕРСОНАЖИ"),  # «ПЕРСОНАЖИюнитам»
    ],
)
def test_keywords_in_the_10th_edition_text(finder: ConceptFinder, line: int, concept_id: str, text: str) -> None:
    raw = read_lines("10e-core")[line - 1]
    assert text in [" ".join(m.text.split()) for m in finder.find(raw) if m.concept_id == concept_id], raw[:120]


def test_keyword_forms_match_only_capitals() -> None:
    matcher = Matcher([Pattern("infantry", "ПЕХОТА")])
    assert [m.text for m in matcher.find("Эта ПЕХОТА и эта пехота")] == ["ПЕХОТА"]
    assert [m.text for m in matcher.find("Эта ПЕХОТА и эта пехота", query=True)] == ["ПЕХОТА", "пехота"]


def test_gaps_must_be_soft() -> None:
    matcher = Matcher([Pattern("x", "огонь на упреждение"), Pattern("y", "Берегитесь, сэр")])
    assert [m.concept_id for m in matcher.find("Огонь на «упреждение»; берегитесь, сэр!")] == ["x", "y"]
    assert matcher.find("огонь. На упреждение") == []


def test_edit_distance() -> None:
    assert edit_distance("овервоч", "овервотч") == 1
    assert edit_distance("abc", "abc") == 0
    assert edit_distance("kitten", "sitting", limit=5) == 3
    assert edit_distance("abcdef", "uvwxyz", limit=2) == 3


def test_the_longest_span_wins_in_text_the_leftmost_in_a_query() -> None:
    matcher = Matcher([Pattern("red", "красная модель"), Pattern("enemy", "модель отряда врага")])
    text = "красная модель отряда врага"
    assert [m.concept_id for m in matcher.find(text)] == ["enemy"]
    spans = matcher.spans(analyse(text), text)
    assert sorted((a, b, p.concept_id) for a, b, p in spans) == [(0, 2, "red"), (1, 4, "enemy")]
    assert [(a, b, [p.concept_id for p in ps]) for a, b, ps in Matcher.leftmost(spans)] == [(0, 2, ["red"])]


def test_query_side_mode_matches_lemmas_only() -> None:
    patterns = [Pattern("vehicle", "ТРАНСПОРТНОЕ СРЕДСТВО"), Pattern("strength", "S", "abbreviation")]
    text = "транспортного средства, s"
    assert Matcher(patterns).find(text) == []  # capitals only, one letter not indexed
    loose = Matcher(patterns, analyser=term_tokens, text_rules=False)
    found = {(a, b, p.concept_id) for a, b, p in loose.spans(term_tokens(text), text)}
    assert found == {(0, 2, "vehicle"), (2, 3, "strength")}
    terms = list(tokens(text))
    assert as_tokens(terms)[0].lemmas == frozenset({terms[0].text})


def test_slang_index_spellings_stems_and_one_edit() -> None:
    index = SlangIndex()
    index.add("баттл-шок", "battle-shock")
    index.add("реролл", "re-roll")
    index.add("ховер", "hover")
    assert index.lookup("Батлшок") == {"battle-shock"}  # the same key
    assert index.lookup("бэтлшок") == {"battle-shock"}  # one letter changed
    assert index.lookup("бэтлшок", edits=False) == set()
    assert index.lookup("рерольнуть") == {"re-roll"}  # the stem
    assert index.lookup("ховар") == set()  # short words only exactly
    assert slang_key("ковёр") == slang_key("кавер") and deletions("аб") == {"а", "б"}
