"""FAQ gating: an entry leads the card only for its edition, its passages and its own question;
``answer_en`` is optional and English questions get it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from rulekb.kb.faq.entries import FaqCitation, FaqEntry, FaqMatcher
from rulekb.kb.faq.gate import CLOSE_SCORE, CLOSE_UNCOVERED, GATE_SCORE, GATE_UNCOVERED, gate_entry


def entry(entry_id: str, question: str, *variants: str, answer: str = "Ответ для проверки гейта.",
          edition: str = "10", answer_en: str | None = None) -> FaqEntry:
    prefix = {"10": "10e-", "6": "6e-"}[edition]
    return FaqEntry(
        id=prefix + entry_id, question=question, variants=variants, edition=edition, concepts=("test",),
        answer=answer, answer_en=answer_en,
        citation=(FaqCitation(source="10e-core" if edition == "10" else "6e-rules", lines=(1, 2), quotes=("x",)),),
    )


SHOOTING = entry("split-fire", "Можно ли разделить стрельбу отряда по разным целям?",
                 "стрелять по двум отрядам сразу", "split fire shooting targets")
PLACING = entry("place-marker", "Где можно ставить маркеры целей при расстановке?",
                "расстановка маркеров на поле", "placing objective markers")
ENTRIES = [SHOOTING, PLACING, entry("other", "Сколько стоит стратагема?", "цена стратагемы", "stratagem cost")]


def test_uncovered_share() -> None:
    matcher = FaqMatcher(ENTRIES)
    assert matcher.uncovered("Можно ли разделить стрельбу по разным целям?", SHOOTING) == 0.0
    melee = matcher.uncovered("Можно ли разделить рукопашные атаки по разным целям?", SHOOTING)
    assert melee > GATE_UNCOVERED  # «рукопашные атаки» are not what the shooting entry answers
    assert matcher.uncovered("можно ли закончить движение на маркере", PLACING) > 0.3


def test_gate_reasons() -> None:
    question = "Можно ли разделить стрельбу по разным целям?"
    cited = ["leaf-a"]
    assert gate_entry(ENTRIES, SHOOTING, 0.9, question, "10", cited, ["leaf-a", "b"]).leads
    assert gate_entry(ENTRIES, SHOOTING, 0.9, question, "6", cited, ["leaf-a"]).reason == "edition"
    assert gate_entry(ENTRIES, SHOOTING, CLOSE_SCORE - 0.01, question, "10", cited, ["leaf-a"]).reason == "score"
    assert gate_entry(ENTRIES, SHOOTING, 0.9, question, "10", cited, ["b", "c", "d", "leaf-a"]).reason == "passages"
    melee = "Можно ли разделить рукопашные атаки по разным целям?"
    assert gate_entry(ENTRIES, SHOOTING, 0.9, melee, "10", cited, ["leaf-a"]).reason == "aspect"


def test_a_weaker_match_leads_only_when_it_covers_the_question() -> None:
    """Between ``CLOSE_SCORE`` and ``GATE_SCORE`` an entry leads only when its phrasings and answer
    leave at most ``CLOSE_UNCOVERED`` of the question's words uncovered."""
    matcher = FaqMatcher(ENTRIES)
    cited, top = ["leaf-a"], ["leaf-a"]
    weaker = (CLOSE_SCORE + GATE_SCORE) / 2
    covered = "Можно ли разделить стрельбу по разным целям?"
    assert matcher.uncovered(covered, SHOOTING) <= CLOSE_UNCOVERED
    assert gate_entry(ENTRIES, SHOOTING, weaker, covered, "10", cited, top).leads
    partly = "Можно ли разделить стрельбу по разным целям, если отряд в укрытии?"
    share = matcher.uncovered(partly, SHOOTING)
    assert CLOSE_UNCOVERED < share <= GATE_UNCOVERED  # would lead a strong match, not a weaker one
    assert gate_entry(ENTRIES, SHOOTING, weaker, partly, "10", cited, top).reason == "score"
    assert gate_entry(ENTRIES, SHOOTING, GATE_SCORE, partly, "10", cited, top).leads
    # the retrieval and edition checks hold for a weaker match as for any
    assert gate_entry(ENTRIES, SHOOTING, weaker, covered, "10", cited, ["b", "c", "d"]).reason == "passages"


def test_answer_en_is_optional_and_checked() -> None:
    assert SHOOTING.answer_en is None
    english = entry("en", "Можно ли что-то сделать?", "вариант один", "вариант два", answer_en="Yes: the unit may do it.")
    assert english.answer_en == "Yes: the unit may do it."
    with pytest.raises(ValidationError):
        entry("blank", "Можно ли что-то сделать?", "вариант один", "вариант два", answer_en="          ")


def test_english_questions_get_the_english_answer(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``answer_en`` on the entry that leads, an English card carries it; a Russian one does not."""
    from rulekb.kb.ask.answer import ask
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    question_en = "Can a unit shoot after it advanced?"
    card = ask(question_en, build_dir=built, edition="10")["card"]
    assert card["source"] == "faq", card  # the advance entry leads this card
    led = next(e for e in index.faq if [list(c.lines) for c in e.citations] == [c["lines"] for c in card["citations"]])
    patched = tuple(e.model_copy(update={"answer_en": "ENGLISH ANSWER: no, it cannot shoot."}) if e.id == led.id else e
                    for e in index.faq)
    monkeypatch.setattr(index, "faq", patched)
    english = ask(question_en, build_dir=built, edition="10")["card"]
    assert "ENGLISH ANSWER" in english["text"] and english["lang"] == "en"
    russian = ask("можно ли стрелять после продвижения", build_dir=built, edition="10")["card"]
    assert "ENGLISH ANSWER" not in russian["text"]
