"""A comparison's parts state the same kinds of measure (``card_aspect``), and a part's added ruling is not
the text its length cuts off (``card_compare.joined``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rulekb.kb.ask.card_aspect import MAX_ADDED, measure_kinds, with_same_aspects
from rulekb.kb.ask.card_compare import MAX_PART, joined
from rulekb.kb.ask.part import Part
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.sentences import NON_RULING, load_marked


def test_measure_kinds_read_each_kind_of_measure() -> None:
    assert measure_kinds("Бросьте 2D6 и переместитесь на 3 дюйма.") == {"dice", "inches"}
    assert measure_kinds("Спасбросок не может быть лучше, чем 2+.") == {"roll needed"}
    assert measure_kinds("Вычтите 1 из броска.") == {"modifier"}
    assert measure_kinds("Модель может стрелять.") == set()


def test_joined_cuts_the_ruling_before_the_added_sentence() -> None:
    ruling = "Первое правило длинное. " * 80
    added = "Добавленное правило на 3 дюйма."
    text = joined(ruling.strip(), added)
    assert len(text) <= MAX_PART and text.endswith(added)
    assert joined("Коротко.", added) == f"Коротко. {added}"


def _measured_leaf(index: Any, marked: dict[str, Any]) -> tuple[Any, Any]:
    """A leaf with a ruling sentence stating inches, short enough to be added."""
    for leaf in index.features.values():
        for sentence in marked.get(leaf.id, ()):
            if sentence.mark not in NON_RULING and len(sentence.text) <= MAX_ADDED \
                    and "inches" in measure_kinds(sentence.text) and len(sentence.lemmas) >= 6:
                return leaf, sentence
    raise AssertionError("no ruling sentence stating inches")


def test_a_part_stating_no_distance_gets_its_edition_s_sentence_that_states_one(built: Path) -> None:
    index = get_index(built)
    marked = load_marked(built)
    leaf, sentence = _measured_leaf(index, marked)
    other = "6" if leaf.edition != "6" else "10"
    measured = Part(other, "Модели перемещаются на 6 дюймов.", None, None, "text", [])
    plain = Part(leaf.edition, "Модели перемещаются.", None, None, "text", [])
    hits = {leaf.edition: [SimpleNamespace(node_id=leaf.id, kind=leaf.kind)]}
    weights = {lemma: 1.0 for lemma in sentence.lemmas}
    first, second = with_same_aspects(index, marked, [measured, plain], hits, weights, set())
    assert first == measured  # it states the distance already
    assert second.text.startswith("Модели перемещаются. ") and sentence.text in second.text
    assert second.citations[-1]["source_id"] == leaf.source_id
    assert "inches" in measure_kinds(second.text)
    # a sentence carrying nothing of the compared mechanic is a measure of another one: not added
    unrelated = with_same_aspects(index, marked, [measured, plain], hits, {"несуществующийтермин": 1.0}, set())
    assert unrelated[1] == plain
    # a FAQ part keeps its answer
    faq = Part(leaf.edition, "Ответ.", None, None, "faq", [])
    assert with_same_aspects(index, marked, [measured, faq], hits, weights, set())[1] == faq


def test_the_engine_computes_the_compared_mechanic_not_the_situation_it_is_asked_in() -> None:
    from rulekb.kb.ask.card_compare import engine_line

    assert engine_line(["unit", "charge"], ["6", "10"], "", "ru") is not None
    situation = ["blast", "hit", "charge"]  # the charge read from «атак» after what is compared
    assert engine_line(situation, ["6", "10"], "", "ru") is None
    # «дальность рывка»: the range is what is measured, the charge still the mechanic compared
    assert engine_line(["range", "surge-move", "charge"], ["7", "10"], "", "ru") is not None
    assert engine_line(["fall-back", "move", "charge"], ["7", "10"], "", "en") is None


def test_what_changed_names_the_measures_of_the_kinds_every_part_states() -> None:
    from rulekb.kb.ask.card_aspect import shared_measures
    from rulekb.kb.ask.card_compare import what_changed

    sixth = Part("6", "Спасбросок не может быть лучше, чем 2+.", None, None, "text", [])
    tenth = Part("10", "Бросьте D6; спасбросок 3+ или выше не улучшается укрытием.", None, None, "text", [])
    assert shared_measures([sixth, tenth]) == {"6": "2+", "10": "3+, D6"}
    line = what_changed([sixth, tenth], "ru")
    assert "6-я редакция — 2+" in line and "10-я редакция — 3+, D6" in line
    # a kind only one part states is the change itself: it stays on the line
    cover = Part("10", "Укрытие даёт +1 к спасброску 3+.", None, None, "text", [])
    assert "+1" in (shared_measures([sixth, cover])["10"] or "")
    # no kind shared: each part's own measures
    plain = Part("10", "Бросьте D6.", None, None, "text", [])
    assert shared_measures([sixth, plain]) == {}
    assert "D6" in what_changed([sixth, plain], "ru")


def test_a_part_cut_to_make_room_no_longer_cites_what_it_left_out(built: Path) -> None:
    from rulekb.kb.ask.card_aspect import shown, with_added

    index = get_index(built)
    leaf = next(f for f in index.features.values() if 40 <= len(f.text) <= 300)
    long = "Первое правило длинное и важное. " * 30
    summary = "Итог раздела в одной фразе, которую вырежут."
    part = Part("10", f"{long.strip()} {summary}", None, None, "text",
                [{"source_id": "x", "lines": [1, 2], "quote": long.strip()},
                 {"source_id": "x", "lines": [3, 3], "quote": summary}])
    added = "Добавленное правило. " * 30
    out = with_added(index, part, leaf.id, added.strip())
    assert summary not in out.text
    assert [c["lines"] for c in out.citations] == [[1, 2], list(leaf.lines)]
    kept = with_added(index, Part("10", "Коротко.", None, None, "text",
                                  [{"source_id": "x", "lines": [1, 1], "quote": "Коротко."}]), leaf.id, "Ещё одно.")
    assert len(kept.citations) == 2
    assert shown("Первая фраза правила. … Вторая фраза правила.", "Текст. Вторая фраза правила.")
    assert not shown("Совсем другая фраза.", "Текст карточки.")


def test_a_quote_with_an_ellipsis_is_shown_by_its_pieces_and_by_itself() -> None:
    # review 13-1, finding 4: «…» became « . » inside every piece, and after «…» a lower-case word was no split
    from rulekb.kb.ask.card_aspect import shown

    quote = "Отряд может двигаться … и стрелять навскидку после этого."
    assert shown(quote, quote)
    assert shown("Отряд может стрелять … только навскидку.", "Отряд может стрелять.")
    assert shown("Модель может… стрелять навскидку после этого.", "Карточка: стрелять навскидку после этого.")
    assert not shown("Отряд может … только навскидку.", "Другой текст карточки.")
