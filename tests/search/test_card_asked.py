"""A comparison's part gets the ruling on what the question asks of the mechanic (``card_asked``): the
sentence of the mechanic's own section carrying the question's words the part does not carry."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rulekb.kb.ask.card_asked import Word, asked_sentence, uncarried
from rulekb.kb.ask.card_aspect import MAX_ADDED
from rulekb.kb.ask.card_compare import marker_words
from rulekb.kb.ask.part import Part
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.context import heading_lemmas
from rulekb.kb.text.sentences import NON_RULING, load_marked


def _sibling_leaves(index: Any, marked: dict[str, Any]) -> tuple[Any, Any, Any, str, str]:
    """A leaf with a ruling sentence, another leaf of its section, and two lemmas of that sentence (neither
    in the leaf's heading) standing for the mechanic and the aspect asked."""
    by_section: dict[str, list[Any]] = {}
    for leaf in index.features.values():
        by_section.setdefault(leaf.id.rsplit("/", 1)[0], []).append(leaf)
    for leaves in by_section.values():
        if len(leaves) < 2:
            continue
        leaf, other = leaves[1], leaves[0]
        heading = set(heading_lemmas(leaf.heading))
        for sentence in marked.get(leaf.id, ()):
            lemmas = [t for t in dict.fromkeys(sentence.lemmas) if len(t) >= 6 and t.isalpha() and t not in heading]
            if sentence.mark not in NON_RULING and len(sentence.text) <= MAX_ADDED and len(lemmas) >= 2 \
                    and set(index.lemmas_of(lemmas[0])) == {lemmas[0]}:
                return leaf, other, sentence, lemmas[0], lemmas[1]
    raise AssertionError("no section with two leaves and a ruling sentence")


def _part(other: Any, text: str, source: str = "text") -> Part:
    return Part(other.edition, text, other.id, list(other.lines), source,
                [{"source_id": other.source_id, "lines": list(other.lines), "quote": text}])


def test_the_sentence_of_the_mechanic_s_section_on_the_aspect_asked_joins_the_part(built: Path) -> None:
    index = get_index(built)
    marked = load_marked(built)
    leaf, other, _sentence, mechanic, aspect = _sibling_leaves(index, marked)
    words: list[Word] = [(mechanic, frozenset({mechanic}), "", 1.0), (aspect, frozenset({aspect}), "", 1.0)]
    hits = [SimpleNamespace(node_id=leaf.id, kind=leaf.kind)]
    found = asked_sentence(index, marked, _part(other, mechanic), hits, words)
    assert found is not None and found[0] == leaf.id and aspect in index.lemmas_of(found[1])
    # the part carrying the aspect already, a FAQ part, and a passage of another section get nothing
    assert asked_sentence(index, marked, _part(other, f"{mechanic} {aspect}"), hits, words) is None
    assert asked_sentence(index, marked, _part(other, mechanic, "faq"), hits, words) is None
    elsewhere = next(f for f in index.features.values() if f.id.rsplit("/", 1)[0] != leaf.id.rsplit("/", 1)[0])
    assert asked_sentence(index, marked, _part(elsewhere, mechanic), hits, words) is None
    # a word no passage read prints («путаемся») asks nothing: the part is not looked at for it
    talk: list[Word] = [(mechanic, frozenset({mechanic}), "", 1.0), ("несуществующее", frozenset({"несуществующее"}), "", 5.0)]
    assert asked_sentence(index, marked, _part(other, mechanic), hits, talk) is None


def test_a_word_is_carried_by_its_synonyms_and_by_the_concept_it_names() -> None:
    words: list[Word] = [("фолбэк", frozenset({"фолбэк"}), "fall-back", 2.0),
                         ("стрелять", frozenset({"стрелять", "стрельба"}), "", 1.0)]
    assert [w[0] for w in uncarried(words, {"стрельба"}, {"fall-back"})] == []
    assert [w[0] for w in uncarried(words, {"отступать"})] == ["фолбэк", "стрелять"]


def test_same_or_not_is_a_comparing_word() -> None:
    assert {"одинаково"} <= marker_words("после отступления стрелять можно? в 7ке и 10ке одинаково или нет")
    assert "стрелять" not in marker_words("после отступления стрелять можно? в 7ке и 10ке одинаково или нет")


def test_a_number_set_against_another_edition_names_an_edition_after_dice_words() -> None:
    from rulekb.kb.ask.card_editions import versus_editions

    assert versus_editions("кт результат рукопашки vs 6ка") == ["6"]
    assert versus_editions("правило кт против 10-ки и против 6ке") == ["10", "6"]
    assert versus_editions("выпала 6ка на кубе") == []
    assert versus_editions("кт vs 3ка") == []  # no edition 3
    assert {"vs", "6ка"} <= marker_words("кт результат рукопашки vs 6ка")


def test_a_word_carried_only_by_the_passage_s_concepts_counts_in_the_whole_question_too(built: Path) -> None:
    # review 13-1, finding 7: the score counted a word the passage's concepts carry while the share it was
    # measured against left that word out, so a sentence printing a light aspect of a heavy question passed
    index = get_index(built)
    marked = load_marked(built)
    leaf, other, _sentence, mechanic, aspect = _sibling_leaves(index, marked)
    concept = next(iter(sorted({*leaf.concepts, *leaf.defines})), None)
    assert concept is not None, "the leaf names no concept"
    named_only = ("несуществующее", frozenset({"несуществующее"}), concept, 5.0)
    words: list[Word] = [(mechanic, frozenset({mechanic}), "", 1.0), (aspect, frozenset({aspect}), "", 1.0), named_only]
    hits = [SimpleNamespace(node_id=leaf.id, kind=leaf.kind)]
    assert asked_sentence(index, marked, _part(other, mechanic), hits, words) is None
    assert asked_sentence(index, marked, _part(other, mechanic), hits, words[:2]) is not None


def test_only_the_predicate_forms_of_same_are_comparing_words() -> None:
    # review 13-1, finding 3: «при одинаковой инициативе» asks about the tie, it does not say «compare»
    assert "одинаковой" not in marker_words("Что при одинаковой инициативе в 6ке против 10ки?")
    assert {"6ке", "10ки"} <= marker_words("Что при одинаковой инициативе в 6ке против 10ки?")
    assert "одинаковы" in marker_words("Правила рукопашной в 6ке и 10ке одинаковы?")
    assert "одинаковые" not in marker_words("Одинаковые модели в 6ке и 10ке бьют вместе?")


def test_a_number_set_against_no_edition_stays_a_word_of_the_mechanic() -> None:
    # review 13-1, finding 6: «vs 3ка» names no edition (there is no 3rd), «против 2 ку» is two words
    assert "3ка" not in marker_words("кт vs 3ка в 10ке")
    assert not {"2", "ку"} & marker_words("против 2 ку в 9ке и 10ке")
    from rulekb.kb.ask.card_editions import versus_editions

    assert versus_editions("кт против 6 ку") == []
