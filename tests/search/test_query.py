"""Query understanding: editions, cleaning, concepts, expansions and spelling."""

from __future__ import annotations

import pytest

from rulekb.corpus.errors import QueryError
from rulekb.kb.search.query import (
    MAX_QUERY_CHARS,
    ConceptEntry,
    ConceptMatcher,
    Speller,
    clean_query,
    detect_editions,
    parse_query,
    slang_key,
    translit_key,
)


@pytest.mark.parametrize(
    ("text", "editions"),
    [
        ("Как работает овервотч в 6-й?", ["6"]),
        ("а в 6-ке можно?", ["6"]),
        ("Лд тест в шестёрке", ["6"]),
        ("в шестерке так было", ["6"]),
        ("overwatch in 6th edition", ["6"]),
        ("6e charge range", ["6"]),
        ("10ed battle-shock", ["10"]),
        ("а в десятке как?", ["10"]),
        ("в 10-ке иначе", ["10"]),
        ("в 10-й редакции", ["10"]),
        ("в 7-й редакции отступление", ["7"]),
        ("в седьмой редакции", ["7"]),
        ("размер стола в kill team", ["kt"]),
        ("в киллтиме", ["kt"]),
        ("кт: контратака", ["kt"]),
        ("Лд тест в шестёрке и в десятке", ["6", "10"]),
        ("Чем мораль в 6-й отличается от баттл-шока в 10-й?", ["6", "10"]),
        ("Консолидация в 6-й и в 10-й", ["6", "10"]),
        ("Перебрасываю 2д6 в 6-ке — можно один куб?", ["6"]),  # «в 6-ке» is where, even after dice
        ("а в 7й как?", ["7"]),
    ],
)
def test_editions_are_detected(text: str, editions: list[str]) -> None:
    assert detect_editions(text) == editions


@pytest.mark.parametrize(
    "text",
    [
        "на кубе выпала шестёрка, что дальше?",
        "если выкинул 6-ку на попадание",
        "перекинул кубик в 6-ку",
        "попадаю на 3+ и ранение на 6+",
        "отряд из 10 моделей на расстоянии 6 дюймов",
        "навык WS 4 против T 6",
        "ракета",  # «кт» inside a word is not Kill Team
    ],
)
def test_numbers_and_dice_are_not_editions(text: str) -> None:
    assert detect_editions(text) == []


def test_explicit_edition_wins_and_unknown_is_refused() -> None:
    assert parse_query("консолидация в 6-й", edition="10").editions == ["10"]
    assert parse_query("консолидация в 6-й", edition="10").edition == "10"
    with pytest.raises(QueryError, match="Unknown edition '11'"):
        parse_query("консолидация", edition="11")


def test_two_editions_report_none_as_the_one_edition() -> None:
    parsed = parse_query("консолидация в 6-й и в 10-й")
    assert parsed.editions == ["6", "10"] and parsed.edition is None
    # the words naming editions are not searched for
    assert not {t.text for t in parsed.terms} & {"6", "10", "й"}
    assert ("консолидация", 1.0) in {(t.text, t.weight) for t in parsed.terms}


def test_cleaning_drops_control_characters_and_emoji() -> None:
    assert clean_query("бро\x00сок\x07 🎲 на\u200b ранение\n\t") == "бро сок на ранение"


def test_overlong_question_is_a_clear_error() -> None:
    with pytest.raises(QueryError, match=f"at most {MAX_QUERY_CHARS}"):
        clean_query("а" * (MAX_QUERY_CHARS + 1))


@pytest.mark.parametrize(
    "text",
    ['title:x AND (', "*", '"', "((((", "NOT OR AND", "text:*бросок*", "?", "🎲🎲", "", "   ", "\x00\x01"],
)
def test_hostile_text_is_just_words(text: str) -> None:
    parsed = parse_query(text)
    for term in parsed.terms:
        assert term.text and all(ch not in term.text for ch in ':*()"')


# --- concepts, on a small termbase of our own (the real one is tested in test_search) -----------

CONCEPTS = [
    ConceptEntry(
        "overwatch",
        "Overwatch",
        (
            ("Overwatch", "english", ""),
            ("овервотч", "alias", ""),
            ("Огонь на упреждение", "rendering", "10e-core"),
            ("Дозорная стрельба", "rendering", "6e-assault"),
        ),
    ),
    ConceptEntry(
        "battle-shock",
        "Battle-shock",
        (("Battle-shock", "english", ""), ("баттл-шок", "alias", ""), ("боевой шок", "rendering", "10e-core")),
    ),
    ConceptEntry("charge", "Charge", (("Charge", "english", ""), ("чардж", "alias", ""))),
    ConceptEntry(
        "strength", "Strength", (("Strength", "english", ""), ("S", "abbreviation", ""), ("Сила", "rendering", "6e-rules"))
    ),
    ConceptEntry(
        "vehicle", "Vehicle", (("Vehicle", "english", ""), ("ТРАНСПОРТНОЕ СРЕДСТВО", "rendering", "10e-core"))
    ),
]


@pytest.fixture(scope="module")
def matcher() -> ConceptMatcher:
    return ConceptMatcher(CONCEPTS)


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("Как работает дозорной стрельбой?", "overwatch"),  # any inflection of a rendering
        ("огня на упреждение", "overwatch"),
        ("how does overwatch work", "overwatch"),
        ("Когда кидается боевого шока?", "battle-shock"),
        ("После чарджа", "charge"),
        ("У босса S3", "strength"),
    ],
)
def test_concepts_in_any_inflection_and_language(matcher: ConceptMatcher, question: str, concept: str) -> None:
    assert concept in parse_query(question, matcher=matcher).concepts


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("Когда кидается бэтлшок?", "battle-shock"),  # another spelling of the slang
        ("Зачарджил через руины", "charge"),  # a verb made of the slang, with a prefix
        ("чарджить можно?", "charge"),
        ("овервоч по нему", "overwatch"),  # a typo in the slang
    ],
)
def test_fuzzy_slang(matcher: ConceptMatcher, question: str, concept: str) -> None:
    assert concept in parse_query(question, matcher=matcher, vocabulary=set()).concepts


def test_capital_abbreviation_is_not_an_everyday_word() -> None:
    matcher = ConceptMatcher([ConceptEntry("victory-points", "Victory points", (("ПО", "rendering", "10e-core"),))])
    assert parse_query("сколько ПО за цель", matcher=matcher).concepts == ["victory-points"]
    assert parse_query("по цели", matcher=matcher).concepts == []


def test_short_slang_is_not_matched_by_an_edit(matcher: ConceptMatcher) -> None:
    hover = ConceptEntry("hover", "Hover", (("ховер", "alias", ""),))
    cover = ConceptEntry("cover", "Cover", (("кавер", "alias", ""),))
    both = ConceptMatcher([hover, cover])
    assert both.fuzzy("ковер") == {"cover"}  # the same word said with an «а»
    assert both.fuzzy("ховерр") == {"hover"}
    assert both.fuzzy("ховар") == set()


def test_one_letter_abbreviations_need_a_value(matcher: ConceptMatcher) -> None:
    assert "strength" not in parse_query("S is a letter", matcher=matcher).concepts
    assert "strength" not in parse_query("с другом", matcher=matcher).concepts


def test_capitals_rendering_matches_capitals_only_in_text(matcher: ConceptMatcher) -> None:
    from rulekb.kb.text.analysis import tokens

    text_caps = "Эта модель ТРАНСПОРТНОЕ СРЕДСТВО."
    text_lower = "Это транспортное средство доставки."
    assert [m.concept for m in matcher.match_terms(list(tokens(text_caps)), query=False, raw=text_caps)] == ["vehicle"]
    assert matcher.match_terms(list(tokens(text_lower)), query=False, raw=text_lower) == []
    # a player does not type capitals
    assert "vehicle" in parse_query("транспортное средство", matcher=matcher).concepts


def test_slang_key_ignores_spelling_noise() -> None:
    assert slang_key("баттл-шок") == slang_key("Баттлшок") == slang_key("батлшок") == "батлшак"
    assert slang_key("бэтлшок") == "бетлшак"
    assert slang_key("ковёр") == slang_key("кавер")


def test_english_and_synonyms_expand_at_a_lower_weight(matcher: ConceptMatcher) -> None:
    parsed = parse_query("enemy unit", matcher=matcher)
    weights = {t.text: (t.weight, t.origin) for t in parsed.terms}
    assert weights["вражеский"][1] == "english" and weights["вражеский"][0] < 1
    assert weights["отряд"][1] == "english"
    parsed = parse_query("юнит", matcher=matcher)
    weights = {t.text: (t.weight, t.origin) for t in parsed.terms}
    assert weights["юнит"] == (1.0, "word")
    assert weights["отряд"][1] == "synonym" and weights["отряд"][0] < 1


def test_speller_corrects_one_edit_and_keeps_known_words() -> None:
    speller = Speller({"перемещение": 10, "перемещения": 5, "модель": 20})
    assert speller.correct("перемещене") == "перемещение"
    assert speller.correct("модель") is None
    assert speller.correct("абракадабра") is None
    parsed = parse_query("перемещене", speller=speller, vocabulary={"модель"}, matcher=ConceptMatcher([]))
    assert parsed.corrections == {"перемещене": "перемещение"}
    assert parsed.did_you_mean == "перемещение"
    assert "перемещение" in {t.text for t in parsed.terms}


def test_speller_corrects_to_a_dictionary_form_of_a_lemma_the_texts_print() -> None:
    # the texts print «замедляются», never «замедляется»: the misspelt «замедляеться» still finds it
    speller = Speller({"замедляются": 3, "модель": 20}, frozenset({"замедляться", "модель"}))
    assert speller.correct("замедляеться") == "замедляется"
    assert Speller({"замедляются": 3}).correct("замедляеться") is None  # without the lemmas: no fix
    assert speller.correct("абракадабра") is None


def test_known_russian_words_are_not_corrected() -> None:
    speller = Speller({"сметка": 3})
    parsed = parse_query("сметана", speller=speller, vocabulary=set(), matcher=ConceptMatcher([]))
    assert parsed.corrections == {}


@pytest.mark.parametrize(
    ("text", "edition"),
    [("Байкеры в 7-й редакции могут залечь?", "редакция"), ("In 6th edition, what happens?", "edition")],
)
def test_the_word_edition_after_the_number_is_not_searched(text: str, edition: str) -> None:
    parsed = parse_query(text)
    assert parsed.editions and edition not in {t.text for t in parsed.terms}


def test_a_named_edition_expands_through_its_own_renderings() -> None:
    """«пайл-ин в 6-ке» searches the 6th edition's word for pile-in, not the 10th edition's."""
    in_sixth = {t.text for t in parse_query("пайл-ин в 6-ке: на сколько дюймов?").terms}
    anywhere = {t.text for t in parse_query("пайл-ин: на сколько дюймов?").terms}
    assert "сближение" in in_sixth and "навалиться" not in in_sixth
    assert {"сближение", "навалиться"} <= anywhere


def test_a_concept_the_named_edition_does_not_render_keeps_every_rendering() -> None:
    # stratagems are a 10th-edition rule: asked about in the 6th, they are still searched
    without = {t.text for t in parse_query("страта").terms if t.origin == "rendering"}
    in_sixth = {t.text for t in parse_query("страта в 6-ке").terms if t.origin == "rendering"}
    assert without and in_sixth == without


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("гоу ту граунд", "Go to Ground"),
        ("хазардус", "Hazardous"),
        ("чардж", "charge"),
        ("овервотч", "Overwatch"),
        ("энгейдж ренж", "engage range"),
        ("стратеджик резерв", "strategic reserve"),
        ("лук аут сэр", "Look Out, Sir"),
        ("свипинг эдванс", "Sweeping Advance"),
        ("реролл", "re-roll"),
    ],
)
def test_translit_key_hears_a_cyrillic_spelling_as_the_english_name(typed: str, english: str) -> None:
    assert translit_key(typed) == translit_key(english)


def test_translit_key_keeps_words_apart() -> None:
    # doubled letters merge inside a word only: «стратрезерва во» is not «стратрезерв»
    assert translit_key("стратрезерва во") != translit_key("стратрезерв")
    assert translit_key("а и у") == ""


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("что даёт стратагема гоу ту граунд?", "go-to-ground"),
        ("хазардус оружие: на что кидать?", "hazardous"),
        ("стратеджик резерв когда приходит", "strategic-reserves"),  # «Strategic Reserves», plural
        ("героик интервеншн в 10ке", "heroic-intervention"),  # «h» heard as «г»
    ],
)
def test_english_rule_names_spelt_in_cyrillic_are_recognised(question: str, concept: str) -> None:
    assert concept in parse_query(question).concepts


def test_a_longer_transliteration_wins_over_the_word_inside_it() -> None:
    concepts = parse_query("девастейтинг вундс и летал хитс").concepts
    assert "lethal-hits" in concepts and "fly" not in concepts  # «летал» alone is «летать»


@pytest.mark.parametrize(
    "question",
    [
        "перегруп в 7ке, если от отряда осталось меньше четверти",  # «ке если от» sounds like «casualty»
        "мой отряд на кухне",
        "как сварить борщ",
        "рубится с моими интерами",  # «моими интерами» sounds like «Munitorum», one English word
    ],
)
def test_function_words_and_fragments_are_not_transliterations(question: str) -> None:
    concepts = set(parse_query(question).concepts)
    assert "casualty" not in concepts and "munitorum-field-manual" not in concepts
    assert concepts <= {"regroup", "unit", "close-combat", "fight-phase"}


def test_slang_with_synonyms_still_names_its_concept() -> None:
    """«морталок» has everyday synonyms («смертельный») and is the plural of the alias «мортал»:
    both count."""
    assert "mortal-wounds" in parse_query("инвуль от морталок?", vocabulary=frozenset()).concepts


def test_every_spelling_of_an_alias_is_slang_even_when_its_lemma_is_taken() -> None:
    entry = ConceptEntry("mortal-wounds", "Mortal Wounds", (("морталы", "alias", ""), ("мортал", "alias", "")))
    matcher = ConceptMatcher([entry])
    assert matcher.fuzzy("морталок", edits=False) == {"mortal-wounds"}


def test_a_book_name_that_is_a_term_says_where_when_the_question_has_other_words() -> None:
    """«Kill Team» names the book and a concept of its texts: with other words it only says where
    (as a concept it would rank the book's introductions first); alone, or inside a longer concept's
    name («Kill Team missions»), it is searched."""
    where = parse_query("Что даёт правило Огнеупорный в КТ?")
    assert where.editions == ["kt"] and "kill-team" not in where.concepts
    assert not {"кт", "kill", "team"} & {t.text for t in where.terms}
    assert "non-flammable" in where.concepts
    alone = parse_query("Что такое Kill Team?")
    assert alone.editions == ["kt"] and "kill-team" in alone.concepts
    assert "kill-team-mission" in parse_query("Kill Team missions").concepts
