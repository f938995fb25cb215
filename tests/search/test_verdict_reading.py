"""What a yes/no question asks, read so that a new phrasing still gets its verdict: a question word in a
condition or a comparison asks nothing (the form stays yes/no), and the player's verb is the book's
through its synonym group."""

from __future__ import annotations

import pytest

from rulekb.kb.ask.form import question_form
from rulekb.kb.text.stated import stated_predicate
from rulekb.kb.text.verdicts import yes_no_lead
from rulekb.kb.text.vocabulary import load_vocabulary, synonym_map

GROUPS = load_vocabulary().groups  # the synonym groups of kb/data/synonyms.toml, as a build serves them


@pytest.mark.parametrize(
    "question",
    [
        "Когда отряд вышел из боя, он может стрелять?",
        "Если отряд стоит там, где враг, он стреляет?",
        "When my unit falls back, can it shoot?",
        "Я могу стрелять как обычно?",
        "Если враг где-то рядом, отряд стреляет?",
        "Можно ли объявить нападение дальше, чем на 12 дюймов?",
    ],
)
def test_a_question_word_in_a_condition_or_a_comparison_leaves_a_yes_no_question(question: str) -> None:
    assert question_form(question) == "yesno"


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("Что происходит с отрядом, который вышел из боя?", "procedure"),
        ("Как выйти из боя, если враг рядом?", "procedure"),
        ("If my unit advanced, what can it do?", "lookup"),
        ("10th edition: when and where can my reserves be set up?", "lookup"),
        ("Как обычно стреляют пистолеты?", "procedure"),
    ],
)
def test_a_question_word_of_the_clause_that_asks_still_asks(question: str, form: str) -> None:
    assert question_form(question) == form


RULING = "Эти элементы рельефа представляют собой возвышенности, на которых можно устанавливать модели."


def test_the_players_verb_is_stated_by_a_verb_of_its_synonym_group() -> None:
    group = synonym_map()
    other = next((v for v in group.get("поставить", ()) if v.startswith("устан")), None)  # the book's verb, from the data
    assert other is not None
    found = stated_predicate(RULING, ("поставить",), GROUPS)
    assert found is not None and found[1] == "yes"
    assert stated_predicate(RULING, ("летать",), GROUPS) is None  # a verb of no group of the ruling's words


def test_a_noun_of_the_group_states_no_predicate() -> None:
    # «выстрел» shares the group of «стрелять» but names the action: it states nothing about shooting
    assert "выстрел" in synonym_map().get("стрелять", ())
    assert stated_predicate("Выстрел производится по правилам.", ("стрелять",), GROUPS) is None
    found = stated_predicate("Модели этого отряда могут стрелять.", ("пострелять",), GROUPS)
    assert found is not None and found[1] == "yes"


def test_a_permission_stated_by_the_books_verb_leads_with_yes() -> None:
    weights = {"поставить": 1.0, "модель": 0.5, "возвышенность": 1.0}
    question = "Можно ли поставить модель на возвышенность?"
    assert yes_no_lead(RULING, "ru", weights, question, synonyms=GROUPS) == "Да."
    # without the groups the predicate is unstated and the permission of something else is no «Да»
    assert yes_no_lead(RULING, "ru", weights, question) is None
    assert yes_no_lead(RULING, "ru", weights, "Можно ли летать над возвышенностью?", synonyms=GROUPS) is None


def test_a_noun_sharing_four_letters_with_a_synonym_states_no_predicate() -> None:
    # «кинуть» and «бросить» share a group; the noun «бросок» is neither of them
    assert "бросить" in synonym_map().get("кинуть", ())
    assert stated_predicate("Выберите один из этих бросков для переброса.", ("кинуть",), GROUPS) is None
    found = stated_predicate("Вы можете бросить кубик ещё раз.", ("кинуть",), GROUPS)
    assert found is not None and found[1] == "yes"


@pytest.mark.parametrize("question", [
    "Когда можно стрелять, если отряд вышел из боя?",
    "Где можно ставить маркер, если там руины?",
    "Где ставить модель, которая вышла из резерва?",
    "When can I shoot, if my unit fell back?",
])
def test_a_question_word_opening_the_question_asks_whatever_clause_follows(question: str) -> None:
    from rulekb.kb.ask.form import question_form

    assert question_form(question) != "yesno"


def test_a_question_whose_asking_sentence_has_no_words_is_read_without_error() -> None:
    from rulekb.kb.ask.form import question_form

    assert question_form("Отряд вышел из боя. ?") in ("yesno", "lookup", "procedure", "number", None)


def test_a_prefixed_verb_is_no_form_of_another_prefixed_verb() -> None:
    assert stated_predicate("Нельзя передавать очки командования.", ("двигаться",), GROUPS) is None
