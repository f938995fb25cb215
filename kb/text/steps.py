"""A procedure's ordered steps as a card shows them: each step with the sentences it goes on with,
and the sentence leading into the first step when no «…:» announces them (read by
:func:`rulekb.kb.text.choice.choose`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rulekb.corpus.morph import morph
from rulekb.corpus.words import WORD
from rulekb.kb.text.context import carried
from rulekb.kb.text.sentences import NON_RULING, STEP, Sentence

__all__ = ["CLOSE_FORMS", "CLOSE_SHARE", "STEPS_LEAD", "STEPS_LEAD_SHARE", "TITLE_SHARE", "acts", "close_scoring", "is_titled_procedure", "procedure_opening", "procedure_steps", "steps_lead", "steps_span"]

#: Parts of speech of a word that tells what to do or what happens (pymorphy3's tags): a verb in
#: any mood, an infinitive, a short participle («считается», «убирается», «размещены»).
_ACTING = frozenset({"VERB", "INFN", "PRTS"})
_WORD = re.compile(WORD)


@lru_cache(maxsize=8192)
def acts(text: str) -> bool:
    """Does ``text`` tell an action or what happens — a verb in it, not a list of things only?
    A procedure's step does («•Бросьте кубик смещения и 2D6 …», «• Отряд залегает»); an item naming
    a thing with its measure does not («•Малый маркер взрыва (3" в диаметре)»), though it is printed
    the same way. A word the analyser reads as a verb in any of its parses counts only when that is
    its likeliest reading."""
    for word in _WORD.findall(text):
        parses = morph().parse(word.lower())
        if parses and parses[0].tag.POS in _ACTING:
            return True
    return False


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


#: A heading names what a procedure question asks when it carries a term weighing at least this
#: share of the question's weightiest term.
TITLE_SHARE = 0.5


def is_titled_procedure(sentences: Sequence[Sentence], heading: Iterable[str], weights: Mapping[str, float],
                        groups: Mapping[str, str] | None, top: float) -> bool:
    """Is this passage the procedure the question asks for: its heading names a weighty term of the
    question (at least :data:`TITLE_SHARE` of the weightiest: «Смещение» for «Как отыграть смещение
    маркера взрыва?») and it prints ordered steps that act (at least two: «•Разместите объект …»,
    «•Бросьте кубик смещения …»)? Retrieval may rank it below a passage that prints the question's
    other words more often (the blast markers' own passage, listing them)."""
    named = carried(set(heading), dict(weights), groups)
    if named < TITLE_SHARE * top:
        return False
    return sum(1 for x in sentences if x.mark not in NON_RULING and STEP.match(x.text) and acts(x.text)) >= 2


#: Forms whose card shows every sentence of the chosen passage scoring :data:`CLOSE_SHARE` of the best
#: one, wherever it stands (:func:`close_scoring`); a yes/no or number card's lead
#: is read off its sentences, and more of them changed verdicts and measures both ways. A procedure's
#: card also opens with its passage's opening (:func:`procedure_opening`).
CLOSE_FORMS = ("procedure", "lookup")
#: … the share (0.6 measured the same; at 0.5 one row gained and one lost). A sentence carrying
#: half as much again as the others still leads alone (two thirds of it stay out).
CLOSE_SHARE = 0.7


def close_scoring(sentences: Sequence[Sentence], chosen: Sequence[int], scores: Sequence[float], best: int,
                  share: float, longest: int) -> list[int]:
    """The ruling sentences of a procedure's passage not chosen yet that score at least ``share`` of the
    best one, in text order, while the card stays within ``longest`` characters: the steps and the
    sentences going on from the best one fill the card's places, and the rule closing the procedure
    after its last step («Как только вы распределите Рану на модель, вы должны распределять Раны на
    неё, пока она не погибнет …») scores nearly as much as the best yet stood past them."""
    length = sum(len(sentences[j].text) + 1 for j in chosen)
    out: list[int] = []
    for j, x in enumerate(sentences):
        if j in chosen or x.mark in NON_RULING or not scores[j] >= share * scores[best] > 0:
            continue
        if length + len(x.text) + 1 > longest:
            break
        out.append(j)
        length += len(x.text) + 1
    return out


def procedure_opening(sentences: Sequence[Sentence], chosen: Sequence[int], scores: Sequence[float], best: int,
                      longest: int) -> list[int]:
    """The ruling sentences leading back from a procedure's best sentence to its passage's opening,
    when they all fit with the chosen ones in ``longest`` characters; else none. A procedure is told
    in order: its first step is often the passage's opening, in prose, carrying few of the question's
    words («Каждую атаку начинают с передвижения инициатора атаки … Инициатор атаки — всегда модель
    ближайшая к врагу …» before «После передвижения первой модели вы можете переместить остальные …»).
    The way back stops at a sentence that does not rule and at two in a row carrying nothing the
    question asks (another matter told between); the sentences carrying nothing at its far end are
    left out."""
    run: list[int] = []
    for j in range(best - 1, -1, -1):
        if sentences[j].mark in NON_RULING or (scores[j] <= 0 and run and scores[run[-1]] <= 0):
            break
        run.append(j)
    while run and scores[run[-1]] <= 0:
        run.pop()
    opening = [j for j in reversed(run) if j not in chosen]
    length = sum(len(sentences[j].text) + 1 for j in (*chosen, *opening))
    return opening if length <= longest else []
