"""Terminology cards: the term a question marks (a quote, an English name typed another way), the
related concepts beside each term, and the questions whose words ask terminology."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekb.kb.ask.answer import ask
from rulekb.kb.ask.card_terms import pick_concepts, records
from rulekb.kb.ask.form import question_form
from rulekb.kb.ask.terms_quoted import quoted_concepts, quoted_spans, sharing_words
from rulekb.kb.ask.terms_related import related_renderings


def test_quoted_spans_drop_a_list_number_and_keep_the_order() -> None:
    assert quoted_spans("Пункт «2. Бросок на ранение» и 'Pile In'") == ["Бросок на ранение", "Pile In"]
    assert quoted_spans("без кавычек") == []


def test_a_quoted_rendering_finds_its_concept(built: Path) -> None:
    known = records(built)
    assert quoted_concepts("Что за строка «Зона поражения» в книге?", known) == ["engagement-range"]
    # a quote of an ordinary sentence names no concept as a whole
    assert quoted_concepts("Там написано «вы можете выбрать один отряд».", known) == []
    picked = pick_concepts(built, "В тексте есть «Зона поражения» рядом с отрядом — что это за термин?",
                           ["unit", "engagement-range"])
    assert picked[0] == "engagement-range"


def test_an_english_name_typed_another_way_is_read_by_a_word_it_shares(built: Path) -> None:
    known: dict[str, Any] = {
        "a": {"english": "Insane Courage", "related": ["b"]},
        "b": {"english": "Regroup", "related": []},
        "c": {"english": "Insane Bravery", "related": []},
        "d": {"english": "Hit roll", "related": []},
    }
    assert sharing_words("insane valour", known, ["b"]) == "a"  # the one related to the regroup asked
    assert sharing_words("insane valour", known, []) is None  # two share «insane», nothing tells them apart
    assert sharing_words("roll phase", known, []) is None  # words too common to name a concept
    assert sharing_words("regroupment rules", known, []) is None
    known["e"] = {"english": "Morale check", "related": []}
    assert sharing_words("translator check", known, []) is None  # a word of the question's prose
    assert sharing_words("what names do the books give to insane valour", known, ["b"]) is None  # prose


def test_related_concepts_show_their_renderings_in_the_asked_books(built: Path) -> None:
    from rulekb.kb.ask.card_terms import _sources

    known = records(built)
    record = known["blast-marker"]
    sixth = related_renderings(known, record, _sources(built), ["6"])
    assert any(line.startswith("Small blast marker — «Малый маркер взрыва»") for line in sixth)
    assert related_renderings(known, record, _sources(built), ["10"]) == []  # none printed in the 10th
    # a term printed in one book only gets its neighbours' renderings in that book
    card = ask("How is 'Heroic Intervention' translated?", build_dir=built)["card"]
    related = next(line for line in card["text"].splitlines() if line.startswith("Related terms"))
    assert "10e-core" in related and "6e-assault" not in related and "(kt)" not in related
    card = ask("Как в 6-й редакции переведён blast marker?", build_dir=built)["card"]
    assert "Связанные термины в этих книгах:" in card["text"] and "Малый маркер взрыва" in card["text"]


def test_words_that_ask_what_a_term_is_read_as_terminology() -> None:
    assert question_form("Что это за термин «Запасной ход» и как он звучит в оригинале?") == "terminology"
    assert question_form("Как это называется в самом тексте правил, если по-английски Pile In?") == "terminology"
    assert question_form("консолидация и сближение перевод 6ка") == "terminology"
    # moving a unit («перевод в резерв») asks no translation: terse queries, as the rule reads them
    # (review 13-2, finding 9: a question with «как» and «?» never reached it)
    assert question_form("перевод отряда в стратегический резерв") != "terminology"
    assert question_form("перевод отрядов из резерва") != "terminology"
    assert question_form("перевод юнитов на поле боя") != "terminology"


def test_a_word_several_concepts_share_gets_each_concept(built: Path) -> None:
    card = ask("овервотч перевод 10ка и 6ка", build_dir=built)["card"]
    assert card["kind"] == "terminology"
    assert {p["edition"] for p in card["per_edition"]} >= {"10", "6"}


def test_the_original_rules_asked_about_are_no_terminology_question() -> None:
    # review 13-2, finding 1: «в оригинале» asks for a name only beside a naming word
    assert question_form("In the original rules, can a unit shoot after falling back?") == "yesno"
    assert question_form("В оригинале можно стрелять после фолбэка?") == "yesno"
    assert question_form("Как в оригинале работает овервотч?") == "procedure"
    assert question_form("Как называется в оригинале консолидация?") == "terminology"
    assert question_form("What is Pile In called in the original?") == "terminology"


def _blocks(built: Path, question: str) -> list[str]:
    card = ask(question, build_dir=built)["card"]
    assert card["kind"] == "terminology"
    return [line.split(" — ")[0] for line in card["text"].splitlines()
            if not line.startswith("•") and (" — как передан" in line or " — renderings" in line)]


def test_russian_terms_joined_keep_each_term_and_the_concepts_sharing_its_word(built: Path) -> None:
    # finding 2: «овервотч» names two concepts; the second term asked is kept, in either order
    assert _blocks(built, "Как переведены овервотч и консолидация?") == ["Fire Overwatch", "Overwatch", "Consolidate"]
    assert _blocks(built, "овервотч и консолидация перевод") == ["Fire Overwatch", "Overwatch", "Consolidate"]
    assert _blocks(built, "Как переведены консолидация и овервотч?") == ["Consolidate", "Fire Overwatch", "Overwatch"]


def test_a_quoted_term_joins_the_terms_named_otherwise_in_the_question_order(built: Path) -> None:
    # finding 3: a quote no longer hides a misspelt name, a shared English name or the order
    assert _blocks(built, "Как переведён Overwach и что за термин «Зона поражения»?") == [
        "Fire Overwatch", "Overwatch", "Engagement Range"]
    assert _blocks(built, "Как переведены «Зона поражения» и Overwatch?") == [
        "Engagement Range", "Fire Overwatch", "Overwatch"]
    assert _blocks(built, "Как переведены Overwatch и «Зона поражения»?") == [
        "Fire Overwatch", "Overwatch", "Engagement Range"]


def test_english_prose_beside_a_named_term_marks_no_second_term(built: Path) -> None:
    # finding 4: an adjective of the prose ("Basic", "Small", "Heroic") is no name typed another way
    assert _blocks(built, "Basic question: how is Pile In translated?") == ["Pile In"]
    assert _blocks(built, "Small question, how is Pile In translated?") == ["Pile In"]
    assert _blocks(built, "Important: how is Pile In translated?") == ["Pile In"]
    assert _blocks(built, "Translator question, Heroic: how is Overwatch translated?") == ["Fire Overwatch", "Overwatch"]
    # a run written as a name still is one
    assert _blocks(built, "Как переведён Insane Heroism при перегруппировке?")[0] == "Insane Courage (double 1)"


def test_bare_translation_is_read_by_what_the_noun_governs() -> None:
    # finding 5: a moved unit is no translation; an edition or a language after «перевод» is one
    assert question_form("перевод отряда из резерва на стол") != "terminology"
    assert question_form("перевод " + "отряд " * 2000) != "terminology"
    assert question_form("овервотч перевод в 10ке") == "terminology"
    assert question_form("консолидация перевод на русский") == "terminology"
    assert question_form("Перевод фолбэка в 6ке") == "terminology"
    assert question_form("фолбэк перевод?") == "terminology"  # a terse query with a «?» is as terse
    assert question_form("пайл ин перевод?") == "terminology"


def test_an_inch_mark_opens_no_quote(built: Path) -> None:
    # finding 6: «6"» is a distance, the quoted term is read in either order
    assert quoted_spans('Движение на 6" и "Зона поражения" — что это за термин?') == ["Зона поражения"]
    assert quoted_spans('Что это за термин "Зона поражения" при движении на 6"?') == ["Зона поражения"]
    assert "Engagement Range" in _blocks(built, 'Движение на 6" и "Зона поражения" — что это за термин?')
    assert _blocks(built, 'Что это за термин "Зона поражения" при движении на 6"?') == ["Engagement Range"]


def test_a_possessive_name_is_found_however_its_apostrophe_is_typed(built: Path) -> None:
    # finding 7: a typographic apostrophe or none reaches the concept the mistranslation is flagged on
    for typed in ("Attacker's", "Attacker’s", "Attackers"):
        assert _blocks(built, f"Как переведено {typed} Battlefield Edge?") == ["Attacker's Battlefield Edge"]


def test_a_book_printing_only_a_mistranslation_is_not_called_consistent(built: Path) -> None:
    # finding 11: no right rendering in the book is no verdict of consistency
    card = ask("How is Attacker's Battlefield Edge translated?", build_dir=built)["card"]
    line = next(line for line in card["text"].splitlines() if line.startswith("• 10e-core"))
    assert line.endswith("only a mistranslation") and "consistent" not in line
    card = ask("Как переведено Attacker's Battlefield Edge?", build_dir=built)["card"]
    assert "только ошибочный перевод" in card["text"] or "only a mistranslation" in card["text"]


def test_a_question_phrase_is_no_alias_of_a_term(built: Path) -> None:
    # finding 8: something burning, who won, who attacks are no Kill Team marker or mission step
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    assert "on-fire" not in index.parse("Если здание горит, можно ли в нём стоять?").concepts
    assert "on-fire" not in index.parse("Если модель горит, может ли она стрелять?").concepts
    assert "on-fire" in index.parse("Что делает маркер горения?").concepts
    assert "determine-victor" not in index.parse("Кто победил, если очков поровну?").concepts
