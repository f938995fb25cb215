"""A test's outcome asked about («тест пройден?», «это автоматический успех?») and stated by the ruling in
either word of the pair: a pass is «пройден», «успех», «успешный»; a fail «провален», «провал»,
«неудача». A ruling that states the other outcome answers «Нет» («… то это всегда считается
автоматическим провалом теста» for «тест пройден?»). Of the parts of the ruling stating an outcome, the
one nearest the case the question tells decides — its words and the numbers rolled («выпадение 6
всегда означает неудачу, а 1 – это всегда успех» for «выпала 1»). Read by
:func:`rulekb.kb.text.verdicts.yes_no_lead`."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rulekb.kb.text.analysis import lemma
from rulekb.kb.text.asked import CLAUSE_SPLIT, SUBORDINATE, WORD, alternative, asking_sentence, pos

__all__ = ["FAIL", "PASS", "asked_outcome", "outcome_verdict"]

#: The words of a pass and of a fail, as lemmas.
PASS = frozenset({"пройти", "проходить", "пройденный", "успех", "успешный", "успешно", "удаться", "удаваться"})
FAIL = frozenset({"провалить", "проваливать", "провалиться", "проваливаться", "проваленный", "провал", "неудача",
                  "неудачный", "неудачно"})
#: A question asking for a permission or a duty asks no outcome («можно ли пройти тест повторно?»).
_MODAL = re.compile(r"\b(?:можно|нельзя|может|могут|могу|можем|нужно|надо|должен|должна|должны|обязан\w*)\b", re.I)
#: The parts of a ruling sentence each stating its own case: «…, а …», «…, но …», «; …».
_PARTS = re.compile(r",\s*(?:а|но|однако)\s+|;\s*")
_NUMBER = re.compile(r"\b\d+\b")


#: A number a player names by its word («выпала единица», «две шестёрки»).
_NUMBER_WORDS = {"единица": "1", "единичка": "1", "двойка": "2", "тройка": "3", "четверка": "4", "пятерка": "5",
                 "шестерка": "6"}


def _numbers(text: str) -> set[str]:
    """The numbers ``text`` gives, in digits or by their words."""
    words = {lemma(w) for w in WORD.findall(text.lower().replace("ё", "е"))}
    return set(_NUMBER.findall(text)) | {n for w, n in _NUMBER_WORDS.items() if w in words}


#: Words denying what follows them in a clause («не считается успехом», «никогда не бывает успешным»).
_DENIAL = frozenset({"не", "ни", "никогда"})
#: Negations that limit a measure («не больше лидерства»), they deny no outcome.
_LIMITING = re.compile(r"\bне\s+(?:более|менее|больше|меньше|ближе|дальше|только|раньше|позднее|позже)\b")


def _outcome(text: str, asking: bool = False) -> str | None:
    """``"pass"`` or ``"fail"``: the outcome ``text`` states (a negated one is the other: «не пройден», «не
    считается успехом»: «не», «ни», «никогда» anywhere before it in its clause), ``None`` for none or both;
    an infinitive states none. ``asking``: only the main clauses of a question count, and there an
    attributive word before its noun («после проваленного теста») states no outcome — the question tells
    it, it does not ask it."""
    found: set[str] = set()
    for clause in CLAUSE_SPLIT.split(_LIMITING.sub(" ", text.lower().replace("ё", "е"))):
        if asking and SUBORDINATE.match(clause):
            continue  # «Если тест провален, весь отряд уничтожается?» asks no outcome
        words = WORD.findall(clause)
        denied = False
        for k, word in enumerate(words):
            if word in _DENIAL:
                denied = True
                continue
            part = pos(word)
            if part == "INFN":
                continue  # «проходить только на …?», «тест можно пройти только на 1»: how a test may be taken, not how it ended
            if asking and part in ("ADJF", "PRTF") and k + 1 < len(words) and pos(words[k + 1]) == "NOUN":
                continue  # «после проваленного теста», but «это автоматический успех?», «бросок успешный?»
            lem = lemma(word)
            kind = "pass" if lem in PASS else "fail" if lem in FAIL else None
            if kind is not None:
                if denied:
                    kind = "fail" if kind == "pass" else "pass"
                found.add(kind)
    return next(iter(found)) if len(found) == 1 else None


#: A situation told before a dash in the asking sentence («Тест провален — весь отряд уничтожается?»).
_TOLD_DASH = re.compile(r"^.*\s[—–-]\s")


def asked_outcome(question: str) -> str | None:
    """The outcome a yes/no question asks about («… тест пройден, даже с модификаторами?» → pass; «Это
    автоматический успех или …?» → pass, its first alternative), ``None`` for a question asking for a
    permission or stating no outcome in the main clause that asks (an outcome in its condition, «Если тест
    провален, …?», or told before a dash, is the case told, not the one asked)."""
    asking = alternative(question) or asking_sentence(question.lower().replace("ё", "е"))
    if _MODAL.search(asking):
        return None
    return _outcome(_TOLD_DASH.sub(" ", asking), asking=True)


def outcome_verdict(ruling: str, question: str, weights: Mapping[str, float]) -> str | None:
    """``"yes"`` when the part of ``ruling`` nearest the question's case states the outcome asked,
    ``"no"`` when it states the other; ``None`` when the question asks no outcome or no part states
    one. Nearest: a part giving a number the question gives (the roll it tells), when it gives one,
    then the most of the question's weighted words (each number shared counting 1)."""
    asked = asked_outcome(question)
    if asked is None:
        return None
    numbers = _numbers(question)
    best: tuple[float, int, str] | None = None
    parts = [p for s in re.split(r"(?<=[.!?])\s+|\s+(?=•)", ruling) for p in _PARTS.split(s) if p.strip()]
    for position, part in enumerate(parts):
        stated = _outcome(part)
        if stated is None or (numbers and not numbers & _numbers(part)):
            continue  # the roll the question tells («выпала 1») is the case: a part about another number is not it
        lems = {lemma(w) for w in WORD.findall(part.lower())}
        score = sum(w for t, w in weights.items() if t in lems) + len(numbers & _numbers(part))
        if best is None or (score, -position) > (best[0], best[1]):
            best = (score, -position, stated)
    if best is None or best[0] <= 0:
        return None
    return "yes" if best[2] == asked else "no"
