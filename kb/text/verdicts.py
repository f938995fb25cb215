"""Reading a verdict off a ruling: «Да», «Нет» or «Да, если …» for a yes/no question — from the
predicate the question asks about, the main clauses that state it (a negation inside a condition never
denies), and a list item's lead-in."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from rulekb.kb.text.analysis import lemmas
from rulekb.kb.text.asked import (
    CLAUSE_SPLIT,
    SUBORDINATE,
    EnglishVocabulary,
    alternative,
    english_predicates,
    pos,
    question_conditions,
    question_predicates,
    question_situation,
)
from rulekb.kb.text.outcomes import asked_outcome, outcome_verdict
from rulekb.kb.text.stated import (
    Groups,
    clause_polarities,
    predicate_verdict,
    skips_participle_phrase,
    stated_predicate,
)
from rulekb.kb.text.verdict_cases import (
    APPLYING,
    PERMITS,
    bound_fails,
    case_included,
    condition_contradicted,
    situation_excepted,
)

__all__ = [
    "answer_verdict",
    "english_predicates",
    "limits_to_one",
    "main_clauses",
    "only_one_denies",
    "predicate_verdict",
    "question_conditions",
    "question_predicates",
    "question_situation",
    "stated_predicate",
    "yes_no_lead",
]

_NEGATIVE = re.compile(
    r"\b(не\s+может|не\s+могут|не\s+можете|не\s+мож[её]т|нельзя|не\s+разреша\w*|запрещ\w*|не\s+должн\w*|не\s+обязан\w*"
    r"|не\s+считается|не\s+считаются|не\s+получа\w*|не\s+действу\w*|не\s+применя\w*|никогда|не\s+име\w+\s+права"
    r"|cannot|can't|must\s+not|may\s+not|never)\b",
    re.I,
)
_POSITIVE = re.compile(
    r"\b(можно|может|могут|можете|мож[её]т|разреша\w*|должн\w*|обязан\w*|считается|считаются|получа\w*|действу\w*"
    r"|can|may|must)\b",
    re.I,
)
#: A condition a permitting sentence states, up to its clause's end or an aside («(если есть)»).
_CONDITION = re.compile(r"\b(?:только\s+)?(?:если|когда|пока|при\s+условии,?\s+что)\s+([^.;:()]{3,120}?)(?:,|\.|;|\s*[()]|$)", re.I)


#: A negated verb in the present tense («не бросают», «не залегают», «не делает»): a ruling that
#: denies what the question names, read only in the sentence that carries the question's words.
_NEGATED_VERB = re.compile(r"\bне\s+[а-яё]+(?:ют|ят|ет|ит|ут|ат)(?:ся)?\b", re.I)
#: A sentence's share of the question's weight must reach this share of the best sentence's for
#: its polarity to decide the verdict.
VERDICT_SHARE = 0.75


def main_clauses(sentence: str) -> str:
    """``sentence`` without its conditions: the part before «, то» of an «если …, то …» and the
    clauses opening with «если», «когда», «который», «чтобы» … («Если подразделение связано боем с
    врагом, которому оно не может навредить, оно может … провалить тест» — it may)."""
    main = re.split(r",\s*то\s+", sentence, maxsplit=1)[-1] if re.search(r"\bесли\b", sentence, re.I) else sentence
    kept = [c for c in CLAUSE_SPLIT.split(main) if c and not SUBORDINATE.match(c)]
    return ", ".join(kept) if kept else sentence


def _polarity(sentence: str, strong_only: bool) -> str | None:
    sentence = main_clauses(sentence)
    if _NEGATIVE.search(sentence) or (not strong_only and _NEGATED_VERB.search(sentence)):
        return "no"
    if _POSITIVE.search(sentence):
        return "yes"
    return None


#: A question asking about more than one («двух лидеров», "two different targets") …
_SEVERAL = re.compile(r"\b(два|двух|две|двум|двумя|оба|обе|обоих|несколько|нескольк\w+|разн\w+|дважды|втор\w+\s+раз|two|both"
                      # doing it again («могут опять включить ранцы», «ещё раз», "again")
                      r"|опять|снова|повторно|ещ[её]\s+раз|several|multiple|different|twice|second\s+time|again)\b"
                      # both of two («и с пистолета и с болтера», «и в движение, и в нападение»)
                      r"|\bи\s+(?:в|во|с|со|из|на)\s+[^,.?!]+?,?\s+и\s+(?:в|во|с|со|из|на)\s", re.I)
#: … and a ruling allowing only one («только один лидер», «по одной и той же цели», "only one").
_ONLY_ONE = re.compile(r"\b(только\s+(?:один|одн\w+)|одн\w+\s+и\s+т\w+\s+же|не\s+более\s+(?:одного|одной)|only\s+one"
                       r"|the\s+same\s+target|more\s+than\s+once|(?:всего|только|лишь)\s+(?:один\s+)?раз\s+(?:за|в)\s|only\s+once|once\s+per)\b"
                       # one of two: «может стрелять либо из пистолетов, либо из всех остальных видов …»
                       r"|\bлибо\s[^.;]+?,\s*либо\s|\beither\s[^.;]+?\bor\b"
                       # «ни один кубик не может быть переброшен более 1 раза»: a denial limiting to once
                       r"|\b(?:не|ни|нельзя)\s[^.;]*?более\s*(?:1|одного)\s*раз", re.I)


#: A second yes/no question joined to the first ("…, and does … stack?", «… и можно ли …»).
_SECOND_QUESTION = re.compile(r"\b(?:and|or)\s+(?:can|could|does|do|is|are|must|may|will)\b"
                              r"|\b(?:и|а)\s+(?:можно|нельзя|может|могут|нужно|должен|должны|обязан\w*)\s+ли\b", re.I)


def limits_to_one(ruling: str) -> bool:
    """Whether ``ruling`` allows only one, or once («всего раз за каждый ход», «либо …, либо …»), in
    words that say so themselves («одного и того же профиля» does not: it names, it does not limit)."""
    return bool(_ONLY_ONE.search(_SAME.sub(" ", ruling)))


_SAME = re.compile(r"\b(?:одн\w+\s+и\s+т\w+\s+же|the\s+same\s+target)\b", re.I)


def only_one_denies(question: str, ruling: str) -> bool:
    """A question asking whether several may do something, answered by a ruling allowing only one
    (not a question asking two things: its other half may be answered «Да»)."""
    return bool(_SEVERAL.search(question) and _ONLY_ONE.search(ruling) and not _SECOND_QUESTION.search(question))


def yes_no_lead(ruling: str, lang: str = "ru", weights: dict[str, float] | None = None,
                question: str | None = None, english: EnglishVocabulary | None = None,
                situation: Collection[str] | None = None, synonyms: Groups = ()) -> str | None:
    """«Да», «Нет» or «Да, если …» read off a ruling; ``None`` when no sentence permits or forbids.

    Without ``weights`` the first sentence that permits or forbids decides. With the question's term
    ``weights`` the sentence that carries most of the question's words decides (a ruling often
    permits something else first: «могут стрелять … Монстры никогда не залегают»), and a negated
    verb there («не бросают») counts as a denial. An English question (``lang="en"``) is read through
    ``english``, the build's English vocabulary (:func:`english_predicates`), against the Russian ruling.
    ``situation``: the terms standing for the question's situation and conditions
    (:func:`question_situation`), each mapped to its word: a list item stating one of them that no
    other sentence states, under a lead-in excepting its items («за исключением случаев, когда …:»), denies.
    The case the question tells decides first (:mod:`rulekb.kb.text.verdict_cases`): a distance it gives
    that breaks the ruling's bound denies; a case the ruling includes inline answers a question asking
    whether the rule applies («работает?») «Да»."""
    sentences = [s for s in re.split(r"(?<=[.!?;])\s+|\s+(?=•)", ruling) if s.strip()]
    if question and weights and bound_fails(sentences, question, weights):
        return "No." if lang == "en" else "Нет."  # «… в пределах 12 дюймов» for a target 18 inches away
    outcome = outcome_verdict(ruling, question, weights) if question and weights and lang != "en" else None
    if outcome is not None:
        return "Да." if outcome == "yes" else "Нет."  # «… это всегда считается автоматическим провалом» for «пройден?»
    if question and weights and lang != "en" and not question_predicates(question, True) and asked_outcome(question) is not None:
        return None  # «Это автоматический успех?»: only a ruling stating an outcome answers; «Кубик нельзя перебросить …» is no «Нет»
    lead = _read_lead(ruling, lang, weights, question, english, situation, synonyms)
    if lead is not None and lead.startswith("Да, если ") and weights and question and question_situation(question) and (
            not any(weights.get(t, 0.0) > 0 for t in lemmas(lead[len("Да, если "):]))):
        # the question tells its own case («чардж после дипстрайка»), the condition shares no word with
        # it («Да, если на поле боя есть подходящие юниты …»): a permission for another case
        return None
    if lead is not None and lead.startswith("Да, если ") and question and condition_contradicted(lead[len("Да, если "):], question):
        return None  # «Да, если живо не меньше 25% моделей …» for a unit with «меньше 25% моделей»
    asked: tuple[str, ...] = ()
    if question:
        asked = question_predicates(question) if lang != "en" else english_predicates(question, english or ())
    if lead is None and question and weights and set(asked) & APPLYING and case_included(sentences, weights):
        return "Yes." if lang == "en" else "Да."  # «теряет рану (включая … смертельных ранений)» for «от морталов работает?»
    return lead


def _read_lead(ruling: str, lang: str, weights: dict[str, float] | None, question: str | None,
               english: EnglishVocabulary | None, situation: Collection[str] | None,
               synonyms: Groups = ()) -> str | None:
    """The lead :func:`yes_no_lead` reads off the predicate and the sentence carrying the question
    (the predicate stated by a verb of its group among ``synonyms`` too)."""
    unstated = stated = False
    predicates: tuple[str, ...] = ()
    if question and (lang != "en" or english):
        predicates = question_predicates(question) if lang != "en" else english_predicates(question, english or ())
        verdict = predicate_verdict(ruling, predicates, synonyms)
        if verdict is not None and verdict[0] == "no":
            return "No." if lang == "en" else "Нет."  # the ruling denies what was asked («Монстры никогда не залегают»)
        if verdict is None and lang != "en" and alternative(question) is not None:
            # «Это автоматический успех или всё равно сравниваем …?»: only the ruling stating the first
            # alternative answers it; a denial of something else («Кубик нельзя перебросить …») is no «Нет»
            return None
        # the question asks about something no main clause of the ruling states: a permission of
        # something else («затем может развернуться» for «его убили?») is no «Да»
        unstated = bool(predicates) and verdict is None
        stated = verdict is not None  # a main clause states the asked predicate as permitted
    lead, sentence = _sentence_lead(ruling, lang, weights, question, situation)
    if lead is not None and lead.startswith(("Нет", "No")) and stated and _denies_else(sentence, predicates, synonyms):
        # «… по ней попадают автоматически, а она не может наносить удары» for «по ней попадают автоматически?»
        lead = _yes(sentence, lang)
    if lead is not None and lead.startswith(("Да", "Yes")) and weights and _case_excepted(sentence, weights):
        return "No." if lang == "en" else "Нет."  # «могут прибыть …, за исключением первого раунда» for «в первом раунде»
    if lead is not None and lead.startswith(("Да", "Yes")):
        if unstated:
            return None
        # «… этот маркер цели считается спорным» states a case, it permits nothing asked: a «Да» read off
        # a sentence needs a permission there, or the asked predicate stated there («считается
        # автоматическим провалом» is no «Да» for «пройден?», whatever another sentence states)
        here = stated and predicate_verdict(sentence, predicates, synonyms) is not None
        if question and not here and not _PERMITS.search(main_clauses(sentence)):
            return None
    return lead


def _denies_else(sentence: str, predicates: Sequence[str], synonyms: Groups) -> bool:
    """Whether the deciding ``sentence`` states the asked verb by its lemma in a main clause that does
    not deny it, and no clause of it denies the verb: its denial is of something else («по ней попадают
    автоматически, а она не может наносить удары» — the hits are automatic)."""
    verbs = [p for p in predicates if pos(p) == "INFN"]  # an adjective of the question's noun («неуязвимый») asks nothing
    if not sentence or not verbs or skips_participle_phrase(sentence):
        return False  # a clause not read may deny the verb: only a sentence read whole turns its «Нет»
    polarities = clause_polarities(sentence, verbs, synonyms)
    # the verb itself, not a word of its stem or group, and no clause denying it
    return any(score >= 1.0 for score, _ in polarities) and all(p == "yes" for _, p in polarities)


#: Words that permit: a «Да» the ruling states when the question's own predicate is not found in it.
_PERMITS = PERMITS


#: An exception a permitting sentence states inline, up to its clause's end («…, за исключением первого
#: раунда сражения», «кроме …», an English answer's "except Leadership and its armour save").
_INLINE_EXCEPTION = re.compile(r"\b(?:за\s+исключением|кроме(?!\s+(?:того|этого|прочего)\b)|except(?:\s+for)?|other\s+than|apart\s+from)\s+([^.;:,()]{3,80})",
                               re.I)


def _case_excepted(sentence: str, weights: Mapping[str, float]) -> bool:
    """Whether the permitting ``sentence`` excepts inline a case the question names: its exception
    carries a question's term that the rest of the sentence does not («могут прибыть … за
    исключением первого раунда сражения» for «… в первом раунде»)."""
    match = _INLINE_EXCEPTION.search(sentence)
    if match is None or not _PERMITS.search(main_clauses(sentence[:match.start()])):
        return False
    rest = set(lemmas(sentence[:match.start()] + " " + sentence[match.end():]))
    excepted = [t for t in lemmas(match.group(1)) if len(t) > 2]
    asked = [t for t in excepted if weights.get(t, 0.0) > 0]
    # the question names the case itself (most of its words), not only the word it is a case of
    return 2 * len(asked) >= len(excepted) and any(t not in rest for t in asked)


def _sentence_lead(ruling: str, lang: str, weights: dict[str, float] | None, question: str | None,
                   situation: Collection[str] | None) -> tuple[str | None, str]:
    """The lead read off the sentence that carries most of the question's words (see :func:`yes_no_lead`)."""
    sentences = [s for s in re.split(r"(?<=[.!?;:])\s+|\s+(?=•)", ruling) if s.strip()]
    order = list(range(len(sentences)))
    seen: list[set[str]] = []
    if weights:
        seen = [set(lemmas(s)) for s in sentences]
        carried = [sum(w for t, w in weights.items() if t in lems) for lems in seen]
        # an English question's situation is read through the Russian words it stands for (``situation``)
        conditions = (set(question_conditions(question)) if lang != "en" else set(situation or ())) if question else set()
        on_condition = [sum(w for t, w in weights.items() if t in conditions and t in lems) for lems in seen]
        if max(on_condition, default=0.0) > 0:
            # the question's condition decides: the sentences stating it (an exception, a case of a list) first
            carried = [c + 2 * k for c, k in zip(carried, on_condition, strict=True)]
        best = max(carried, default=0.0)
        if best > 0:
            order = sorted((i for i in order if carried[i] >= VERDICT_SHARE * best), key=lambda i: -carried[i])
            order += [i for i in range(len(sentences)) if i not in order]
    if weights and situation and _excepted(sentences, seen, weights, situation):
        return ("No." if lang == "en" else "Нет."), ""
    if weights and situation and order and situation_excepted(
            [sentences[i] for i in order if carried[i] >= VERDICT_SHARE * best], weights, situation, sentences):
        return ("No." if lang == "en" else "Нет."), ""  # «(за исключением отрядов, которые продвинулись вперед …)»
    for position, i in enumerate(order):
        sentence = sentences[i]
        polarity = _polarity(sentence, strong_only=not weights or position > 0)
        if polarity is None and sentence.lstrip().startswith("•"):
            polarity = _list_polarity(sentences, i)  # an item is a case of what its list's lead-in rules
        if polarity == "no":
            return ("No." if lang == "en" else "Нет."), sentence
        if polarity == "yes":
            return _yes(sentence, lang), sentence
    return None, ""


def _list_polarity(sentences: Sequence[str], i: int) -> str | None:
    """The polarity of the lead-in of the list item ``sentences[i]``: the sentence announcing the
    list («… по следующим причинам:») and the one before it («Некоторым отрядам запрещено …»)."""
    k = i - 1
    while k >= 0 and sentences[k].lstrip().startswith("•"):
        k -= 1
    for j in (k, k - 1):
        if j >= 0 and not sentences[j].lstrip().startswith("•"):
            polarity = _polarity(sentences[j], strong_only=True)
            if polarity is not None:
                return polarity
    return None


#: A list's lead-in that excepts its items from what it permits («…, за исключением случаев, когда
#: выполняется любое из следующих условий:», «кроме», "unless", "except").
_EXCEPTION = re.compile(r"\b(за\s+исключением|исключени\w+|кроме(?:\s+случаев)?|если\s+только\s+не|unless|except)\b", re.I)


def _excepts(sentences: Sequence[str], i: int) -> bool:
    """Whether the list item ``sentences[i]`` is a case where what the list rules is not allowed: under
    a lead-in that excepts its items from what it permits, or under one that forbids («Некоторым
    отрядам запрещено объявлять нападение. Это возможно по следующим причинам: • …»)."""
    k = i - 1
    while k >= 0 and sentences[k].lstrip().startswith("•"):
        k -= 1
    if k < 0 or not sentences[k].rstrip().endswith(":"):
        return False
    if _EXCEPTION.search(sentences[k]):
        return True
    return not _EXCEPTION.search(sentences[k - 1] if k > 0 else "") and _list_polarity(sentences, i) == "no"


def _excepted(sentences: Sequence[str], seen: Sequence[set[str]], weights: dict[str, float],
              conditions: Collection[str]) -> bool:
    """Whether an item of a list its lead-in excepts («…, за исключением случаев, когда выполняется
    любое из следующих условий: • Эта единица … отступила в этом ходу») states a condition of the
    question that no sentence outside the list states: the question's situation is the exception.
    With ``conditions`` a mapping (term → the condition word it stands for) a word counts once."""
    group = conditions.get if isinstance(conditions, Mapping) else (lambda t, d=None: t)

    def words(lemmas: set[str]) -> set[Any]:
        return {group(t, t) for t in weights if t in conditions and t in lemmas}

    outside = set().union(*(words(seen[j]) for j, x in enumerate(sentences) if not x.lstrip().startswith("•")))
    return any(words(seen[i]) - outside for i, x in enumerate(sentences)
               if x.lstrip().startswith("•") and _excepts(sentences, i))


#: A condition opening its sentence and running, commas and all, up to the main clause's subject
#: («Если отряд, продвинувшийся вперёд в этом ходу, содержит модели …, он всё ещё может стрелять»).
_OPENING_CONDITION = re.compile(r"^\s*(?:если|когда)\s+([^.;:()]{3,160}?),\s+(?:то\s+)?(?:он|она|оно|они|вы|его|её|их)\s", re.I)


def _yes(sentence: str, lang: str) -> str:
    """«Да» or «Да, если …» (the condition the permitting sentence states in three or more words)."""
    condition = _OPENING_CONDITION.search(sentence) or _CONDITION.search(sentence)
    if condition is not None and len(condition.group(1).split()) >= 3:
        return "Yes, if the condition below holds." if lang == "en" else f"Да, если {condition.group(1).strip()}."
    return "Yes." if lang == "en" else "Да."


#: Words restricting what a sentence states: a «Нет» is no contradiction of it.
_RESTRICTS = re.compile(r"\b(только|лишь|нужно|надо|необходимо|должн\w*|обязан\w*|only|must|need)\b", re.I)
#: The verdict an answer opens with («Нет: …», «Да, …», "No. …").
_OPENING_VERDICT = re.compile(r"^\s*(да|нет|yes|no)\b[\s.,:;—–-]*", re.I)


def answer_verdict(answer: str, question: str, lang: str = "ru", english: EnglishVocabulary | None = None) -> str:
    """``answer`` (a FAQ entry's, opening with its verdict) as it answers ``question``: its opening
    verdict answers the entry's own question, and when the question asks the opposite («Могу я сделать
    им обычное движение?» for an entry answering «Нужно ли делать фолбэк …?» «Нет: … он может сделать
    обычное перемещение …»), the rest of the answer states the question's predicate, by its own lemma,
    with the other polarity: the card leads with that verdict instead, the answer's words unchanged.
    Otherwise ``answer`` as written."""
    opening = _OPENING_VERDICT.match(answer)
    if opening is None:
        return answer
    predicates = question_predicates(question) if lang != "en" else english_predicates(question, english or ())
    rest = answer[opening.end():]
    found = stated_predicate(rest, predicates)
    if found is None or found[0] < 1.0:
        return answer
    written = "no" if opening.group(1).lower() in ("нет", "no") else "yes"
    if found[1] == written:
        return answer
    if found[1] == "yes" and (not _PERMITS.search(found[2]) or _RESTRICTS.search(found[2])):
        return answer  # «Нужно видеть тело цели», «используют только раз за ход» restrict, they do not permit
    verdict = ("No." if found[1] == "no" else "Yes.") if lang == "en" else ("Нет." if found[1] == "no" else "Да.")
    return f"{verdict} {rest[:1].upper()}{rest[1:]}"
