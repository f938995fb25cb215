"""The sentence a procedure or lookup card shows: what the asking clause asks over its set-up, the
ordered steps whole, the list a shown paragraph announces."""

from __future__ import annotations

import re
from pathlib import Path

from rulekb.kb.text.choice import choose
from rulekb.kb.text.sentences import Sentence

sentence = Sentence.read


def test_the_set_up_s_terms_weigh_less_when_the_leading_sentence_is_chosen(built: Path) -> None:
    from rulekb.kb.ask.card_parts import SETUP_WEIGHT, asked_weights
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    question = "Мы выиграли рукопашку, враг провалил мораль и бежит. Как отыгрывается стремительное продвижение?"
    parsed = index.parse(question, None)
    weights = {"стремительный": 2.0, "продвижение": 2.0, "мораль": 2.0, "провалить": 2.0}
    asked = asked_weights(index, parsed, question, weights)
    assert asked["стремительный"] == asked["продвижение"] == 2.0  # what the asking sentence asks
    assert asked["мораль"] == asked["провалить"] == 2.0 * SETUP_WEIGHT  # the situation told before it
    plain = "Как отыгрывается стремительное продвижение?"
    assert asked_weights(index, index.parse(plain, None), plain, weights) == weights


def test_the_asked_weights_choose_the_leading_sentence_and_the_question_s_weights_what_joins() -> None:
    ruling = [sentence("Когда отряд отступает из ближнего боя, победители пытаются сделать стремительное продвижение."),
              sentence("Во время стремительного продвижения оба отряда кидают D6 и прибавляют свою инициативу.")]
    setup = [sentence("После того как проигравшие провалили тест на мораль, победитель может совершить "
                      "стремительное продвижение, если ни с кем больше не сражается.")]
    filler = [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(8)]
    candidates = [("rule", "rule", [*ruling, *filler]), ("setup", "rule", [*setup, *filler])]
    weights = {"стремительный": 2.0, "продвижение": 2.0, "мораль": 2.0, "провалить": 2.0}
    plain = choose(candidates, weights, set(), "procedure")
    assert plain is not None and plain.node_id == "setup"  # the set-up's words outweigh the rank decay
    asked = {t: w / 2 if t in ("мораль", "провалить") else w for t, w in weights.items()}
    chosen = choose(candidates, weights, set(), "procedure", asked=asked)
    assert chosen is not None and chosen.node_id == "rule"
    assert "прибавляют свою инициативу" in chosen.text


def test_a_paragraph_announcing_a_list_is_shown_with_the_list() -> None:
    from rulekb.kb.ask.card_parts import with_paragraph
    from rulekb.kb.text.choice import Choice

    paragraph = ("Каждый раз, когда отряд завершил атаки, он проходит одну проверку на опасность. Для этого "
                 "бросьте D6: при выпадении 1 проверка провалена. За каждую проваленную проверку выполните "
                 "следующую последовательность действий:")
    items = ["• По возможности выберите модель, потерявшую одно или несколько ранений.",
             "• В противном случае выберите любую модель, исключая персонажей."]
    other = "Прочее правило об оружии и его профилях. " * 20
    text = f"{paragraph}\n{other.strip()}"
    sentences = [sentence(x) for x in re.split(r"(?<=[.!?:])\s+", paragraph)] + [sentence(x) for x in items] + [
        sentence(x) for x in re.split(r"(?<=[.!?])\s+", other.strip())]
    best = sentences[0].text
    widened = with_paragraph(text, sentences, Choice("n", best, 1.0, 0, best))
    assert "последовательность действий:" in widened.text
    assert all(item in widened.text for item in items)  # the steps it announces
    assert widened.text.index(items[0]) < widened.text.index(items[1])
    assert "Прочее правило" not in widened.text


def test_a_procedure_s_steps_come_with_the_prose_step_leading_into_them() -> None:
    lead = sentence("Во время стремительного продвижения оба отряда кидают D6 и прибавляют к результату свою инициативу.")
    note = sentence("Если у моделей отряда разная инициатива, используется наибольшая из них.")
    steps = [sentence("• Если результат победителя больше или равен, отступающий отряд уничтожен."),
             sentence("• Если результат отступающего больше, он выходит из ближнего боя.")]
    opening = sentence("Когда отряд отступает из ближнего боя, победители пытаются сделать стремительное продвижение.")
    closing = sentence("Некоторые отряды по своим правилам никогда не совершают стремительное продвижение.")
    filler = [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(8)]
    passage = [opening, *filler, lead, note, *steps, closing]
    weights = {"стремительный": 2.0, "продвижение": 2.0, "никогда": 0.5}
    choice = choose([("a", "rule", passage)], weights, set(), "procedure")
    assert choice is not None
    assert lead.text in choice.text and note.text in choice.text and all(s.text in choice.text for s in steps)
    assert choice.text.index(lead.text) < choice.text.index(steps[0].text)  # in the text's order
    assert "Посторонняя" not in choice.text
    # a sentence before the steps that carries nothing asked leads into nothing
    unrelated = [opening, *filler, note, *steps, closing]
    plain = choose([("a", "rule", unrelated)], weights, set(), "procedure")
    assert plain is not None and note.text not in plain.text


def test_a_procedure_shows_each_step_with_the_sentences_it_goes_on_with() -> None:
    lead = sentence("Чтобы определить потери, распределите раны в следующем порядке:")
    first = sentence("- Раны распределяются на модели в базовом контакте с теми, кто атакует на этом шаге.")
    details = [sentence("Если подходящих моделей несколько, игрок, которого атакуют, сам выбирает модель."),
               sentence("Бросьте спасброски за эту модель, если они у неё есть."),
               sentence("Удалите модель как погибшую, если она потеряла последнее ранение."),
               sentence("Затем продолжайте с той же моделью, пока она не погибнет.")]
    second = sentence("- Если моделей в базовом контакте нет, рана распределяется на ближайшую вражескую модель.")
    second_detail = sentence("Если таких моделей несколько на равном расстоянии, их владелец выбирает одну из них.")
    filler = [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле, без вопроса в ней.") for i in range(10)]
    passage = [*filler[:5], lead, first, *details, second, second_detail, *filler[5:]]
    choice = choose([("a", "rule", passage)], {"распределять": 2.0, "рана": 2.0}, set(), "procedure")
    assert choice is not None
    texts = [x.text for x in (lead, first, *details, second, second_detail)]
    assert all(t in choice.text for t in texts)
    assert [choice.text.index(t) for t in texts] == sorted(choice.text.index(t) for t in texts)
    # steps too far apart to show whole with what lies between them are shown alone
    far = [*filler[:5], lead, first, *(filler * 2), second]
    apart = choose([("a", "rule", far)], {"распределять": 2.0, "рана": 2.0}, set(), "procedure")
    assert apart is not None and first.text in apart.text and second.text in apart.text
    assert apart.text.count("Посторонняя") < 10


def test_a_passage_whose_sentences_all_score_alike_is_shown_with_each_of_them() -> None:
    body = [sentence("И у орка, и у космодесантника навык ближнего боя и стойкость равны четырём."),
            sentence("У орка больше атак, чем у космодесантника, что отображает его свирепость."),
            sentence("Навык стрельбы четыре у космодесантника означает, что он чаще попадает."),
            sentence("У космодесантника лидерство восемь, что немногим выше среднего для воинов.")]
    filler = [sentence(f"Посторонняя длинная фраза номер {i} о совсем другом правиле игры, без вопроса в ней, "
                       "и без единого слова из него.") for i in range(8)]
    weights = {"космодесантник": 2.0, "профиль": 1.0}
    choice = choose([("a", "rule", [*body, *filler])], weights, set(), "lookup")
    assert choice is not None and all(x.text in choice.text for x in body)  # each of them rules alike
    assert "Посторонняя" not in choice.text
    # one sentence carrying more of the question's words leads, the others stay out
    best = sentence("Профиль космодесантника лучше профиля орка почти во всём, кроме атак.")
    alone = choose([("a", "rule", [*body, best, *filler])], weights, set(), "lookup")
    assert alone is not None and best.text in alone.text and body[2].text not in alone.text
