"""Sentences marked at build time, the ruling sentence chosen, and the yes/no lead."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.choice import SHORT_PASSAGE, choose
from rulekb.kb.text.sentences import NON_RULING, Sentence, load_marked, mark_one, mark_sentences
from rulekb.kb.text.verdicts import yes_no_lead


def test_marks() -> None:
    assert mark_one("[ДВОЙНОЕ СОЕДИНЕНИЕ] В их описании они известны как парные орудия.", "rule", 0, 2) == "naming"
    assert mark_one("Во вселенной Warhammer 40000 существует множество видов танков, боевых машин и другой боевой "
                    "техники, как у людей, так и у чужаков.", "rule", 0, 2) == "flavour"
    assert mark_one("ХОВЕР", "rule", 0, 2) == "heading"
    assert mark_one("Каждый раз, когда атака ранит прикреплённый отряд (см. способность", "rule", 0, 2) == "fragment"
    assert mark_one("Отряд не может стрелять или объявлять рывок в тот же ход.", "rule", 0, 2) == "rule"
    assert mark_one("Вдобавок, мотоциклы никогда не залегают и не подавляются огнём.", "rule", 0, 2) == "rule"
    assert mark_one("Пример: отряд из пяти моделей стоит у края.", "example", 0, 3) == "example-setup"
    assert mark_one("Поэтому он получает 2 смертельные раны.", "example", 1, 3) == "example-result"


def test_a_complete_sentence_whose_bracket_the_source_lost_rules() -> None:
    lost = ("Правила, позволяющие отряду перемещаться после расстановки (например, способность «Засада» "
            "всегда разрешаются после шага «Расстановка» и до броска за первый ход.")
    assert mark_one(lost, "rule", 0, 2) == "rule"
    assert mark_one("Отряд, стоящий в укрытии (например, в руинах", "rule", 0, 2) == "fragment"  # cut, short


def test_a_cut_reference_is_joined_to_what_follows() -> None:
    marked = mark_sentences(["Подробнее в главе о движении (см. стр.", "10), каждая модель должна стоять в 2\"."], "rule")
    assert len(marked) == 1 and marked[0][0].endswith('2".')


def test_the_build_marks_every_leaf(built: Path) -> None:
    marked = load_marked(built)
    assert marked
    marks = {s.mark for sentences in marked.values() for s in sentences}
    assert {"rule", "heading", "flavour", "naming"} <= marks


sentence = Sentence.read


def test_choice_skips_non_ruling_sentences_and_prefers_the_permission() -> None:
    flavour = sentence("Стрельба из пистолетов в упор — любимое дело ветеранов, стрельба их стихия.", "flavour")
    ruling = sentence("Модель может стрелять из пистолета, даже находясь в зоне поражения врага.")
    other = sentence("Пистолеты бывают разных видов и стрельба из них отличается.")
    weights = {t.text: 1.0 for t in tokens("стрелять пистолет")}
    long_tail = [sentence(f"Прочее правило номер {i} о перемещении моделей по полю боя и дистанции.") for i in range(12)]
    choice = choose([("n1", "rule", [flavour, other, ruling, *long_tail])], weights, set(), "yesno")
    assert choice is not None and choice.text.startswith("Модель может стрелять")
    assert "любимое" not in choice.text
    assert "flavour" in NON_RULING


def test_choice_prefers_the_number_for_a_quantity_question() -> None:
    words = sentence("Дальность нападения определяется броском кубиков, как описано в этом разделе правил игры.")
    number = sentence("Дальность нападения — 2D6 дюймов, бросок делают после объявления цели нападения.")
    filler = [sentence(f"Другое положение {i} о фазе нападения и о моделях, которые в ней участвуют.") for i in range(12)]
    weights = {t.text: 1.0 for t in tokens("дальность нападения")}
    choice = choose([("n", "rule", [words, *filler, number])], weights, set(), "number")
    assert choice is not None and "2D6" in choice.text


def test_a_short_passage_is_shown_whole() -> None:
    a, b = sentence("Отряд может стрелять."), sentence("Только по видимой цели.")
    choice = choose([("n", "rule", [a, b])], {t.text: 1.0 for t in tokens("стрелять")}, set(), "yesno")
    assert choice is not None and choice.text == "Отряд может стрелять. Только по видимой цели."


def test_yes_no_leads() -> None:
    assert yes_no_lead("Отряд не может стрелять в тот же ход.") == "Нет."
    assert yes_no_lead("Стрелять туда просто неразумно. Такое оружие никогда не может быть использовано.") == "Нет."
    assert yes_no_lead("Модель может стрелять из пистолета.") == "Да."
    assert yes_no_lead("Модель может стрелять, если она не двигалась в этом ходу.") == "Да, если она не двигалась в этом ходу."
    assert yes_no_lead("Отряд не может стрелять.", "en") == "No."
    assert yes_no_lead("Правила описаны в этой главе.") is None
    # a condition in an aside ends with it: «(если есть)» is no condition of three words
    assert yes_no_lead("Вы можете сделать спасброски (если есть) или удалите модель как погибшую.") == "Да."
    assert yes_no_lead("Модель может (если она не двигалась в этом ходу) стрелять.") == (
        "Да, если она не двигалась в этом ходу.")


def test_yes_no_lead_reads_the_sentence_carrying_the_question() -> None:
    ruling = "Монстры могут использовать до двух орудий. Монстры никогда не залегают."
    weights = {"залегать": 3.0, "монстр": 1.0}
    assert yes_no_lead(ruling) == "Да."
    assert yes_no_lead(ruling, "ru", weights) == "Нет."
    # a negated verb denies only in the sentence that carries the question's words
    assert yes_no_lead("Игроки не бросают кубик на черту. Резервы действуют.", "ru", {"черта": 2.0}) == "Нет."
    assert yes_no_lead("Игроки не бросают кубик на черту. Резервы действуют.", "ru", {"резерв": 2.0}) == "Да."


def test_a_comparison_shows_each_edition_s_rule_whole_with_its_measures() -> None:
    sentences = [
        sentence("В определённых ситуациях боевой единице необходимо пройти тест на лидерство по правилам ниже."),
        sentence("Для прохождения теста на лидерство следуйте такому порядку, описанному в этой главе подробно:"),
        sentence("•Бросьте 2D6 и сравните результат с лидерством модели, которая проходит этот тест сейчас."),
        sentence("•Если результат равен или меньше значения лидерства модели, то тест пройден успешно."),
        sentence("•Если результат выше значения лидерства модели, то должно произойти что-то плохое."),
        sentence("•Если в боевой единице разные значения лидерства, всегда берите наивысшее из них."),
        sentence("•Если модель проходит тест за всю боевую единицу, используйте её значение лидерства в тесте."),
        sentence("•Модификаторы лидерства применяются до броска, а не после него, если не сказано иное."),
    ]
    weights = {"тест": 1.0, "лидерство": 2.0}
    compared = choose([("a", "paragraph", sentences)], weights, set(), "comparison")
    looked_up = choose([("a", "paragraph", sentences)], weights, set(), "lookup")
    assert compared is not None and looked_up is not None
    assert "равен или меньше" in compared.text and "2D6" in compared.text
    assert len(" ".join(s.text for s in sentences)) > SHORT_PASSAGE  # a lookup shows it cut
    # … to the sentence announcing the list and the list's first items
    assert "Модификаторы лидерства" in compared.text and "Модификаторы лидерства" not in looked_up.text


def test_a_ruling_allowing_only_one_denies_a_question_about_several() -> None:
    from rulekb.kb.text.verdicts import only_one_denies

    ruling = "В состав отряда может входить только один лидер."
    assert only_one_denies("Можно ли присоединить двух лидеров к отряду?", ruling)
    assert only_one_denies("Can it fire at two different targets?", "Должны стрелять по одной и той же цели.")
    assert not only_one_denies("Можно ли присоединить лидера к отряду?", ruling)  # asks about one
    assert not only_one_denies("Можно ли присоединить двух лидеров?", "Лидеры могут быть присоединены.")


def test_the_number_lead_reads_numbers_written_in_words_after_the_measures() -> None:
    from rulekb.kb.ask.card_english import number_lead

    assert number_lead("Не более трёх юнитов с одним названием, или шести для линейных.") == "3, 6"
    assert number_lead("Бросьте 2D6 и прибавьте два.") == "2D6, 2"
    assert number_lead("Отряд может стрелять.") is None


def test_sentences_the_source_glued_together_are_split() -> None:
    marked = mark_sentences(["После того, как все атаки завершены, переходите к фазе боя.Юнит считается подходящим "
                             "для атаки, если он находится в пределах 12 дюймов.", "Модели можно перемещать, как "
                             "описано здесь.ВИДИМОСТЬ Модели внутри никогда не считаются полностью видимыми."], "rule")
    texts = [s for s, _ in marked]
    assert texts[0].endswith("к фазе боя.") and texts[1].startswith("Юнит считается")
    assert texts[2].endswith("здесь.") and texts[3].startswith("ВИДИМОСТЬ")
    # abbreviations and references are no sentence ends
    assert len(mark_sentences(["Т.е. можно объявить нападение (см. стр.16) только на отряды в 12\"."], "rule")) == 1


def test_a_chosen_sentence_announcing_a_list_brings_its_items() -> None:
    sentences = [
        sentence("Отряд может объявить рывок, если он находится в пределах двенадцати дюймов от врага, "
                 "кроме случаев, когда выполняется одно из следующих условий:"),
        sentence("• Этот отряд продвинулся или отступил в этом ходу."),
        sentence("• Этот отряд находится в зоне поражения вражеских моделей."),
        sentence("Рывок совершают по одному отряду за раз, бросая кубики заново для каждого отряда в этой фазе."),
        sentence("Отряды с ключевым словом самолёт вообще никогда не объявляют рывок, что бы ни случилось."),
    ] + [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(8)]
    choice = choose([("a", "rule", sentences)], {"рывок": 2.0, "условие": 1.0}, set(), "yesno")
    assert choice is not None
    assert "продвинулся или отступил" in choice.text and "зоне поражения" in choice.text
    assert "Посторонняя" not in choice.text


def test_the_predicate_of_a_yes_no_question_is_what_it_asks() -> None:
    from rulekb.kb.text.verdicts import question_predicates

    asked = question_predicates("Мой отряд стоит в руинах. Может ли мой отряд залечь, чтобы получить укрытие?")
    assert "залечь" in asked
    assert "получить" not in asked and "стоять" not in asked and "мочь" not in asked  # purpose, situation, modal
    assert "видимый" in question_predicates("Считается ли модель видимой, если видно только знамя?")


def test_a_ruling_denying_the_asked_action_leads_no_though_it_permits_something_else_first() -> None:
    question = "Может ли кавалерия залечь в фазе стрельбы?"
    ruling = ("Кавалерия может передвигаться на 12\" и стрелять из всего оружия в каждой фазе стрельбы. "
              "Кавалеристы никогда не залегают, ни добровольно, ни как-либо иначе.")
    weights = {"кавалерия": 3.0, "фаза": 1.0, "стрельба": 1.0, "залечь": 2.0}
    assert yes_no_lead(ruling, "ru", weights, question) == "Нет."
    # a ruling stating the action as permitted keeps «Да»
    assert yes_no_lead("Кавалерия может залечь в любой фазе.", "ru", weights, question) == "Да."
    # the negated word is a denial too («невидимой» for «видимой»)
    seen = "Считается ли модель видимой, если видно только её знамя?"
    assert yes_no_lead("Если видно только знамя, модель считается невидимой.", "ru", {"знамя": 2.0}, seen) == "Нет."


def test_a_negation_inside_a_condition_does_not_deny() -> None:
    from rulekb.kb.text.verdicts import main_clauses

    ruling = ("Если отряд связан боем с врагом, которому он не может навредить, он может по своему желанию "
              "провалить тест на мораль.")
    assert "не может" not in main_clauses(ruling)
    question = "Могу я специально провалить тест на мораль?"
    lead = yes_no_lead(ruling, "ru", {"провалить": 2.0, "тест": 1.0, "мораль": 2.0}, question)
    assert lead == "Да, если отряд связан боем с врагом, которому он не может навредить."  # the whole condition
    assert str(yes_no_lead(ruling, "ru", {"тест": 1.0, "мораль": 2.0})).startswith("Да")  # without the question too


def test_a_list_item_answers_with_its_lead_in_and_the_question_s_condition_picks_it() -> None:
    from rulekb.kb.text.verdicts import question_conditions

    question = "Может ли отряд, который отступил в этом ходу, стрелять?"
    assert set(question_conditions(question)) >= {"отступить", "ход"}
    ruling = ("Некоторым отрядам запрещено стрелять. Это возможно по следующим причинам: • Отряд отступил в этом "
              "ходу • Отряд залёг. Отряд, который стрелял, может стрелять и в следующей фазе по любому отряду.")
    weights = {"отряд": 1.0, "отступить": 4.0, "ход": 1.0, "стрелять": 3.0}
    assert yes_no_lead(ruling, "ru", weights, question) == "Нет."


def test_a_ruling_followed_by_a_pointer_to_its_list_brings_the_list() -> None:
    sentences = [
        sentence("Каждый отряд может объявить рывок в своей фазе рывка, если враг находится достаточно близко."),
        sentence("Некоторым отрядам запрещено объявлять рывок в этой фазе."),
        sentence("Это возможно по следующим причинам:"),
        sentence("• Отряд уже сражается"),
        sentence("• Отряд отступил"),
        sentence("Рывок совершают по одному отряду за раз, бросая кубики заново для каждого отряда."),
    ] + [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(8)]
    choice = choose([("a", "rule", sentences)], {"запрещать": 3.0, "объявлять": 1.0, "рывок": 1.0}, set(), "lookup")
    assert choice is not None and choice.best.startswith("Некоторым")
    assert "• Отряд уже сражается" in choice.text and "• Отряд отступил" in choice.text


def test_a_step_number_the_splitter_cut_off_is_joined_to_its_step() -> None:
    marked = mark_sentences(["Такой бой описан на стр.", "27.", "1.", "Объявите рывок.", "2.", "Бросьте 2D6."], "rule")
    assert [s for s, _ in marked] == ["Такой бой описан на стр. 27.", "1. Объявите рывок.", "2. Бросьте 2D6."]


def test_a_procedure_shows_the_ordered_steps_of_its_passage() -> None:
    sentences = [
        sentence("В фазе рывка отряды вашей армии бросаются в бой один за другим, пока не закончатся желающие."),
        sentence("Для каждого рывка выполните следующие действия по порядку:"),
        sentence("1. Выберите отряд, который объявит рывок."),
        sentence("2. Выберите цели рывка в пределах двенадцати дюймов."),
        sentence("3. Бросьте 2D6 на дистанцию рывка."),
        sentence("4. Переместите модели отряда."),
    ] + [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(8)]
    weights = {"фаза": 1.0, "рывок": 2.0, "отряд": 0.5}
    procedure = choose([("a", "rule", sentences)], weights, set(), "procedure")
    lookup = choose([("a", "rule", sentences)], weights, set(), "lookup")
    assert procedure is not None and lookup is not None
    texts = [s.text for s in sentences[1:6]]
    assert all(t in procedure.text for t in texts)
    assert [procedure.text.index(t) for t in texts] == sorted(procedure.text.index(t) for t in texts)  # in order
    assert "4. Переместите" not in lookup.text  # a lookup is not a procedure


def test_a_number_question_gets_the_sentence_with_the_measure() -> None:
    filler = [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(8)]
    terrain = sentence("Мотоциклы никогда не замедляются на труднопроходимом ландшафте, даже при нападении на врага.")
    moves = sentence("Мотоциклы могут передвигаться максимум на 12\" в фазе движения.")
    weights = {"мотоцикл": 2.0, "труднопроходимый": 3.0, "ландшафт": 1.0}
    # in the same passage: the terrain sentence carries most of the words, the measure joins it
    same = choose([("a", "rule", [terrain, *filler, moves])], weights, set(), "number")
    assert same is not None and "12\"" in same.text and "замедляются" in same.text
    # in the next passage: it joins from there
    other = choose([("a", "rule", [terrain]), ("b", "rule", [moves])], weights, set(), "number")
    assert other is not None and other.node_id == "a" and "12\"" in other.text
    # a lookup asks for no measure
    looked_up = choose([("a", "rule", [terrain]), ("b", "rule", [moves])], weights, set(), "lookup")
    assert looked_up is not None and "12\"" not in looked_up.text


def test_an_english_question_s_predicate_is_read_through_the_english_vocabulary() -> None:
    from rulekb.kb.text.verdicts import english_predicates
    from rulekb.kb.text.vocabulary import load_english

    english = tuple(load_english().items())
    asked = english_predicates("My unit is locked in combat. Can it still shoot in my Shooting phase?", english)
    assert "стрелять" in asked  # "shoot" as the verb the rulings print, not «стрельба»
    assert "стрельба" not in asked and "мочь" not in asked
    assert "видимый" in english_predicates("Does the charge target need to be visible?", english)
    assert not english_predicates("Is it in close combat?", english)  # "close" of "close combat" asks nothing


def test_an_english_yes_no_question_gets_its_verdict_from_the_russian_ruling() -> None:
    from rulekb.kb.text.vocabulary import load_english

    english = tuple(load_english().items())
    question = "Can a unit locked in combat shoot?"
    ruling = "Связанные боем модели могут наносить удары. Модели связанного подразделения не могут стрелять."
    assert yes_no_lead(ruling, "en", {"связанный": 2.0}, question, english) == "No."
    assert yes_no_lead(ruling, "en", {"связанный": 2.0}, question, None) != "No."  # without it: the first permission
    assert yes_no_lead("Модели связанного подразделения могут стрелять.", "en", {"связанный": 2.0}, question,
                       english) == "Yes."


def test_a_question_word_standing_for_several_russian_words_counts_once() -> None:
    from rulekb.kb.text.choice import carried

    weights = {"рывок": 2.0, "зарядка": 3.0, "нападение": 2.0, "цель": 1.0}
    groups = {"рывок": "charge", "зарядка": "charge", "нападение": "charge"}
    lemmas = ["зарядка", "рывок", "нападение"]
    assert carried(lemmas, weights) == 7.0
    assert carried(lemmas, weights, groups) == 3.0  # one word of the question, by its weightiest term
    assert carried([*lemmas, "цель"], weights, groups, covered=["рывок"]) == 1.0  # *charge* is covered already
    three = sentence("Для зарядки рывок и нападение на врага разрешены в эту фазу игры.")
    target = sentence("Цель рывка должна находиться в пределах 12 дюймов от отряда.")
    choice = choose([("n", "rule", [three, target] + [sentence(f"Прочее {i} правило о фазе и её моделях.") for i in range(12)])],
                    {**weights, "цель": 2.5}, set(), "lookup", groups)
    assert choice is not None and choice.best.startswith("Цель рывка")


def test_a_second_form_brings_its_sentence_too() -> None:
    permission = sentence("Транспортные средства могут стрелять, даже находясь в зоне поражения врага, по любой цели.")
    penalty = sentence("Из броска на попадание такой атаки вычтите 1, если цель в зоне поражения.")
    filler = [sentence(f"Прочее положение {i} о фазе стрельбы и о моделях, что в ней стреляют.") for i in range(12)]
    weights = {t.text: 1.0 for t in tokens("транспортный стрелять зона поражение")}
    alone = choose([("n", "rule", [permission, *filler, penalty])], weights, set(), "yesno")
    both = choose([("n", "rule", [permission, *filler, penalty])], weights, set(), "yesno", also="number")
    assert alone is not None and "вычтите 1" not in alone.text
    assert both is not None and both.text.startswith("Транспортные") and "вычтите 1" in both.text


def test_the_situation_told_before_the_asking_sentence_is_a_condition() -> None:
    from rulekb.kb.text.verdicts import question_conditions, question_situation

    question = "Мой отряд в этом ходу сделал фолбэк из рукопашки. Могу я в фазе рывка объявить им чардж?"
    told = question_situation(question)
    assert {"фолбэк", "рукопашка", "ход"} <= set(told)
    assert "объявить" not in told and "чардж" not in told  # the asking sentence asks, it tells no situation
    assert "фолбэк" not in question_conditions(question)  # the asking sentence's own conditions only


def test_an_item_an_exception_list_prints_for_the_question_s_situation_denies() -> None:
    ruling = ("Юнит может объявить атаку в этом ходу, если он в пределах 12 дюймов от врага, за исключением "
              "случаев, когда выполняется любое из следующих условий: • Эта единица отступила в этом ходу. "
              "• Этот блок является САМОЛЕТ.")
    weights = {"атака": 1.0, "объявить": 1.0, "отступить": 2.0, "ход": 1.0, "самолет": 2.0}
    fell_back = {"отступить": "фолбэк"}
    assert yes_no_lead(ruling, "ru", weights, situation=fell_back) == "Нет."
    # a situation the sentence outside the list states too is no exception: the permission stands
    assert yes_no_lead(ruling, "ru", weights, situation={"ход": "ход"}).startswith("Да")
    # nor does an item under a lead-in that excepts nothing
    listed = "Юнит может объявить атаку в любом из следующих случаев: • Эта единица отступила в этом ходу."
    assert yes_no_lead(listed, "ru", weights, situation=fell_back).startswith("Да")


def test_the_list_item_stating_the_situation_joins_the_chosen_sentence() -> None:
    lead = sentence("Юнит может объявить атаку, если он находится в пределах 12 дюймов от одного или нескольких "
                    "вражеских юнитов, за исключением случаев, когда выполняется любое из следующих условий:")
    items = [sentence("• Эта единица продвинулась вперед или отступила в этом ходу."),
             sentence("• Данный отряд находится в пределах досягаемости любых вражеских моделей."),
             sentence("• Этот блок является САМОЛЕТ.")]
    head = sentence("В фазе рывка вы можете выбрать подходящие юниты по одному, чтобы объявить атаку на врага "
                    "в ближнем бою, и каждый юнит можно выбрать только один раз за фазу.")
    filler = [sentence(f"Другое положение {i} о фазе рывка, о бросках и о моделях, которые в ней участвуют.")
              for i in range(8)]
    weights = {t.text: 1.0 for t in tokens("объявить атаку фаза рывка")} | {"отступить": 0.1}
    passage = [("n", "rule", [head, *filler, lead, *items])]
    plain = choose(passage, weights, set(), "yesno")
    assert plain is not None and "отступила" not in plain.text
    situated = choose(passage, weights, set(), "yesno", conditions={"отступить": "фолбэк"})
    assert situated is not None and "• Эта единица продвинулась вперед или отступила" in situated.text
    assert "за исключением случаев" in situated.text  # with the lead-in that says what the item is a case of


def test_a_slang_situation_word_stands_for_its_concept_s_printed_renderings(built: Path) -> None:
    from rulekb.kb.ask.card_parts import condition_terms
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    question = "Мой отряд в этом ходу сделал фолбэк из рукопашки. Могу я в фазе рывка объявить им чардж?"
    terms = condition_terms(index, index.parse(question, None), question)
    assert terms.get("отступить") == "фолбэк"  # the texts never print «фолбэк»; they print its renderings
    assert "объявить" not in terms
    assert "устройство" not in terms  # a printed word («отряд») stands for itself and its synonyms only
    english = "My Stormtalon is an AIRCRAFT and an enemy squad is 8 inches away. Can it declare a charge?"
    assert "самолет" in condition_terms(index, index.parse(english, None), english)


def test_a_passage_s_naming_line_counts_for_its_ruling_sentences() -> None:
    naming = sentence("[ПОТОК] В их описании они известны как потоковое оружие.", "naming")
    rule = sentence("Каждый раз, когда совершается атака таким оружием, она автоматически попадает в цель.")
    elsewhere = sentence("Если результат броска на попадание больше или равен навыку, атака попадает в цель.")
    weights = {"поток": 3.0, "потоковый": 3.0, "попадать": 1.0, "бросок": 1.0}
    named = [("torrent", "rule", [naming, rule]), ("hit-roll", "rule", [elsewhere])]
    choice = choose(named, weights, set(), "lookup")
    assert choice is not None and choice.node_id == "torrent" and "автоматически" in choice.text
    assert "В их описании" not in choice.text  # the naming line itself is still no ruling
    # without the naming line the other passage's sentence carries more of the question
    plain = choose([("torrent", "rule", [rule]), ("hit-roll", "rule", [elsewhere])], weights, set(), "lookup")
    assert plain is not None and plain.node_id == "hit-roll"


def test_the_sentence_before_the_chosen_one_joins_when_it_scores_nearly_as_much() -> None:
    before = sentence("Если гравицикл включает турбоускорение в фазе стрельбы, он может передвинуться на 36 дюймов.")
    best = sentence("Если гравицикл не включает турбоускорение, он может передвинуться на 2D6 в фазе наступления.")
    unrelated = sentence("Модели этого типа считаются кавалерией во всех прочих отношениях и правилах игры.")
    filler = [sentence(f"Прочее правило номер {i} о перемещении моделей по полю боя и о дистанции.") for i in range(10)]
    weights = {"гравицикл": 2.0, "турбоускорение": 3.0, "фаза": 1.0, "наступление": 1.5}
    choice = choose([("n", "rule", [*filler, unrelated, before, best])], weights, set(), "number")
    assert choice is not None and "36 дюймов" in choice.text and "2D6" in choice.text
    assert "кавалерией" not in choice.text  # a neighbour carrying nothing asked stays out
    alone = choose([("n", "rule", [*filler, unrelated, best])], weights, set(), "number")
    assert alone is not None and alone.text.startswith("Если гравицикл не включает")


def test_an_english_answer_is_read_by_the_english_question_s_words() -> None:
    from rulekb.kb.ask.card_parts import english_answer_weights

    question = "Can an Epic Hero be given an Enhancement in 10th edition?"
    answer = "Only CHARACTERS can be given Enhancements. An EPIC HERO cannot be given an Enhancement."
    weights = english_answer_weights(question)
    assert {"epic", "hero", "enhancement"} <= set(weights) and "can" not in weights
    assert yes_no_lead(answer, "en", weights) == "No."
    assert yes_no_lead(answer, "en") == "Yes."  # the first permission, read without the question's words


def test_numbered_step_headings_glued_to_sentences_are_split() -> None:
    glued = ("Используйте следующую последовательность действий.1 ВЫБЕРИТЕ ПОДХОДЯЩЕЕ УСТРОЙСТВО 2 ВЫБЕРИТЕ ЦЕЛИ "
             "3 ПОВТОРИТЕ ДЛЯ СЛЕДУЮЩЕГО ОБЪЕКТАВ фазе атаки вы можете выбрать отряд.")
    texts = [s for s, _ in mark_sentences([glued], "rule")]
    assert texts[0] == "Используйте следующую последовательность действий."
    assert texts[1].startswith("1 ВЫБЕРИТЕ") and texts[1].endswith("ОБЪЕКТА")
    assert texts[2] == "В фазе атаки вы можете выбрать отряд."
    # capitalised keywords inside a sentence are no heading glued to anything
    kept = "Эти МОНСТРЫ ИЛИ ТРАНСПОРТА в бою стреляют. Отряд ТРАНСПОРТ модели может высадиться."
    assert [s for s, _ in mark_sentences([kept], "rule")] == [kept]


def test_a_comparison_s_sentence_fits_what_it_compares() -> None:
    # the same words twice: one sentence prints the measure, the other the permission
    measure = sentence("Прыжковые модели при нападении передвигаются на 12 дюймов над другими моделями.")
    permission = sentence("Прыжковые модели при нападении могут передвигаться над другими моделями и ландшафтом.")
    filler = [sentence(f"Прочее положение {i} о фазе движения и о моделях, что в ней ходят.") for i in range(12)]
    weights = {t.text: 1.0 for t in tokens("прыжковый модель нападение передвигаться")}
    candidates = [("n", "rule", [permission, *filler, measure])]
    by_default = choose(candidates, weights, set(), "comparison")
    asked_can = choose(candidates, weights, set(), "comparison", also="yesno")
    asked_far = choose(candidates, weights, set(), "comparison", also="number")
    assert by_default is not None and by_default.best == measure.text  # a measure, by default
    assert asked_far is not None and asked_far.best == measure.text
    assert asked_can is not None and asked_can.best == permission.text


def test_a_comparison_compares_the_form_its_question_would_have_without_editions() -> None:
    from rulekb.kb.ask.form import compared_form, second_form

    assert compared_form("Нужно ли видеть цель нападения в 6-й и в 10-й редакции?") == "yesno"
    assert compared_form("Falling back: how far does a unit move in 7th edition compared with 10th?") == "number"
    assert compared_form("Бласт в 6-ке и в 10-ке — чем отличается?") is None
    assert second_form("Can I pre-measure distances in 6th and in 10th?", "comparison") == "yesno"


def test_no_yes_when_the_ruling_does_not_state_what_is_asked() -> None:
    question = "Самолёт ушёл за край стола, его убили?"
    ruling = ("Самолёт делает только обычное движение: сначала прямо вперёд на 20\", затем может развернуться на "
              "месте. Если он пересёк край поля, его переводят в резерв.")
    weights = {"самолёт": 3.0, "край": 2.0, "стол": 1.0, "убить": 2.0}
    assert yes_no_lead(ruling, "ru", weights) == "Да."  # without the question: the permission it prints
    assert yes_no_lead(ruling, "ru", weights, question) is None  # «может развернуться» is not «убили»


def test_light_verbs_stand_for_one_another_in_the_asked_predicate() -> None:
    question = "Могу я сделать им обычное движение, а не только отступление?"
    ruling = "Если рядом только вражеский самолёт, отряд всё ещё может совершать обычное или продвинутое перемещение."
    weights = {"обычный": 2.0, "движение": 2.0, "отступление": 2.0}
    assert yes_no_lead(ruling, "ru", weights, question) == "Да, если рядом только вражеский самолёт."


def test_a_sentence_stating_a_case_is_no_yes_when_nothing_asked_is_permitted() -> None:
    question = "У нас поровну моделей на точке. Получается, точка моя?"
    ruling = "Если у обоих игроков одинаковый уровень контроля над маркером, этот маркер считается спорным."
    weights = {"точка": 2.0, "маркер": 2.0, "уровень": 1.0}
    assert yes_no_lead(ruling, "ru", weights) == "Да, если у обоих игроков одинаковый уровень контроля над маркером."
    assert yes_no_lead(ruling, "ru", weights, question) is None  # «считается спорным» permits nothing asked
    # a permission still leads «Да, если …»
    permits = "Если у обоих игроков одинаковый уровень контроля над маркером, маркер может забрать тот, кто ходит."
    assert str(yes_no_lead(permits, "ru", weights, question)).startswith("Да, если")


def test_a_yes_no_card_brings_the_case_another_top_passage_lists_for_the_question_s_condition() -> None:
    overwatch = [sentence("Дозорная стрельба выполняется как обычная стрелковая атака в фазу нападения противника."),
                 sentence("Отряд может вести дозорную стрельбу по нападающему врагу, стреляя навскидку.")]
    prohibited = [sentence("Некоторым отрядам запрещено объявлять нападение."),
                  sentence("Это возможно по следующим причинам:"),
                  sentence("• Отряд бежал в фазу стрельбы"),
                  sentence("• Отряд стрелял из Тяжёлого оружия в фазу стрельбы.")]
    heavy = next(t.text for t in tokens("тяжёлого"))
    weights = {"нападение": 2.0, "стрельба": 2.0, "навскидку": 2.0, "стрелять": 2.0, "дозорный": 3.0, heavy: 3.0}
    conditions = {"стрелять": "стрелять", heavy: heavy, "навскидку": "навскидку"}
    candidates = [("a", "rule", overwatch), ("b", "rule", prohibited)]
    choice = choose(candidates, weights, set(), "yesno", conditions=conditions)
    assert choice is not None and choice.node_id == "a"
    # the item stating the condition the chosen text leaves out («тяжёлого»), with its lead-in
    assert "• Отряд стрелял из Тяжёлого оружия" in choice.text and "запрещено объявлять нападение" in choice.text
    assert choice.text.index("запрещено объявлять") < choice.text.index("Тяжёлого")  # in the text's order
    # without the condition, nothing of the other passage joins
    plain = choose(candidates, weights, set(), "yesno")
    assert plain is not None and "Тяжёлого" not in plain.text


def test_a_yes_needs_a_permission_or_the_asked_predicate_in_its_own_sentence() -> None:
    question = "у модели ловкость 0, выпала единица — тест пройден или нет"
    ruling = ("При прохождении теста выпадение 1 всегда означает успех. Однако если у модели характеристика "
              "со значением 0, то это всегда считается автоматическим провалом теста.")
    weights = {"тест": 1.0, "характеристика": 1.0, "0": 2.0, "модель": 0.5}
    # without the question the case the condition names reads «Да, если …»
    assert str(yes_no_lead(ruling, "ru", weights)).startswith("Да, если")
    # with it: «считается … провалом» permits nothing — no «Да, если …» off it; the fail it states answers
    # «пройден?» (a test's outcome, kb/text/outcomes.py)
    assert yes_no_lead(ruling, "ru", weights, question) == "Нет."
    # a permission in the deciding sentence still leads
    permitting = "Однако если у модели характеристика со значением 0, то тест можно пройти только на 1."
    assert str(yes_no_lead(permitting, "ru", weights, question)).startswith("Да, если")


def test_a_denial_limiting_to_once_answers_a_question_about_a_second_time() -> None:
    from rulekb.kb.text.verdicts import only_one_denies

    ruling = "Второй бросок учитывается, и ни один кубик не может быть переброшен более 1 раза."
    assert only_one_denies("можно перебросить кубик второй раз?", ruling)
    assert only_one_denies("Can a dice be re-rolled twice?", ruling)
    assert not only_one_denies("можно перебросить кубик?", ruling)  # asks about once
    assert not only_one_denies("можно перебросить кубик второй раз?", "Кубик можно перебросить более одного раза.")
    # a question asking two things: its other half is no «Нет»
    assert not only_one_denies("Does it hit the model itself, and does it stack twice?", ruling)


def test_an_english_question_s_situation_picks_the_case_that_decides() -> None:
    from rulekb.kb.text.vocabulary import load_english

    english = tuple(load_english().items())
    question = "My transport moved and then my squad disembarked. Can the squad still declare a charge?"
    ruling = ("Высадившаяся модель может затем действовать обычным образом (объявить атаку, сражаться) до конца хода. "
              "• Если подразделение высаживается после движения транспорта, оно не может совершать рывок в этот ход.")
    weights = {"атака": 2.0, "объявить": 2.0, "рывок": 1.0, "ход": 0.5, "высаживаться": 0.5, "движение": 0.5,
               "транспорт": 0.5}
    situation = {"высаживаться": "disembark", "движение": "move", "транспорт": "transport"}
    assert yes_no_lead(ruling, "en", weights, question, english) == "Yes."  # the general permission
    # the situation told before the asking sentence names the case the item rules
    assert yes_no_lead(ruling, "en", weights, question, english, situation) == "No."


def test_the_sentence_stating_what_was_asked_joins_a_card_whose_text_does_not() -> None:
    from rulekb.kb.ask.card_verdict import verdict_sentence

    question = "Может ли отступающая боевая единица нападать в этом ходу?"
    shown = "Отступающая боевая единица движется на 2D6 к своему краю стола."
    first = [sentence(shown)]
    second = [sentence("Отступление описано в этой главе.", "flavour"),
              sentence("Боевая единица, которая отступает, не может нападать в этом ходу."),
              sentence("Нападающая боевая единица может нападать на врага.")]
    weights = {"отступать": 2.0, "боевой": 1.0, "единица": 1.0, "ход": 0.5, "нападать": 2.0}
    found = verdict_sentence(question, "ru", None, shown, shown, weights, [("a", first), ("b", second)])
    assert found == ("b", "Боевая единица, которая отступает, не может нападать в этом ходу.")
    assert str(yes_no_lead(f"{shown} {found[1]}", "ru", weights, question)) == "Нет."
    # a shown text stating the predicate already takes nothing
    stated = "Отступающая боевая единица не может нападать."
    assert verdict_sentence(question, "ru", None, stated, stated, weights, [("b", second)]) is None
    # a sentence carrying less of the question than the chosen one does not join
    assert verdict_sentence(question, "ru", None, shown, shown, weights,
                            [("c", [sentence("Враг может нападать.")])]) is None
    # nor is a verb of the situation told before the asking sentence the predicate
    told = "Мой отряд провалил тест. Можно?"
    assert verdict_sentence(told, "ru", None, shown, shown, {"тест": 1.0},
                            [("d", [sentence("Отряд, провалив тест, может провалить и следующий тест.")])]) is None


def test_da_esli_states_a_condition_opening_its_sentence_whole() -> None:
    ruling = "Если отряд, продвинувшийся вперёд в этом ходу, содержит модели с пистолетами, он всё ещё может стрелять."
    assert yes_no_lead(ruling) == "Да, если отряд, продвинувшийся вперёд в этом ходу, содержит модели с пистолетами."
    # a condition inside the sentence is read up to its clause's end, as before
    assert yes_no_lead("Модель может стрелять, если она не двигалась в этом ходу, и только из пистолета.") == (
        "Да, если она не двигалась в этом ходу.")

def test_the_heading_a_passage_never_prints_counts_for_its_ruling_sentences() -> None:
    # a stratagem's text never repeats its name: the heading it sits under says what it rules
    effect = sentence("Бросьте шесть кубиков: за каждое значение 5+ вражеский отряд получает 1 смертельную рану.")
    other = sentence("Бросьте кубик: при результате 4+ вражеский отряд получает 1 смертельную рану от гранаты.")
    weights = {"танковый": 3.0, "шок": 3.0, "граната": 2.0, "бросить": 0.5, "кубик": 0.5, "рана": 0.5}
    candidates = [("grenade", "rule", [other]), ("tank-shock", "rule", [effect])]
    plain = choose(candidates, weights, set(), "lookup")
    assert plain is not None and plain.node_id == "grenade"
    headed = choose(candidates, weights, set(), "lookup",
                    headings={"grenade": ["граната"], "tank-shock": ["танковый", "шок"]})
    assert headed is not None and headed.node_id == "tank-shock" and "5+" in headed.text
    # a heading the passage prints already adds nothing: its sentences carry those words themselves
    printed = choose(candidates, weights, set(), "lookup", headings={"grenade": ["граната"], "tank-shock": ["кубик"]})
    assert printed is not None and printed.node_id == "grenade"


def test_a_term_s_definition_rules_while_a_name_line_does_not() -> None:
    # the name a keyword's line gives, or a pronoun's, points back at the rule: no answer of its own
    assert mark_one("[ТЯЖЕЛЫЙ] В их описании они известны как «Тяжелое оружие».", "rule", 0, 2) == "naming"
    assert mark_one("Это называется согласованностью отряда.", "rule", 1, 2) == "naming"
    # a sentence with its own subject defining a term says what the term is: a ruling
    definition = ("В Warhammer 40000 используется специальный кубик с нанесенными на его грани стрелками и "
                  "значением «Hit!» (попадание), называемый «кубиком смещения».")
    assert mark_one(definition, "rule", 0, 2) == "rule"
    assert mark_one("Количество моделей, которыми обладает отряд при добавлении его в вашу армию, называется его "
                    "начальной численностью.", "rule", 0, 1) == "rule"


def test_a_characteristic_s_entry_is_read_whole_and_the_other_entries_are_another_thing_s_rule() -> None:
    lines = ["Оружие описывается следующими характеристиками:",
             "Бронепробиваемость (AP): показывает способность оружия пробивать защиту цели.",
             "После применения всех модификаторов значение не может быть хуже 0.",
             "Урон (D): количество урона, наносимого успешным ранением.",
             "После применения всех модификаторов значение не может быть меньше 1.",
             "Исключением является случай, когда правило разрешает изменять характеристику «Урон» на 0."]
    passage = [sentence(x) for x in lines]
    weights = {"урон": 4.0, "модификатор": 4.0, "0": 4.5, "оружие": 2.0}
    choice = choose([("weapons", "rule", passage)], weights, {"0"}, "yesno")
    assert choice is not None
    # the damage entry, its label first, not the AP sentence that prints the question's «0»
    assert choice.text.startswith("Урон (D):") and "меньше 1" in choice.text and "хуже 0" not in choice.text
    # without labels the sentence printing the question's number wins
    unlabelled = [sentence(x.replace(" (AP):", ",").replace(" (D):", ",")) for x in lines]
    plain = choose([("weapons", "rule", unlabelled)], weights, {"0"}, "yesno")
    assert plain is not None and "хуже 0" in plain.text


def test_a_permission_excepting_the_asked_case_inline_denies(built: Path) -> None:
    """«… могут прибыть …, за исключением первого раунда сражения» answers «… в первом раунде?» with «Нет»."""
    from rulekb.kb.ask.answer import ask

    ruling = "Отряды могут прибыть в любой фазе движения, за исключением первого раунда сражения."
    weights = {"отряд": 1.0, "прибыть": 2.0, "первый": 1.0, "раунд": 1.0}
    assert yes_no_lead(ruling, "ru", weights, "Могут ли отряды прибыть в первом раунде?") == "Нет."
    # a case the exception does not name keeps the permission
    assert yes_no_lead(ruling, "ru", {"отряд": 1.0, "прибыть": 2.0, "раунд": 1.0},
                       "Могут ли отряды прибыть в этом раунде?") == "Да."
    # an exception in a denying or a permission-less sentence is no new verdict
    assert yes_no_lead("Отряды прибывают в фазе движения, кроме первого раунда.", "ru", weights,
                       "Могут ли отряды прибыть в первом раунде?") is None
    first = ask("Может ли отряд из стратегического резерва выйти на поле боя в первом раунде битвы?",
                build_dir=built, use_faq=False)["card"]
    assert first["text"].startswith("Нет.") and "за исключением первого раунда" in first["text"]
    second = ask("Может ли отряд из стратегического резерва выйти на поле боя во втором раунде битвы?",
                 build_dir=built, use_faq=False)["card"]
    assert not second["text"].startswith("Нет.")
