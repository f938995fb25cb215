"""A procedure or lookup card shows every sentence of its passage scoring nearly as much as the best,
wherever it stands: the steps and the sentences after the best one do not crowd it out."""

from __future__ import annotations

from rulekb.kb.text.choice import SHORT_PASSAGE, choose
from rulekb.kb.text.sentences import Sentence
from rulekb.kb.text.steps import close_scoring

BEST = "Раны распределяются на модели в базовом контакте с атакующими, начиная с ближайшей."
FILLER = ("Отряд перемещается на расстояние, указанное в его профиле, и не ближе одного дюйма к врагу, "
          "если только правило не говорит иного.")
CLOSING = "Как только рана распределена на модель, раны распределяются на неё, пока она не погибнет."
WEIGHTS = {"рана": 5.0, "распределяться": 4.0, "модель": 1.0}


def _passage() -> list[Sentence]:
    fillers = [FILLER.replace("Отряд", unit) for unit in ("Отряд", "Юнит", "Взвод", "Отделение", "Подразделение")]
    texts = [BEST, *fillers, CLOSING]
    return [Sentence.read(t) for t in texts]


def test_the_passage_is_too_long_to_show_whole() -> None:
    assert len(" ".join(x.text for x in _passage())) > SHORT_PASSAGE


def test_a_close_scoring_sentence_past_the_others_joins_a_lookup_card() -> None:
    choice = choose([("wounds", "rule", _passage())], WEIGHTS, set(), "lookup")
    assert choice is not None and choice.text.startswith(BEST) and CLOSING in choice.text
    assert FILLER not in choice.text


def test_only_sentences_scoring_the_share_join_within_the_length() -> None:
    sentences = _passage()
    scores = [10.0, 1.0, 0.0, 5.0, 0.0, 0.0, 7.0]
    assert close_scoring(sentences, [0], scores, 0, 0.6, 10_000) == [6]
    assert close_scoring(sentences, [0], scores, 0, 0.4, 10_000) == [3, 6]
    assert close_scoring(sentences, [0], scores, 0, 0.6, len(BEST) + 5) == []
