"""Where a ruling states what a yes/no question asks (its predicate,
:func:`rulekb.kb.text.asked.question_predicates`): the main clause naming the predicate's verb — by its
lemma, its stem, another light verb, or a word of its synonym group (``kb/data/synonyms.toml``: the
player's «поставить» is the book's «устанавливать») — and whether that clause denies it. Read by
:mod:`rulekb.kb.text.verdicts` and :mod:`rulekb.kb.ask.card_verdict`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rulekb.kb.text.analysis import lemma
from rulekb.kb.text.asked import CLAUSE_SPLIT, SUBORDINATE, WORD, pos
from rulekb.kb.text.verdict_cases import APPLYING

__all__ = ["LIGHT_VERBS", "SENTENCE_END", "Groups", "clause_polarities", "predicate_verdict", "skips_participle_phrase",
           "stated_predicate"]

#: Negations that limit a measure («не более 6"», «не только») rather than deny.
_LIMITING = re.compile(r"\bне\s+(?:более|менее|больше|меньше|ближе|дальше|только|раньше|позднее|позже)\b", re.I)
#: An example or a pointer in brackets («(например, способность «Кровавый всплеск» …, срабатывающая после
#: уничтожения …)», «(см. стр. 16)»): it illustrates, it rules nothing.
_EXAMPLE = re.compile(r"\(\s*(?:(?:например|смотрите|see|for\s+example)\b|напр\.|см\.|e\.g\.)[^()]*(?:\([^()]*\)[^()]*)*\)", re.I)
#: A sentence's end, not an abbreviation's dot («(см. стр. 12)», «(напр. …)», "e.g.").
SENTENCE_END = re.compile(r"(?<![Нн]апр\.)(?<![Сс]м\.)(?<![Сс]тр\.)(?<!e\.g\.)(?<=[.!?;])\s+")
_DENIAL = re.compile(r"\b(?:не|нельзя|никогда|ни)\b", re.I)
#: Verbal prefixes too common for four letters of a stem to be the same word.
_PREFIXES = frozenset({"пере", "пред", "подо", "пода", "разо", "расс", "расп", "прои", "пров", "прим", "прив", "прид",
                       "обес", "обез", "пооб", "вызы", "выпо", "выбр", "выби", "уста", "пост", "пола", "полу"})


#: Verbs that only say an action is done («сделать обычное движение», «совершать … перемещение»): one stands for another.
LIGHT_VERBS = frozenset({"делать", "сделать", "совершать", "совершить", "выполнять", "выполнить", "проводить", "провести",
                         "производить", "произвести"})


def _same_word(token: str, predicate: str) -> float:
    """1 for the predicate's lemma, 0.5 for a word of its stem («залегать» for «залечь»), another
    light verb for a light verb («совершать» for «сделать») or another verb saying a rule applies for
    one (:data:`APPLYING`: «запускаться» for «срабатывать»), else 0."""
    if token == predicate:
        return 1.0
    if (token in LIGHT_VERBS and predicate in LIGHT_VERBS) or (token in APPLYING and predicate in APPLYING):
        return 0.5  # «совершать» for «сделать»; «не запускаются никакие правила» for «срабатывают ли …?»
    common = _common(token, predicate)
    if common >= 5 or (common == 4 and min(len(token), len(predicate)) >= 6 and token[:4] not in _PREFIXES):
        return 0.5
    return 0.0


#: Synonym groups (``kb/data/synonyms.toml`` as the build serves it: :attr:`Vocabulary.groups`).
Groups = tuple[tuple[str, ...], ...]


@lru_cache(maxsize=4)
def _verb_synonyms(groups: Groups) -> dict[str, tuple[str, ...]]:
    """Each verb of a synonym group → the group's other verbs: the nouns of a group («стрельба»,
    «выстрел») name an action, they state no predicate."""
    out: dict[str, list[str]] = {}
    for group in groups:
        verbs = [lemma(w) for w in group if pos(lemma(w)) == "INFN"]
        for verb in verbs:
            out.setdefault(verb, []).extend(v for v in verbs if v != verb)
    return {k: tuple(dict.fromkeys(vs)) for k, vs in out.items() if vs}


@lru_cache(maxsize=20_000)
def _stated_as(token: str, predicate: str, others: tuple[str, ...] = ()) -> float:
    """How well a ruling's ``token`` states ``predicate``: :func:`_same_word`, else 0.5 for one of
    ``others``, the verbs of the predicate's synonym group, or a verb sharing five letters of one's stem
    («устанавливать» for «поставить», through «установить»)."""
    quality = _same_word(token, predicate)
    if quality > 0 or not others:
        return quality
    # a verb, its stem five letters at least: «бросок» shares four with «бросить», it is no verb of «кинуть»
    if pos(token) != "INFN":
        return 0.0
    return 0.5 if any(token == other or _common(token, other) >= _stem_letters(other) for other in others) else 0.0


def _stem_letters(verb: str) -> int:
    """Letters a ruling's verb shares with a synonym to be a form of it: five, seven after a prefix
    («передвигаться» is no form of «передавать»)."""
    return 7 if verb.startswith(_VERB_PREFIXES) else 5


#: Prefixes of four letters or more: five shared letters leave one of the stem.
_VERB_PREFIXES = ("пере", "пред", "обез", "обес", "разо", "расс", "расп")


def _common(a: str, b: str) -> int:
    """The length of the prefix ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def predicate_verdict(ruling: str, predicates: Sequence[str], groups: Groups = ()) -> tuple[str, str] | None:
    """``("yes" | "no", sentence)`` of :func:`stated_predicate`, without its score."""
    found = stated_predicate(ruling, predicates, groups)
    return None if found is None else (found[1], found[2])


def stated_predicate(ruling: str, predicates: Sequence[str], groups: Groups = ()) -> tuple[float, str, str] | None:
    """``(score, "yes" | "no", sentence)``: the polarity of the main clause that states the question's
    predicate, or ``None`` when no main clause states it. A clause denies when «не», «нельзя»,
    «никогда» stand before the predicate in it («Монстры никогда не залегают», «не совершайте …
    спасбросок») or the predicate is its negation («считается невидимой» for «видимым»); conditions
    («если …», «которому оно не может навредить») never decide. The score: how much of the predicate
    the clause states (1 a word for its lemma, 0.5 for its stem or another light verb)."""
    best: tuple[float, str, str] | None = None
    for sentence in (x for x in SENTENCE_END.split(ruling) if x.strip()):
        for score, polarity in clause_polarities(sentence, predicates, groups):
            if best is None or score > best[0]:
                best = (score, polarity, sentence)
    return best


def _participle_phrase(words: Sequence[str]) -> bool:
    """Whether a clause after the first is a participle's phrase after its noun («Номера расчёта,
    стреляющие из орудия, …»): it qualifies the noun as «который …» does. A participle before a noun of
    its own and a finite verb («…, атакованная модель не может наносить удары») open a main clause."""
    if not words or pos(words[0]) != "PRTF":
        return False
    return not (len(words) > 1 and pos(words[1]) == "NOUN" and any(pos(w) == "VERB" for w in words[2:]))


def skips_participle_phrase(sentence: str) -> bool:
    """Whether :func:`clause_polarities` sets aside a clause of ``sentence`` as a participle's phrase."""
    return any(n and _participle_phrase(WORD.findall(c)) for n, c in enumerate(CLAUSE_SPLIT.split(_EXAMPLE.sub(" ", sentence))))


def clause_polarities(sentence: str, predicates: Sequence[str], groups: Groups = ()) -> list[tuple[float, str]]:
    """``(score, "yes" | "no")`` of each main clause of ``sentence`` that states one of ``predicates``
    (see :func:`stated_predicate`), in order: a sentence may state the predicate in one clause and deny
    something else in another («по ней попадают автоматически, а она не может наносить удары»)."""
    if not predicates:
        return []
    return list(_clause_polarities(sentence, tuple(predicates), tuple(groups)))


@lru_cache(maxsize=8192)
def _clause_polarities(sentence: str, predicates: tuple[str, ...], groups: Groups) -> tuple[tuple[float, str], ...]:
    """:func:`clause_polarities`, read once per sentence and question: the verdict readers of a card
    read the same sentences of the same passages again."""
    synonyms = _verb_synonyms(groups) if groups else {}
    others = {p: synonyms.get(p, ()) for p in predicates}
    out: list[tuple[float, str]] = []
    sentence = _EXAMPLE.sub(" ", sentence)
    # «если …, то …»: the condition runs up to «то», the verdict is after it
    main = re.split(r",\s*то\s+", sentence, maxsplit=1)[-1] if re.search(r"\bесли\b", sentence, re.I) else sentence
    for n, clause in enumerate(CLAUSE_SPLIT.split(main)):
        if not clause or SUBORDINATE.match(clause):
            continue
        words = WORD.findall(clause)
        if n and _participle_phrase(words):
            continue
        found: dict[str, float] = {}
        first = len(words)
        negated_word = False
        for k, word in enumerate(words):
            lem = lemma(word)
            for p in predicates:
                quality = _stated_as(lem, p, others[p])
                if lem.startswith("не") and lem[2:] == p:  # «невидимой» for «видимым»
                    quality, negated_word = 1.0, True
                if quality > found.get(p, 0.0):
                    found[p] = quality
                    first = min(first, k)
        score = sum(found.values())
        if score <= 0:
            continue
        before = " ".join(words[:first])
        denied = (negated_word or bool(_DENIAL.search(_LIMITING.sub(" ", before)))
                  or bool(re.search(r"\b(?:нельзя|запрещ\w*)\b", clause, re.I)))
        out.append((score, "no" if denied else "yes"))
    return tuple(out)


