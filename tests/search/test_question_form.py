"""What a question asks: its form, and the edition it implies without naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.kb.ask.form import (
    concept_editions,
    edition_vocabulary,
    implied_editions,
    question_form,
    vocabulary_editions,
)


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("можно ли стрелять после рывка", "yesno"),
        ("Может ли техника стрелять в зоне поражения?", "yesno"),
        ("обязан ли я кидать тест", "yesno"),
        ("адванс и стрелять можно?", "yesno"),
        ("Can a unit shoot after advancing?", "yesno"),
        ("Does cover apply in melee?", "yesno"),
        ("сколько атак у орка", "number"),
        ("на какое расстояние двигается консолидация", "number"),
        ("How far can a unit pile in?", "number"),
        ("дальность чарджа", "number"),
        ("в каком порядке идут фазы", "procedure"),
        ("как проходит проверка боевого шока", "procedure"),
        ("какие шаги у фазы движения, от начала до конца?", "procedure"),
        ("алгоритм разыгрывания стрельбы", "procedure"),
        ("Как в этом переводе назван pile in?", "terminology"),
        ("Как в тексте переведён Invulnerable Save?", "terminology"),
        ("How is Overwatch rendered in the Kill Team translation?", "terminology"),
        ("кохеренси 6ка vs 10ка", "comparison"),
        ("что такое знамя", "lookup"),
        # every case of «какой» asks which, not whether («По какому WS …?», «О каких правилах …?»)
        ("Двадцать гретчинов со своим надсмотрщиком. По какому WS по ним попадают?", "lookup"),
        ("О каких правилах речь в этом отряде?", "lookup"),
    ],
)
def test_forms(question: str, form: str) -> None:
    from rulekb.kb.search.query import detect_editions

    assert question_form(question, editions=len(detect_editions(question))) == form


def test_two_editions_make_a_comparison_and_one_with_a_comparing_word() -> None:
    assert question_form("консолидация в 6-й и в 10-й", editions=2) == "comparison"
    assert question_form("чем отличается овервотч с 6-й", compare=True, editions=1) == "comparison"
    # «different targets» compares nothing
    assert question_form("Can a monstrous creature fire at two different targets?", compare=True) == "yesno"


def test_concepts_printed_in_one_edition_only_imply_it() -> None:
    editions = {"initiative": frozenset({"6"}), "stratagem": frozenset({"10"}), "charge": frozenset({"6", "10"})}
    assert implied_editions(["initiative", "charge"], editions) == ["6"]
    assert implied_editions(["stratagem"], editions) == ["10"]
    assert implied_editions(["charge"], editions) == []
    assert implied_editions(["initiative", "stratagem"], editions) == []  # they disagree
    assert implied_editions(["initiative"], editions, {"initiative": 0.5}) == []  # named ambiguously


def test_the_build_knows_which_concepts_each_edition_prints(built: Path) -> None:
    editions = concept_editions(built)
    assert editions["charge"] >= {"10", "6"}
    assert all(value <= {"10", "6", "7", "kt"} for value in editions.values())


def test_older_books_own_wording_implies_their_edition(built: Path) -> None:
    vocabulary = edition_vocabulary(built)
    assert vocabulary, "edition_vocabulary.json is empty"
    assert all(len(key) >= 2 for key in vocabulary)
    older = next(key for key, eds in vocabulary.items() if "10" not in eds)
    assert vocabulary_editions(["что", *older, "делать"], vocabulary) == sorted(vocabulary[older], key=["6", "7", "kt"].index)
    ten = next(key for key, eds in vocabulary.items() if eds == frozenset({"10"}))
    assert vocabulary_editions(list(ten), vocabulary) == []  # the 10th leads unmarked questions anyway


def test_english_forms_read_the_sentence_that_asks_and_the_roll_asked_for() -> None:
    from rulekb.kb.ask.form import question_form

    assert question_form("My tank is in engagement range of an enemy unit. Can it still shoot?") == "yesno"
    assert question_form("In close combat, what do I need to roll to hit?") == "number"
    assert question_form("How big is a Strike Force table?") == "number"
    assert question_form("What size are objective markers?") == "number"
    assert question_form("Do I need to roll to hit with a Torrent weapon?") == "yesno"


def test_a_question_asking_two_things_names_its_second_form() -> None:
    from rulekb.kb.ask.form import second_form

    assert second_form("Can it still shoot in my Shooting phase, and is there a penalty?", "yesno") == "number"
    assert second_form("На сколько дюймов консолидация и можно ли ею запрыгнуть в контакт?", "number") == "yesno"
    assert second_form("Can it still shoot in my Shooting phase?", "yesno") is None
    assert second_form("На сколько дюймов консолидация?", "number") is None


def test_a_measure_the_situation_tells_does_not_make_a_number_question() -> None:
    told = "Мой отряд добил врага, рядом никого нет, но в 3 дюймах лежит объектив. Как мне консолидироваться?"
    assert question_form(told) == "procedure"
    # a measure in the asking sentence still asks for a number
    assert question_form("Мой отряд добил врага. Дальность консолидации?") == "number"
    assert question_form("дальность чарджа") == "number"


def test_a_measure_named_by_what_it_is_asks_for_a_number() -> None:
    assert question_form("Какой штраф за стрельбу из тяжёлого оружия после движения?") == "number"
    assert question_form("Какого размера большой шаблон?") == "number"
    assert question_form("What is the points limit for a Strike Force army?") == "number"
    # a yes/no question asking a penalty beside stays yes/no (the penalty is its second form)
    assert question_form("Can it still shoot, and is there a penalty?") == "yesno"
    assert question_form("Какой отряд ходит первым?") != "number"


def test_yes_no_forms_without_ли_a_typo_or_a_question_mark() -> None:
    # a modal before its subject asks, even after a measure the situation tells
    assert question_form("до врага 7 дюймов, он за стеной — могу я стрелять по нему?") == "yesno"
    assert question_form("Сколько дюймов до врага, могу я стрелять?") == "number"  # a wh-word asks first
    # «можна», a typed «можно»; a terse «… может …» query; «… или нет»
    assert question_form("можна стрелять из пистолета в рукопашке") == "yesno"
    assert question_form("танк может стрелять в рукопашке") == "yesno"
    assert question_form("модель с ранцем прошла тест или нет") == "yesno"
    assert question_form("что может отряд после отступления") != "yesno"
    # an English auxiliary opening the last clause after what the question sets out
    assert question_form("In 6th, if my squad ran this turn, can it still charge?") == "yesno"
    assert question_form("How does overwatch work, and can it cause pinning?") != "yesno"
    assert question_form("In 6th, what happens when my squad runs?") != "yesno"


# --- the comparing words a question uses, and whether they are about editions -------------------------

@pytest.mark.parametrize(
    ("question", "editions", "form"),
    [
        # «vs» between two rule words compares the rules, not editions
        ("if my opponent passes the save vs the normal damage, do the mortal wounds still go through?", 0, "yesno"),
        ("Heavy vs Assault", 0, "lookup"),
        ("пистолет против ассолта в 10-й", 1, "lookup"),
        ("If a codex rule contradicts the 6th-edition rulebook, which one wins? And basic vs advanced rules?", 1, "lookup"),
        # an edition on a side of «vs»/«против», or a word of change, compares editions
        ("кохеренси 6ка vs 10ка", 2, "comparison"),
        ("Overwatch in the old Kill Team rules vs the 10th edition: who can fire?", 1, "comparison"),
        ("Как решается спор о трактовке правила: 6-я против 10-й?", 1, "comparison"),
        ("как изменился овервотч", 0, "comparison"),
        # a word of difference compares editions when the question names one
        ("чем отличается овервотч в 6-й", 1, "comparison"),
        ("На сколько дюймов двигаются мотоциклы по сравнению с пехотой?", 0, "number"),
    ],
)
def test_comparing_words_compare_editions_only_when_about_editions(question: str, editions: int, form: str) -> None:
    assert question_form(question, compare=True, editions=editions) == form


def test_against_reads_the_words_either_side() -> None:
    from rulekb.kb.ask.form import against_editions, compares_editions

    assert against_editions("кохеренси 6ка vs 10ка") is True
    assert against_editions("basic vs advanced rules in 6th edition") is False
    assert against_editions("как проходит проверка боевого шока") is None
    assert compares_editions("basic vs advanced rules, 6th edition", 1) is False
    assert compares_editions("What changed in overwatch?", 0) is True
    # «vs» between two rules of one edition: a difference word then asks how the rules differ
    assert compares_editions("Heavy vs Assault в 10-й — в чём разница?", 1) is False
    assert question_form("Heavy vs Assault — в чём разница 6-й и 10-й?", compare=True, editions=2) == "comparison"


def test_the_guessed_other_side_is_dropped_when_nothing_compares_editions() -> None:
    from types import SimpleNamespace

    from rulekb.kb.ask.card_editions import named_editions

    question = "If a codex rule contradicts the 6th-edition rulebook, which one wins? And basic vs advanced rules?"
    parsed = SimpleNamespace(explicit_edition=None, cleaned=question, editions=["6", "10"], compare=True)
    assert named_editions(parsed, question) == ["6"]
    compared = "How far does consolidation go in 6th edition compared with the newest?"
    parsed = SimpleNamespace(explicit_edition=None, cleaned=compared, editions=["6", "10"], compare=True)
    assert named_editions(parsed, compared) == ["6", "10"]


# --- the older editions named without a number ------------------------------------------------------

def test_older_editions_named_by_words() -> None:
    from rulekb.kb.ask.form import older_editions_asked

    older = older_editions_asked("Как в старых книгах называется charge?")
    assert older and "10" not in older
    assert older_editions_asked("в 10ке персонаж с телохранителями, в старой редакции — артиллерия") == older
    assert older_editions_asked("in the old edition, could a unit shoot after running?") == older
    assert older_editions_asked("а раньше можно было стрелять после рывка?") == older
    assert older_editions_asked("а как было раньше?") == older
    # «раньше, чем …», «раньше фазы»: earlier in the turn, not in older books; «на старте» is no «старый»
    assert older_editions_asked("можно ли нападать раньше, чем стрелять?") == []
    assert older_editions_asked("кто бьёт раньше в рукопашке?") == []
    assert older_editions_asked("What dice are used to determine charge distance?") == []
    assert older_editions_asked("можно ли нападать раньше фазы стрельбы?") == []
    assert older_editions_asked("на старте правила игры говорят что?") == []


def test_the_older_edition_retrieval_ranks_first_is_named() -> None:
    from types import SimpleNamespace

    from rulekb.kb.ask.card_editions import named_editions, older_named

    hits = [SimpleNamespace(edition=e) for e in ("10", "7", "6", "7")]
    question = "в 10ке персонаж с телохранителями, в старой редакции — артиллерия с расчётом. чью T беру?"
    assert older_named(question, ["10"], hits) == ["7"]
    assert older_named(question, ["6"], hits) == []  # the question names the older edition itself
    assert older_named("в 10ке персонаж с телохранителями", ["10"], hits) == []
    assert older_named(question, ["10"], [SimpleNamespace(edition="10")]) == []  # no older book's passage
    parsed = SimpleNamespace(explicit_edition=None, cleaned=question, editions=["10"], compare=False)
    assert named_editions(parsed, question, (), hits) == ["10", "7"]
    assert question_form(question, editions=2) == "comparison"


# --- the naming verbs of a translator ---------------------------------------------------------------

@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("как в 6ке и в десятке обозвали инвуль", "terminology"),
        ("как назвали инвуль", "terminology"),
        ("Roll-off — как это назвали в 6-й и как в 10-й?", "terminology"),
        ("what is Counter-charge called in the russian kill team text?", "terminology"),
        # a naming verb that is not about the text's words asks nothing of terminology
        ("обозвали меня читером, можно ли стрелять после рывка?", "yesno"),
        ("кто назвал, тот и ходит первым?", "lookup"),
    ],
)
def test_naming_verbs_ask_terminology(question: str, form: str) -> None:
    from rulekb.kb.search.query import detect_editions

    assert question_form(question, editions=len(detect_editions(question))) == form

