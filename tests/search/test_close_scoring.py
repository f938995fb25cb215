"""A procedure or lookup card shows every sentence of its passage scoring nearly as much as the best,
wherever it stands: the steps and the sentences after the best one do not crowd it out; a procedure's
card opens with its passage's first step."""

from __future__ import annotations

from rulekb.kb.text.choice import SHORT_PASSAGE, choose
from rulekb.kb.text.sentences import Sentence
from rulekb.kb.text.steps import close_scoring, procedure_opening

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


FIRST = "Каждое нападение начинают с модели, ближайшей к врагу: её передвигают первой, в любом порядке."
SECOND = "Затем её ставят в базовый контакт с врагом."
LATER = "После передвижения первой модели остальные модели отряда передвигают в любом порядке."


def test_a_procedure_card_opens_with_its_passage_s_first_step() -> None:
    sentences = [Sentence.read(t) for t in (FIRST, FILLER, SECOND, LATER)]
    assert procedure_opening(sentences, [3], [4.0, 0.0, 2.0, 9.0], 3, 10_000) == [0, 1, 2]
    assert procedure_opening(sentences, [3], [4.0, 0.0, 2.0, 9.0], 3, len(LATER) + 10) == []  # no room
    # two sentences in a row carrying nothing asked: another matter is told between
    assert procedure_opening(sentences, [3], [4.0, 0.0, 0.0, 9.0], 3, 10_000) == []
    assert procedure_opening(sentences, [3], [0.0, 1.0, 2.0, 9.0], 3, 10_000) == [1, 2]  # nothing at the far end


def test_the_opening_joins_a_long_procedure_passage() -> None:
    after = [FILLER.replace("Отряд", u) for u in ("Взвод", "Звено", "Отделение", "Юнит", "Расчёт")]
    weights = {"остальной": 5.0, "порядок": 4.0}
    told = [Sentence.read(t) for t in (FIRST, SECOND, LATER, *after)]
    assert len(" ".join(x.text for x in told)) > SHORT_PASSAGE
    choice = choose([("charge", "rule", told)], weights, set(), "procedure")
    assert choice is not None and choice.text.startswith(f"{FIRST} {SECOND} {LATER}")
    number = choose([("charge", "rule", told)], weights, set(), "number")
    assert number is not None and not number.text.startswith(FIRST)
    apart = [Sentence.read(t) for t in (FIRST, FILLER, FILLER.replace("Отряд", "Юнит"), LATER, *after)]
    choice = choose([("charge", "rule", apart)], weights, set(), "procedure")
    assert choice is not None and not choice.text.startswith(FIRST)
