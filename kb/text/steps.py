"""A procedure's ordered steps as a card shows them: each step with the sentences it goes on with,
and the sentence leading into the first step when no «…:» announces them (read by
:func:`rulekb.kb.text.choice.choose`)."""

from __future__ import annotations

from collections.abc import Sequence

from rulekb.kb.text.sentences import NON_RULING, STEP, Sentence

__all__ = ["STEPS_LEAD", "STEPS_LEAD_SHARE", "procedure_steps", "steps_lead", "steps_span"]


def procedure_steps(sentences: Sequence[Sentence], steps: Sequence[int], best: int, scores: Sequence[float],
                    longest: int) -> list[int]:
    """The sentences a procedure's card shows besides its best one (``best``): its ``steps`` whole
    (:func:`steps_span`) and what announces them — the «…:» sentence before the first step, else the
    prose leading into it (:func:`steps_lead`)."""
    first = steps[0]
    out = [j for j in steps_span(sentences, steps, longest) if j != best]
    if first > 0 and sentences[first - 1].text.rstrip().endswith(":"):
        if first - 1 != best:
            out.append(first - 1)
    else:
        out += [j for j in steps_lead(sentences, first, scores, scores[best]) if j not in out and j != best]
    return out


#: The sentences before a procedure's first step that lead into it go back at most this far …
STEPS_LEAD = 2
#: … to the nearest one scoring at least this share of the best sentence.
STEPS_LEAD_SHARE = 0.5


def steps_span(sentences: Sequence[Sentence], steps: Sequence[int], longest: int) -> list[int]:
    """The steps of a procedure with the ruling sentences each step goes on with up to the next step
    («- Раны должны быть распределены на модели в базовом контакте … Если есть более одного
    подходящего кандидата, игрок … выбирает …» before «- Если нет моделей в базовом контакте …»):
    the ordered steps whole, when they fit in ``longest`` characters (a procedure card's length);
    else the steps alone."""
    span = [j for j in range(steps[0], steps[-1] + 1) if sentences[j].mark not in NON_RULING]
    if sum(len(sentences[j].text) + 1 for j in span) <= longest:
        return span
    return list(steps)


def steps_lead(sentences: Sequence[Sentence], first: int, scores: Sequence[float], best: float) -> list[int]:
    """The sentences that lead into a procedure's steps when no «…:» announces them: back from the
    first step to the nearest ruling sentence carrying the question's words (at least
    :data:`STEPS_LEAD_SHARE` of the best one's score, at most :data:`STEPS_LEAD` back) — «Во время
    выполнения стремительного продвижения оба отряда кидают D6 и прибавляют … инициативы» before «•
    Если результат победившего … больше или равен …»: the first step, told in prose. Empty when no
    such sentence is that near."""
    for back in range(1, STEPS_LEAD + 1):
        j = first - back
        if j < 0 or sentences[j].mark in NON_RULING or STEP.match(sentences[j].text):
            return []
        if scores[j] >= STEPS_LEAD_SHARE * best > 0:
            return list(range(j, first))
    return []
