"""Verdicts a ruling states about the case a yes/no question tells, besides its permission or
prohibition: a distance the question gives against the bound the ruling sets («… только в том случае,
если атакующая модель находится в пределах 12 дюймов» for a target 18 inches away), and a case the
ruling includes inline («теряет рану (включая раны, потерянные из-за смертельных ранений)» for «фнп от
морталов работает?»). Read by :func:`rulekb.kb.text.verdicts.yes_no_lead`."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from rulekb.kb.text.analysis import lemma, lemmas
from rulekb.kb.text.asked import MODALS, pos

__all__ = ["APPLYING", "PERMITS", "bound_fails", "case_included", "condition_contradicted", "question_distances",
           "situation_excepted"]

#: A distance a question gives: «18 дюймов», «в 2 дюймах», `9"`, "8 inches".
_DISTANCE = re.compile(r"(\d{1,2})(?:-?х|-?ти)?\s*(?:\"|″|''|дюйм\w*|inch\w*)", re.I)
_UNIT = r"(?:-?х|-?ти)?\s*(?:\"|″|''|дюйм\w*|inch\w*)"
#: The bounds a ruling sets on a distance, each with the test a distance ``m`` must pass against ``n``
#: («не более» before «более»: a limit, not a minimum).
_BOUNDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bне\s+(?:более|больше|дальше)\s+(?:чем\s+(?:в|на)\s+)?(\d{1,2})" + _UNIT, re.I), "le"),
    (re.compile(r"\bне\s+ближе\s+(?:чем\s+(?:в|на)\s+)?(\d{1,2})" + _UNIT, re.I), "ge"),
    (re.compile(r"\b(?:в\s+пределах|within|up\s+to)\s+(\d{1,2})" + _UNIT, re.I), "le"),
    (re.compile(r"(?<!не\s)\b(?:более|больше|дальше|свыше|more\s+than)\s+(?:чем\s+(?:в|на)\s+)?(\d{1,2})" + _UNIT, re.I), "gt"),
)
_QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"")
#: Words that permit (:mod:`rulekb.kb.text.verdicts` reads them too).
PERMITS = re.compile(r"\b(можно|может|могут|можете|мож[её]т|можем|разреша\w*|позволя\w*|вправе|can|may)\b", re.I)
_DENIES = re.compile(r"\b(не\s+может|не\s+могут|не\s+можете|нельзя|запрещ\w*|никогда|cannot|can't|may\s+not)\b", re.I)


def question_distances(question: str) -> set[int]:
    """The distances in inches a question gives (a dice roll «2D6″» is none)."""
    return {int(m.group(1)) for m in _DISTANCE.finditer(question) if not re.search(r"[DdДд]\s*$", question[:m.start()])}


def _passes(test: str, m: int, n: int) -> bool:
    return m <= n if test == "le" else m >= n if test == "ge" else m > n


def bound_fails(ruling: Sequence[str], question: str, weights: Mapping[str, float]) -> bool:
    """Whether the one distance the question gives breaks the bound of the ruling sentence that
    permits under it («можно установить … на расстоянии более 9 дюймов» for 8 inches) or keeps the
    bound a prohibition sets («не может … в пределах 9 дюймов» for 8): the verdict is «Нет». Of the
    sentences of ``ruling`` stating one bound and a permission or prohibition, the one carrying most
    of the question's ``weights`` decides; quoted text («…») is what another rule says, not this one."""
    distances = question_distances(question)
    if len(distances) != 1:
        return False
    (m,) = distances
    best: tuple[float, bool] | None = None
    for sentence in ruling:
        text = _QUOTED.sub(" ", sentence)
        bounds = [(int(found.group(1)), test) for pattern, test in _BOUNDS for found in pattern.finditer(text)]
        if len({n for n, _ in bounds}) != 1:
            continue
        denies, permits = bool(_DENIES.search(text)), bool(PERMITS.search(text))
        if not (denies or permits):
            continue
        n, test = bounds[0]
        fails = _passes(test, m, n) if denies else not _passes(test, m, n)
        words = set(lemmas(text))
        carried = sum(w for t, w in weights.items() if t in words)
        if carried > 0 and (best is None or carried > best[0]):
            best = (carried, fails)
    return best is not None and best[1]


#: Verbs asking whether a rule applies to a case («работает?», «действует ли …»; an English question's
#: "does it apply / work" through the English vocabulary), as lemmas.
APPLYING = frozenset({"работать", "действовать", "срабатывать", "сработать", "применяться", "распространяться",
                      "запускаться", "запуститься", "активироваться"})
#: A case a ruling includes inline, up to its clause's end («(включая раны, потерянные из-за смертельных
#: ранений)», «в том числе …», "including …").
_INCLUDED = re.compile(r"\b(?:включая|в\s+том\s+числе|including)\s+([^.;:()]{3,100})", re.I)


def case_included(ruling: Sequence[str], weights: Mapping[str, float]) -> bool:
    """Whether a sentence of ``ruling`` includes inline the case the question names: the inclusion
    carries a question's term the rest of its sentence does not, and the question names at least half
    of the inclusion's words — the rule applies to that case (mirror of an inline exception)."""
    for sentence in ruling:
        for found in _INCLUDED.finditer(sentence):
            rest = set(lemmas(sentence[:found.start()] + " " + sentence[found.end():]))
            included = [t for t in lemmas(found.group(1)) if len(t) > 3]
            asked = [t for t in included if weights.get(t, 0.0) > 0]
            if included and 2 * len(asked) >= len(included) and any(t not in rest for t in asked):
                return True
    return False


_WORDS = re.compile(r"[а-яёa-z0-9]+", re.I)
#: Negations before a word («не меньше 25%», «нельзя»), or after a noun («независимого персонажа нет»).
_NOT_BEFORE = frozenset({"не", "ни", "без", "not", "no"})
_NOT_AFTER = frozenset({"нет", "нету"})
#: The parts of speech that state a case: nouns, adjectives, verbs, participles, comparatives («меньше»).
_CONTENT = frozenset({"NOUN", "ADJF", "ADJS", "COMP", "VERB", "INFN", "PRTF", "PRTS"})


def _polar_words(text: str, kinds: frozenset[str] = _CONTENT) -> dict[str, bool]:
    """Each content word of ``text`` (its lemma, four letters or more, not a modal) → whether it is negated: «не»
    before it («не меньше»), «нет» after it («персонажа нет»)."""
    words = [w.lower().replace("ё", "е") for w in _WORDS.findall(text)]
    out: dict[str, bool] = {}
    for k, word in enumerate(words):
        if word in _NOT_BEFORE or word in _NOT_AFTER or len(word) < 4 or pos(word) not in kinds:
            continue  # «не только» negates a particle, not a case
        negated = (k > 0 and words[k - 1] in _NOT_BEFORE) or (k + 1 < len(words) and words[k + 1] in _NOT_AFTER)
        lem = lemma(word)
        if lem not in MODALS:  # «которому он не может навредить» is no case against «могу я …?»
            out.setdefault(lem, negated)
    return out


def condition_contradicted(condition: str, question: str) -> bool:
    """Whether the case the question tells contradicts the condition of a «Да, если …»: a word the
    condition negates the question states, or the other way round («Да, если живо не меньше 25% моделей
    или в нём независимый персонаж» for a unit with «меньше 25% моделей, независимого персонажа нет»):
    the permission is for the other case, it answers nothing."""
    asked = _polar_words(question)
    # a comparative («меньше») or a noun («персонажа нет»), not a verb: «не находится в зоне» and «находится
    # … вне зоны» say the same
    return any(word in asked and asked[word] != negated for word, negated in _polar_words(condition, _POLAR).items())


#: The words whose polarity a condition and a told case compare: comparatives and nouns.
_POLAR = frozenset({"COMP", "NOUN"})


#: An exception a ruling states inline: in brackets, up to the closing one («Отряд из вашей армии (за
#: исключением отрядов, которые продвинулись вперед, отступили или произвели выстрелы в этом ходу)»), or up
#: to its clause's end, with the relative clauses it goes on with («…, кроме отрядов, которые стреляли, …»).
_BRACKETED_EXCEPTION = re.compile(r"\(\s*(?:за\s+исключением|кроме(?!\s+(?:того|этого|прочего)\b)|except(?:\s+for)?|other\s+than)\s+([^()]{3,200})\)", re.I)
_CLAUSE_EXCEPTION = re.compile(r"\b(?:за\s+исключением|кроме(?!\s+(?:того|этого|прочего)\b)|except(?:\s+for)?|other\s+than)\s+([^.;:,()]{3,80}"
                               r"(?:,\s*(?:котор\w+|которые|who|that)\s[^.;:,()]{3,120})?)", re.I)


#: The time an exception is scoped to («… отступили в этом ходу»): when, not which case.
_TIME_FRAME = re.compile(r"\b(?:в|во|на|до)\s+(?:это\w*|т\w{1,2}\s+же|текущ\w+|сво\w+|ваш\w+|данн\w+)\s+(?:ход\w*|фаз\w*|раунд\w*|этап\w*)"
                         r"|\b(?:this|that|the\s+same)\s+(?:turn|phase|round)\b", re.I)


def situation_excepted(sentences: Sequence[str], weights: Mapping[str, float], situation: Collection[str],
                       ruling: Sequence[str] | None = None) -> bool:
    """Whether one of ``sentences`` (the ruling sentences that carry the question) excepts inline a case
    that states a word of the question's ``situation`` no other words of the ruling state («Мой отряд
    сделал адванс … гранаты … Так можно?» against «Отряд из вашей армии (за исключением отрядов, которые
    продвинулись вперед …)»): the told case is the exception, the answer «Нет». ``situation`` maps each
    term to the condition word it stands for (a word counts once, by any of its terms). ``ruling``: all
    the ruling's sentences, the other words looked at (a weaker sentence lifting the exception, «Отряды с
    правилом «Штурм» игнорируют это»); ``sentences`` by default."""
    group = situation.get if isinstance(situation, Mapping) else (lambda t, d=None: t)

    def words(text: str) -> set[object]:
        lems = set(lemmas(text))
        return {group(t, t) for t in weights if t in situation and t in lems}

    for sentence in sentences:
        found = list(_BRACKETED_EXCEPTION.finditer(sentence)) or list(_CLAUSE_EXCEPTION.finditer(sentence))
        if not found:
            continue
        excepted = set().union(*(words(_TIME_FRAME.sub(" ", m.group(1))) for m in found))
        rest = " ".join(x for x in (sentences if ruling is None else ruling) if x != sentence)
        outside = words(rest + " " + _BRACKETED_EXCEPTION.sub(" ", _CLAUSE_EXCEPTION.sub(" ", sentence)))
        if excepted - outside:
            return True
    return False
