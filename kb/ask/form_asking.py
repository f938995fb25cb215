"""The words of a question that ask: its question words (not an indefinite pronoun «что-то» nor a
comparison «как обычно», «дальше, чем»), and whether the sentence that asks is a yes/no question once
its conditions, relative clauses and the situation told before it are set aside («Когда отряд вышел
из боя, он может стрелять?»). Read by :func:`rulekb.kb.ask.form.question_form`."""

from __future__ import annotations

import re

from rulekb.kb.text.analysis import lemma
from rulekb.kb.text.asked import CLAUSE_SPLIT, SUBORDINATE, WORD, asking_sentence, pos

__all__ = ["WH_RU", "asking_words", "infinitive_asks", "main_clauses_ask"]

WH_RU = re.compile(
    r"\b(?:сколько|какой|какая|какое|какие|какую|какого|какому|каким|каком|каких|какими|каков\w*|когда|где|куда|откуда|кто|кого|кому|чем|что|чего"
    r"|зачем|почему|как|насколько|чей|чья|чьи|чью|чье|чьего|чьей|чьих)\b",
    re.IGNORECASE,
)


#: Question words that ask nothing: an indefinite pronoun («что-то», «где-нибудь», «кое-как»), a
#: comparison («как обычно», «так же, как», «как и», «дальше, чем»), "as", "somehow".
_NOT_ASKING = re.compile(
    r"\b(?:кое-)?(?:что|как|где|куда|когда|кто|кого|кому|чем|чей|как\w+|почему|зачем|откуда)-(?:то|нибудь|либо)\b|\bкое-\w+"
    r"|(?:\b(?:так|такой|такая|такое|такие|такого|таким|тем|же)\s*,?\s*|(?<=\S\s)\b)как\s+(?:обычно|и|будто|только|минимум|максимум|раз|бы"
    r"|правило|если\s+бы|описано|указано|сказано|написано)\b|\bтак(?:\s+)?же\s*,?\s+как\b"
    r"|\b[а-яё]+(?:ше|ее|же)\s*,?\s*чем\b",
    re.IGNORECASE,
)


def asking_words(text: str) -> str:
    """``text`` lower-cased without the question words that ask nothing (:data:`_NOT_ASKING`)."""
    return _NOT_ASKING.sub(" ", text.lower())



#: An English clause stating a condition or a time ("When my unit falls back, …", "if …").
_EN_SUBORDINATE = re.compile(r"^(?:and\s+|but\s+)?(?:if|when|whenever|while|after|before|unless|once|since|because)\b"
                             # "when can I …" asks, it states no time
                             r"(?!\s+(?:can|could|do|does|did|is|are|must|may|should|will|would|has|have)\b)",
                             re.IGNORECASE)
_WH_EN = re.compile(r"\b(?:what|how|which|when|where|who|why|whose|whom)\b", re.IGNORECASE)


def main_clauses_ask(text: str) -> bool:
    """Whether the sentence that asks is a yes/no question once the clauses stating its conditions and
    relative clauses are set aside («Когда отряд вышел из боя, он может стрелять?», «… отряд, который
    стоит там, где враг, может стрелять?», "When my unit falls back, can it shoot?"), or the sentences
    telling the situation before it («Отряд стоит там, где враг. Он может стрелять?»): it ends with «?»
    and its main clauses hold no question word; a situation told instead of a condition asks nothing
    itself (no «?», no question word in its main clauses) and the question after it states a predicate."""
    text = _QUOTED.sub(" «» ", text)  # a rule's name quoted («когда модель уничтожена») asks nothing
    told = asking_sentence(text).strip()
    if not told.endswith("?"):
        return False
    main, condition = _main_of(told, asking=True)
    if not main or _subordinate(main[-1]):
        # nothing asks, or the clause holding «?» is a condition or a relative clause: the question word
        # opening the sentence asks («Где можно ставить маркер, если там руины?», "When can I …, if …?")
        return False
    if condition:
        return not _asks_wh(main)
    others = [x for x in re.split(r"(?<=[.!?])\s+", text.strip()) if x.strip() and x.strip() != told]
    if not others or any("?" in x for x in others):
        return False  # nothing set aside, or a second question («… Где его можно поставить? А с третьего раунда?»)
    # a question word after the first clause of a told sentence joins a clause to a verb («Соперник
    # говорит, что это уже был мой переброс», «стою там, где …»): it asks nothing
    before = [c for x in others for i, c in enumerate(_main_of(x, asking=False)[0]) if i == 0 or not _WH_OPENING.match(c)]
    # a question after a told situation states a predicate, it is no bare noun («… Дальность консолидации?»)
    return not _asks_wh(before + main) and _states_predicate(main[-1])


#: A quoted name (a rule's, an ability's): its words are the name's, not the question's.
#: An ASCII «"» after a digit is an inch mark («в 9" от отряда»), it quotes nothing.
_QUOTED = re.compile(r"«[^»]*»|(?<!\d)\"[^\"]*(?<!\d)\"")
#: A clause opening with a question word («что это уже был мой переброс», «где стоит враг»).
_WH_OPENING = re.compile(r"^\s*(?:и\s+|а\s+)?" + WH_RU.pattern, re.IGNORECASE)


def _main_of(sentence: str, asking: bool) -> tuple[list[str], bool]:
    """The main clauses of ``sentence`` (its conditions and relative clauses set aside; the clause
    holding «?» of the ``asking`` sentence kept whatever it opens with: «…: когда можно кидать?») and
    whether a clause was set aside."""
    clauses = [c for c in CLAUSE_SPLIT.split(asking_words(sentence)) if c.strip(" ?.")]
    last = clauses[-1:] if asking else []
    kept = [c for c in clauses[:len(clauses) - len(last)] if not SUBORDINATE.match(c) and not _EN_SUBORDINATE.match(c)]
    return kept + last, len(kept) + len(last) < len(clauses)


def _subordinate(clause: str) -> bool:
    clause = clause.strip()
    return bool(SUBORDINATE.match(clause) or _EN_SUBORDINATE.match(clause) or re.search(r"\bкотор", clause))


def _asks_wh(clauses: list[str]) -> bool:
    joined = " ".join(clauses)
    return bool(WH_RU.search(joined) or _WH_EN.search(joined))


#: Words that ask for a verdict without a verb («можно?», «нельзя?», "can it?").
_PREDICATIVE = re.compile(r"\b(?:можно|нельзя|нужно|надо|обязательно|должен|должна|должны|должно|can|could|does|do|did|is|are"
                          r"|must|may|should|will|would|has|have)\b", re.IGNORECASE)


def _states_predicate(clause: str) -> bool:
    """Whether the clause that asks states a predicate — a verb, a short form, a modal — as a yes/no
    question does («…, он может стрелять?»), not a bare noun («Дальность консолидации?»)."""
    return bool(_PREDICATIVE.search(clause)) or any(pos(w) in ("VERB", "INFN", "ADJS", "PRTS") for w in WORD.findall(clause))


def infinitive_asks(text: str) -> bool:
    """Whether ``text`` is a terse query opening with an infinitive and holding no question word
    («закончить ход на маркере цели», «стрелять после рывка?»): it asks whether that may be done, as
    «можно …?» does."""
    words = WORD.findall(text.lower())
    return (bool(words) and pos(words[0]) == "INFN" and lemma(words[0]) not in _FINDING_OUT
            and not WH_RU.search(asking_words(text)))


#: Infinitives of finding out or computing: «Определить видимость через руины» asks how, not whether.
_FINDING_OUT = frozenset({"определить", "определять", "рассчитать", "рассчитывать", "посчитать", "считать", "подсчитать",
                          "подсчитывать", "вычислить", "вычислять", "измерить", "измерять", "узнать", "узнавать",
                          "проверить", "проверять", "понять", "понимать", "найти", "находить"})
