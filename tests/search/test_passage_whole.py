"""A second passage's sentence joins a card with its passage when the passage is short."""

from __future__ import annotations

from rulekb.kb.text.passage_whole import WHOLE_OTHER, whole_passage
from rulekb.kb.text.sentences import Sentence

LEAD = "Отступающий отряд, которому объявили нападение, проходит тест на перегруппировку."
FAIL = "•Если тест провален, отряд удаляется как потеря."
PASS = "•Если тест успешен, отряд перегруппировывается без передвижения."


def _passage(*texts: str, heading: str | None = None) -> list[Sentence]:
    out = [Sentence.read(heading, "heading")] if heading else []
    return out + [Sentence.read(t) for t in texts]


def test_a_short_passage_comes_whole_in_its_order_without_its_heading() -> None:
    sentences = _passage(LEAD, FAIL, PASS, heading="ОТСТУПЛЕНИЕ")
    assert whole_passage(sentences, FAIL, 1000) == f"{LEAD} {FAIL} {PASS}"


def test_a_long_passage_gives_the_sentence_alone() -> None:
    filler = "Отряд перемещается на расстояние, указанное в его профиле, и не ближе одного дюйма к врагу. "
    long_text = (filler * (WHOLE_OTHER // len(filler) + 1)).strip()
    sentences = _passage(LEAD, long_text, FAIL)
    assert whole_passage(sentences, FAIL, 10_000) == FAIL


def test_no_room_on_the_card_gives_the_sentence_alone() -> None:
    sentences = _passage(LEAD, FAIL, PASS)
    assert whole_passage(sentences, FAIL, len(FAIL) + 5) == FAIL


def test_a_sentence_not_of_the_passage_is_returned_as_it_is() -> None:
    assert whole_passage(_passage(LEAD, PASS), FAIL, 1000) == FAIL
