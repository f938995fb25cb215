"""What a yes/no question asks: its predicate (the verbs and the adjective a linking verb asks
about, outside its conditions and modals), the conditions it states and the situation it tells, in
Russian and — through the English vocabulary the build ships — in English. Read by
:mod:`rulekb.kb.text.verdicts`."""

from __future__ import annotations

import re
from functools import lru_cache

from rulekb.kb.text.analysis import lemma, tokens

__all__ = ["CLAUSE_SPLIT", "MODALS", "SUBORDINATE", "WORD", "EnglishVocabulary", "alternative", "asking_sentence", "english_predicates",
           "pos", "question_conditions",
           "question_predicates", "question_situation"]

#: Modal and linking words of a question: they ask, they are not what is asked.
_MODALS = frozenset({"мочь", "можно", "нельзя", "должный", "обязать", "обязан", "нужно", "надо", "следовать",
                     "быть", "являться", "получаться", "разрешаться", "позволять", "иметь", "стоить",
                     # words judging what was told («разрешено ли это?», «так правильно?»)
                     "разрешить", "разрешенный", "разрешено", "допустимый", "допустимо", "законный", "законно",
                     "правильный", "правильно", "верный", "верно", "нормальный", "нормально"})
MODALS = _MODALS
#: A clause of the question or the ruling that states a condition or a purpose, not the verdict.
SUBORDINATE = re.compile(r"^(?:и\s+|а\s+|но\s+)?(?:если|когда|пока|котор\w*|чтобы|дабы|после\s+того|раз|где|при\s+условии"
                          r"|даже\s+если|в\s+случае)\b", re.I)
CLAUSE_SPLIT = re.compile(r"\s*(?:[,;:()]|\s[—–-]\s)\s*")
WORD = re.compile(r"[а-яё]+", re.I)
_ASIDES = re.compile(r"«[^»]*»|\([^)]*\)|\[[^\]]*\]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def asking_sentence(text: str) -> str:
    """The last sentence of ``text`` that asks («?»), else its last: a situation is often told before
    the question («… Могу я специально провалить тест?»)."""
    return _asking(_sentences(text))


def _sentences(text: str) -> list[str]:
    return [x for x in _SENTENCE_END.split(text) if x.strip()]


def _asking(sentences: list[str]) -> str:
    return next((x for x in reversed(sentences) if "?" in x), sentences[-1] if sentences else "")


def _told(question: str) -> tuple[str, list[str], str]:
    """``question`` folded (lower case, ё = е, names in «» and asides removed), its sentences, and
    the one that asks."""
    text = _ASIDES.sub(" ", question.lower().replace("ё", "е"))
    sentences = _sentences(text)
    return text, sentences, _asking(sentences)


@lru_cache(maxsize=20_000)
def pos(word: str) -> str | None:
    from rulekb.corpus.morph import morph

    return str(morph().parse(word)[0].tag.POS or "") or None


@lru_cache(maxsize=2048)
def question_predicates(question: str, asking_only: bool = False) -> tuple[str, ...]:
    """The lemmas of what a yes/no question asks about: its verbs, infinitives and short forms
    («залечь», «замедляться», «провалить»), and the adjective a linking verb asks about («считается
    ли … видимым»), outside its conditions («если нападает», «чтобы выйти») and its modals — those
    of the sentence that asks, else (not ``asking_only``) of the situation told before («…
    провалил баттлшок … Можно?»)."""
    text, _, asking = _told(question)  # the sentence that asks, not the situation told before it
    first = alternative(question)
    if first is not None:
        return _predicates(first)  # the first alternative is what is asked; none for a nominal one («это успех»)
    return _predicates(asking) or (_predicates(text) if asking != text and not asking_only else ())


#: «или» opening a second alternative («Это автоматический успех или всё равно сравниваем …?»), not «или нет».
_OR = re.compile(r"\s*,?\s+или\s+(?!нет\b)")


@lru_cache(maxsize=2048)
def alternative(question: str) -> str | None:
    """The first alternative of an alternative question — the one asked about («Это автоматический успех
    или всё равно сравниваем с модифицированной стойкостью?» → «это автоматический успех»): the sentence
    that asks has no «ли» before its «или», and a finite verb of its own follows it (or «всё равно», «же»,
    «всё-таки»); two objects of one verb («из пистолета или из болтера») are one question. ``None`` for
    any other question."""
    asking = _told(question)[2]
    for found in _OR.finditer(asking):
        if re.search(r"\bли\b", asking[:found.start()]):
            return None
        clause = _CLAUSE_START.split(asking[:found.start()])[-1].strip()
        if SUBORDINATE.match(clause) or re.search(r"\bкотор", clause):
            continue  # «Если модель стреляла или двигалась, …», «Отряд, который стрелял или двигался, …»: a condition's «или»
        after = _CLAUSE_START.split(asking[found.end():])[0]  # the second alternative's verb is in the same clause
        if re.match(r"(?:все\s+равно|же|все-таки|всетаки)\b", after) or any(
                pos(w) == "VERB" and lemma(w) not in _MODALS for w in WORD.findall(after)):
            return asking[:found.start()]
    return None


#: Where a clause of the asking sentence opens or ends: a comma, a bracket, a dash.
_CLAUSE_START = re.compile(r"[,;:()]|\s[—–-]\s")


@lru_cache(maxsize=2048)
def question_conditions(question: str) -> tuple[str, ...]:
    """The content lemmas of the conditions a yes/no question states in its asking sentence
    («… отряд, который бежал в фазу стрельбы, …», «…, если её подставка свисает за край»): a ruling
    sentence carrying them is the exception or case that decides."""
    asking = _told(question)[2]
    out: list[str] = []
    for clause in CLAUSE_SPLIT.split(asking):
        if not SUBORDINATE.match(clause):
            found = re.search(r"\b(?:если|когда|после|пока)\b(.*)", clause)
            if found is None:
                continue
            clause = found.group(1)
        _content(clause, out)
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=2048)
def question_situation(question: str) -> tuple[str, ...]:
    """The content lemmas of the situation a question tells before its asking sentence («Мой отряд в
    этом ходу сделал фолбэк из рукопашки. Могу я … объявить им чардж?»), then its conditions
    (:func:`question_conditions`): the case the ruling is asked about."""
    _, asked, asking = _told(question)
    out: list[str] = []
    if asking in asked:
        _content(" ".join(asked[: asked.index(asking)]), out)
    told = _TOLD_BEFORE_DASH.split(asking)
    if len(told) > 1:  # «Отряд … палил из тяжёлого болтера навскидку — может он после этого …?»
        _content(" ".join(told[:-1]), out)
    return tuple(dict.fromkeys([*out, *question_conditions(question)]))


#: A situation told in the asking sentence itself, before a dash and the question after it.
_TOLD_BEFORE_DASH = re.compile(r"\s[—–-]\s(?=[^—–]*\?\s*$)")


def _content(clause: str, out: list[str]) -> None:
    """Appends the lemmas of ``clause``'s nouns, verbs, adjectives and participles to ``out``."""
    for word in WORD.findall(clause):
        if pos(word) in ("NOUN", "VERB", "INFN", "ADJF", "ADJS", "PRTF", "PRTS", "GRND"):
            lem = lemma(word)
            if lem not in _MODALS and lem != "который":
                out.append(lem)


#: A word asked about with «ли» («срабатывают ли», «может ли»): the verbs told before it in the same
#: sentence («… снял лишние модели срабатывают ли на них абилки …») are the situation, not the predicate.
_ASKED_WITH_LI = re.compile(r"[а-яё]+\s+ли\b")
#: «ли» pointing back at what was told («… ли это», «… ли так», «… ли такое»).
_POINTING_BACK = re.compile(r"\s+(?:это|так|такое)\b")


def _predicates(text: str) -> tuple[str, ...]:
    out: list[str] = []
    asked = _ASKED_WITH_LI.search(text)
    if (asked is not None and pos(asked.group().split()[0]) in ("VERB", "ADJS", "PRTS", "PRED")
            and lemma(asked.group().split()[0]) not in _MODALS and not _POINTING_BACK.match(text, asked.end())):
        # «разрешено ли это?», «допустимо ли так?» judge the verbs told before them: no cut
        text = text[asked.start():]
    for clause in CLAUSE_SPLIT.split(text):
        if not clause or SUBORDINATE.match(clause):
            continue
        clause = re.split(r"\b(?:если|когда|чтобы|пока)\b", clause)[0]  # «… замедляется если нападает»
        words = WORD.findall(clause)
        linking = False
        for word in words:
            if word in ("ли", "не", "же", "бы"):
                continue
            part = pos(word)
            lem = lemma(word)
            if lem in _MODALS:
                continue
            if part in ("VERB", "INFN", "ADJS", "PRTS") or (linking and part in ("ADJF", "PRTF")):
                out.append(lem)
                linking = lem in ("считаться", "являться", "становиться", "оставаться")
    return tuple(dict.fromkeys(out))


#: Words of an English yes/no question that ask (modals, auxiliaries), not what is asked.
_ENGLISH_MODALS = frozenset({"can", "could", "may", "might", "must", "need", "needs", "have", "has", "do", "does", "did",
                             "is", "are", "was", "be", "been", "get", "gets", "allowed", "able", "still", "should",
                             "will", "would", "let", "lets", "really", "actually", "also", "ever"})
_ENGLISH_ADJECTIVE = re.compile(r"(?:ible|able|ed|en|ive)$")
#: Parts of speech of a Russian predicate (see :func:`question_predicates`).
_PREDICATE_POS = ("VERB", "INFN", "ADJF", "ADJS", "PRTF", "PRTS")


#: The English vocabulary a build ships: English word → the Russian words of the texts, as printed
#: (``kb/data/english.toml``; :attr:`rulekb.kb.text.vocabulary.Vocabulary.english`).
EnglishVocabulary = tuple[tuple[str, tuple[str, ...]], ...]


@lru_cache(maxsize=4)
def _english_predicate_table(english: EnglishVocabulary) -> dict[str, tuple[str, ...]]:
    """English token → the lemmas of the verbs and adjectives among its Russian words ("shoot" →
    «стрелять», not «стрельба»; "visible" → «видимый»), read off the words as printed."""
    table: dict[str, list[str]] = {}
    for word, russian in english:
        keys = [t.text for t in tokens(word)]
        if len(keys) != 1:
            continue
        # an adjective only for an English adjective or participle ("visible", "locked"): "close" of
        # "close combat" is no predicate («ближний»)
        kept = _PREDICATE_POS if _ENGLISH_ADJECTIVE.search(word) else ("VERB", "INFN")
        for ru in russian:
            if ru.isalpha() and " " not in ru and pos(ru) in kept:
                table.setdefault(keys[0], []).append(lemma(ru))
    return {key: tuple(dict.fromkeys(values)) for key, values in table.items()}


def english_predicates(question: str, english: EnglishVocabulary) -> tuple[str, ...]:
    """What an English yes/no question asks about, as the lemmas of the Russian words a ruling prints:
    the words of its asking sentence, outside its conditions ("if …", "when …") and modals, read
    through the English vocabulary the build ships, keeping the verbs and adjectives they stand for
    ("shoot" → «стрелять», "visible" → «видимый»; "phase" names no predicate)."""
    text = re.sub(r'"[^"]*"|«[^»]*»|\([^)]*\)', " ", question.lower())
    asking = asking_sentence(text)
    asking = re.split(r"\b(?:if|when|while|after|before|unless)\b", asking)[0] or asking
    table = _english_predicate_table(english)
    out: list[str] = []
    for word in re.findall(r"[a-z]+", asking):
        if word not in _ENGLISH_MODALS:
            out.extend(r for token in tokens(word) for r in table.get(token.text, ()))
    return tuple(dict.fromkeys(out))

