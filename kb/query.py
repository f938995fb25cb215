"""Query understanding: what a player's question is about, in which edition, in which words.

A question goes through the same analyzer as the rule texts (:mod:`kb.analysis`), then:

* **cleaning** — control characters and symbols are dropped; anything beyond
  :data:`MAX_QUERY_CHARS` is refused with a :class:`~corpus.errors.QueryError`;
* **edition detection** — «в 6-й», «6-ка», «шестёрке», «6th», «10ed», «десятка», «kill team»,
  «кт»… (:func:`detect_editions`); a dice «шестёрка» («выпала шестёрка») is not an edition;
* **concept detection** — n-grams of lemmas against every rendering, alias, English term and
  abbreviation of the termbase, in any inflection, plus a fuzzy match for slang
  («бэтлшок» ≈ «баттл-шок», «зачарджил» → «чардж») (:class:`ConceptMatcher`);
* **expansion** — English rule words and Russian synonyms that the texts use for the same thing
  (unit = отряд / подразделение / юнит), at a lower weight (``kb/data/synonyms.toml``, :data:`ENGLISH`);
* **paraphrases** — a player's phrase for what the rules say in other words («не докатил
  чардж» → failed charge) names the concept and adds the rule's words;
* **spelling** — an unknown word close to a word of the texts is corrected, and the correction
  is offered as «did you mean» (:class:`Speller`).

The result is a :class:`ParsedQuery`: weighted terms that :mod:`kb.search` turns into Whoosh
query objects directly — user text never reaches a query parser, so quotes, parentheses,
``AND``/``OR``, ``*`` and ``field:value`` are just words.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from corpus.errors import QueryError
from kb.analysis import Term, fold, lemma, tokens

__all__ = [
    "EDITION_CODES",
    "ENGLISH",
    "MAX_QUERY_CHARS",
    "NEAR_EDITIONS",
    "VOCABULARY_FILE",
    "ConceptEntry",
    "ConceptMatch",
    "ConceptMatcher",
    "Paraphrase",
    "ParsedQuery",
    "QueryTerm",
    "QueryWord",
    "Speller",
    "Vocabulary",
    "clean_query",
    "detect_editions",
    "is_comparison",
    "load_concepts",
    "load_vocabulary",
    "parse_query",
    "slang_key",
]

#: A question longer than this is refused (a player's question is a sentence or two).
MAX_QUERY_CHARS = 2000
#: Known edition codes (see :data:`corpus.models.EDITIONS`).
EDITION_CODES = ("10", "6", "7", "kt")
#: Editions whose rules are close relatives (the Kill Team supplement sits on 6th/7th).
NEAR_EDITIONS: dict[str, frozenset[str]] = {
    "6": frozenset({"7", "kt"}),
    "7": frozenset({"6", "kt"}),
    "kt": frozenset({"6", "7"}),
    "10": frozenset(),
}

# --- cleaning ---------------------------------------------------------------------------------


def clean_query(text: str) -> str:
    """NFC, control and symbol characters dropped, whitespace collapsed.

    Raises :class:`QueryError` when the text is longer than :data:`MAX_QUERY_CHARS`.
    """
    if not isinstance(text, str):
        raise QueryError(f"A question must be text, got {type(text).__name__}.")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(
            f"The question is {len(text)} characters long; ask in at most {MAX_QUERY_CHARS} "
            f"(one or two sentences), starting {text[:40]!r}."
        )
    text = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("So", "Sk", "Cs"):
            kept.append(" ")
        else:
            kept.append(char)
    return " ".join("".join(kept).split())


_NEGATED = re.compile(r"\b(can|won|ca|wo)?(\w*)n['’]t\b", re.IGNORECASE)
#: «what's», «it's», «they're»: a pronoun or question word with its verb («model's» stays: the
#: termbase has «Model's eye view», «No man's land»).
_CONTRACTED = re.compile(
    r"\b(what|who|where|when|how|why|that|it|there|here|he|she|i|you|we|they)['’](?:s|re|ll|ve|d|m)\b",
    re.IGNORECASE,
)


def expand_contractions(text: str) -> str:
    """English contractions as words: «can't» → «can not», «what's» → «what» (the analyser would
    keep «what'» and «couldn't» as words no text has)."""

    def negated(match: re.Match[str]) -> str:
        head = (match.group(1) or "") + match.group(2)
        head = {"ca": "can", "wo": "will", "won": "will"}.get(head.lower(), head)
        return f"{head} not"

    return _CONTRACTED.sub(r"\1", _NEGATED.sub(negated, text))


# --- editions ---------------------------------------------------------------------------------

_NUM_SUFFIX = r"(?:-?\s?(?:я|й|ой|ая|ей|ю|ую|ка|ке|ки|ку|кой|кe|th|e|ed|ed\.|ed\b|ая))"
_EDITION_WORD = r"(?:редакц\w*|ред\.?|изд\w*|эдишн\w*|edition|ed\b|версии|версия)"
_EDITION_PATTERNS: dict[str, tuple[str, ...]] = {
    "10": (
        r"\b10\s?(?:th|e|ed|ed\.)(?![\w])",
        r"\b10\s?-?\s?(?:ка|ке|ки|ку|кой)\b",
        r"\b10\s?-?\s?(?:я|й|ой|ая|ей|ую)?\s+" + _EDITION_WORD,
        r"(?:\bв|\bво|\bиз|\bдля|\bпо|\bи|\bот|\bс|\bчем)\s+10\s?-?\s?(?:й|ой|ей|я)\b",
        r"\bдесятк\w*",
        r"\bдесят\w*\s+" + _EDITION_WORD,
        r"\btenth\b",
    ),
    "6": (
        r"\b6\s?(?:th|e|ed|ed\.)(?![\w])",
        r"\b6\s?-?\s?(?:ка|ке|ки|ку|кой)\b",
        r"\b6\s?-?\s?(?:я|й|ой|ая|ей|ую)?\s+" + _EDITION_WORD,
        r"(?:\bв|\bво|\bиз|\bдля|\bпо|\bи|\bот|\bс|\bчем)\s+6\s?-?\s?(?:й|ой|ей|я)\b",
        r"\bшестерк\w*",
        r"\bшест\w*\s+" + _EDITION_WORD,
        r"\bsixth\b",
    ),
    "7": (
        r"\b7\s?(?:th|e|ed|ed\.)(?![\w])",
        r"\b7\s?-?\s?(?:ка|ке|ки|ку|кой)\b",
        r"\b7\s?-?\s?(?:я|й|ой|ая|ей|ую)?\s+" + _EDITION_WORD,
        r"(?:\bв|\bво|\bиз|\bдля|\bпо|\bи|\bот|\bс|\bчем)\s+7\s?-?\s?(?:й|ой|ей|я)\b",
        r"\bсемерк\w*",
        r"\bседьм\w*\s+" + _EDITION_WORD,
        r"\bseventh\b",
    ),
    "kt": (
        r"\bkill\s?-?\s?team\w*",
        r"\bkt\b",
        r"\bкилл?\s?-?\s?тим\w*",
        r"\bкт\b",
    ),
}
_EDITION_RE: dict[str, re.Pattern[str]] = {
    edition: re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
    for edition, patterns in _EDITION_PATTERNS.items()
}
#: «выпала шестёрка», «кинул 6-ку»: a die face, not an edition.
_DICE_CONTEXT = re.compile(
    r"(?:выпа\w*|выкин\w*|выброс\w*|кину\w*|кида\w*|бросил\w*|натурал\w*|чист\w*|куб\w*|кост\w*|результат\w*|"
    r"на\s+кубе|d6|д6|перебро\w*|реролл\w*)\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)
_DICE_WORD = re.compile(r"^(?:\d\s?-?\s?(?:ка|ке|ки|ку|кой)|шестерк\w*|семерк\w*|десятк\w*)", re.IGNORECASE)


#: The edition a comparison with one named edition is made against.
NEWEST_EDITION = "10"
_COMPARISON = re.compile(
    r"изменил|поменял|отлича|отличи|разниц|по сравнению|\bбыло\b.*\bстало\b|"
    r"\bvs\.?\b|versus|differ|comparison|compared? (?:with|to) the|changed|change[sd]? (?:from|since|between)",
    re.IGNORECASE,
)


def is_comparison(text: str) -> bool:
    """Does the question ask how editions differ («чем отличается», «как изменился», «vs»)?"""
    return bool(_COMPARISON.search(text))


#: «перебрасываю 2д6 в 6-ке»: «в 6-ке» says where, not what fell — an edition even after dice words.
_IN_EDITION = re.compile(r"\bв\s+$")


def _is_die_face(match: re.Match[str], folded: str) -> bool:
    """«выпала шестёрка», «кинул 6-ку»: a number word after dice words is a die face."""
    before = folded[: match.start()]
    where = bool(_IN_EDITION.search(before)) and match.group(0).endswith("ке")
    return bool(_DICE_WORD.match(match.group(0)) and _DICE_CONTEXT.search(before)) and not where


def detect_editions(text: str) -> list[str]:
    """Editions the text names, in the order it names them («в 6-й и в 10-й» → ``["6", "10"]``)."""
    folded = fold(text)
    found: list[tuple[int, str]] = []
    for edition, pattern in _EDITION_RE.items():
        for match in pattern.finditer(folded):
            if _is_die_face(match, folded):
                continue
            found.append((match.start(), edition))
            break
    found.sort()
    return [edition for _, edition in found]


_EDITION_WORD_AFTER = re.compile(r"\s*" + _EDITION_WORD + r"\.?", re.IGNORECASE)


def _strip_edition_words(text: str) -> str:
    """The text without the words that name an edition (they are not about the rule)."""
    folded = fold(text)
    spans: list[tuple[int, int]] = []
    # «Kill Team» is printed in the Kill Team text and names a concept: it stays searchable
    for edition, pattern in _EDITION_RE.items():
        if edition == "kt":
            continue
        for match in pattern.finditer(folded):
            if _is_die_face(match, folded):
                continue
            # «в 7-й редакции», «6th edition»: the word «edition» after the number goes too
            following = _EDITION_WORD_AFTER.match(folded, match.end())
            spans.append((match.start(), following.end() if following else match.end()))
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        for index in range(start, min(end, len(chars))):
            chars[index] = " "
    return "".join(chars)


# --- vocabulary: synonyms and English rule words -----------------------------------------------

#: The search vocabulary (:data:`VOCABULARY_FILE`): synonym groups and player paraphrases.
VOCABULARY_FILE = Path(__file__).parent / "data" / "synonyms.toml"


@dataclass(frozen=True)
class Paraphrase:
    """A player's way of saying what the rules say in other words (``kb/data/synonyms.toml``)."""

    triggers: tuple[frozenset[str], ...]
    """Each a set of lemmas that must all be in the question."""
    concept: str | None
    words: tuple[str, ...]


@dataclass(frozen=True)
class Vocabulary:
    groups: tuple[tuple[str, ...], ...]
    paraphrases: tuple[Paraphrase, ...]


@lru_cache(maxsize=1)
def load_vocabulary(path: Path | None = None) -> Vocabulary:
    """Synonym groups and paraphrases; a missing file gives none, a broken one a :class:`QueryError`."""
    path = path or VOCABULARY_FILE
    if not path.is_file():
        return Vocabulary((), ())
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        groups = tuple(tuple(str(w) for w in g["words"]) for g in data.get("group", []))
        paraphrases = []
        for entry in data.get("paraphrase", []):
            triggers = tuple(frozenset(t.text for t in tokens(str(w))) for w in entry["when"])
            if any(not t or t <= LIGHT_WORDS for t in triggers):
                raise ValueError(f"a trigger of {entry['when']!r} has only question words")
            words = tuple(dict.fromkeys(t.text for w in entry.get("words", []) for t in tokens(str(w))))
            paraphrases.append(Paraphrase(triggers, entry.get("concept"), words))
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise QueryError(f"{path.name}: not a search vocabulary ({exc}).") from exc
    return Vocabulary(groups, tuple(paraphrases))


#: English rule words → Russian lemmas the texts use (English questions reach Russian text).
#: Concept names (overwatch, engagement range…) come from the termbase; these are the words around.
ENGLISH: dict[str, tuple[str, ...]] = {
    "unit": ("отряд", "подразделение", "юнит"),
    "model": ("модель",),
    "enemy": ("вражеский", "враг", "противник"),
    "friendly": ("дружественный", "свой"),
    "move": ("перемещение", "перемещаться", "движение", "двигаться"),
    "moved": ("перемещение", "переместить"),
    "movement": ("движение", "перемещение"),
    "normal": ("обычный",),
    "advance": ("продвижение", "продвинуться", "наступление"),
    "fall": ("отступление", "отступать"),
    "back": ("отступление",),
    "remain": ("оставаться",),
    "stationary": ("неподвижный",),
    "shoot": ("стрельба", "стрелять"),
    "shooting": ("стрельба",),
    "shot": ("выстрел", "стрельба"),
    "fight": ("бой", "сражаться"),
    "melee": ("рукопашный", "ближний", "бой"),
    "close": ("ближний",),
    "combat": ("бой", "рукопашный"),
    "assault": ("штурм", "наступление", "рукопашный"),
    "phase": ("фаза",),
    "turn": ("ход",),
    "round": ("раунд",),
    "battle": ("битва", "бой", "сражение"),
    "roll": ("бросок", "бросить", "кубик"),
    "dice": ("кубик", "куб", "бросок"),
    "die": ("кубик", "куб"),
    "result": ("результат",),
    "test": ("проверка", "тест"),
    "pass": ("пройти", "пройденный"),
    "fail": ("провалить", "провал", "проваленный"),
    "weapon": ("оружие",),
    "range": ("дальность", "расстояние"),
    "distance": ("расстояние", "дистанция"),
    "inch": ("дюйм",),
    "within": ("пределы",),
    "visible": ("видимый",),
    "see": ("видеть", "видимый"),
    "line": ("линия",),
    "sight": ("видимость", "обзор"),
    "target": ("цель",),
    "attack": ("атака",),
    "hit": ("попадание",),
    "wound": ("ранение", "рана"),
    "save": ("спасбросок",),
    "saving": ("спасбросок",),
    "damage": ("урон", "повреждение"),
    "mortal": ("смертельный",),
    "destroyed": ("уничтожить", "уничтоженный"),
    "destroy": ("уничтожить",),
    "killed": ("убить", "уничтожить"),
    "remove": ("убрать", "удалить"),
    "casualty": ("потеря",),
    "transport": ("транспорт", "транспортный"),
    "embark": ("посадка", "сесть"),
    "disembark": ("высадка", "высадиться"),
    "inside": ("внутри",),
    "terrain": ("ландшафт", "местность"),
    "cover": ("укрытие",),
    "ruin": ("руины",),
    "wood": ("лес",),
    "forest": ("лес",),
    "hill": ("холм",),
    "vehicle": ("техника", "машина"),
    "monster": ("монстр",),
    "infantry": ("пехота",),
    "character": ("персонаж",),
    "leader": ("лидер",),
    "ability": ("способность",),
    "abilities": ("способность",),
    "rule": ("правило",),
    "special": ("особый", "специальный"),
    "stratagem": ("стратагема",),
    "command": ("командование", "команда"),
    "point": ("очко",),
    "cost": ("стоить", "стоимость"),
    "characteristic": ("характеристика",),
    "profile": ("профиль",),
    "modifier": ("модификатор",),
    "re-roll": ("переброс", "перебросить"),
    "reroll": ("переброс", "перебросить"),
    "once": ("один", "раз"),
    "twice": ("дважды",),
    "each": ("каждый",),
    "every": ("каждый",),
    "half": ("половина",),
    "reduced": ("уменьшить", "снизить"),
    "zero": ("0",),
    "strength": ("сила",),
    "toughness": ("стойкость",),
    "wounds": ("рана",),
    "attacks": ("атака",),
    "initiative": ("инициатива",),
    "leadership": ("лидерство",),
    "armour": ("броня",),
    "armor": ("броня",),
    "invulnerable": ("неуязвимый",),
    "morale": ("мораль", "боевой", "дух"),
    "charge": ("атака", "рывок", "нападение"),
    "pile": ("сближение",),
    "consolidate": ("консолидация",),
    "consolidation": ("консолидация",),
    "reserve": ("резерв",),
    "reserves": ("резерв",),
    "deep": ("глубокий",),
    "strike": ("удар",),
    "deploy": ("развертывание", "расставить"),
    "deployment": ("развертывание",),
    "set": ("выставить", "поставить"),
    "table": ("стол", "поле", "таблица"),
    "board": ("поле",),
    "objective": ("цель", "объект"),
    "mission": ("миссия",),
    "army": ("армия",),
    "datasheet": ("лист", "данные"),
    "keyword": ("ключевой", "слово"),
    "end": ("конец", "закончить", "заканчиваться", "завершение", "окончание"),
    "start": ("начало", "начать"),
    "still": ("все", "еще"),
    "can": ("мочь", "можно"),
    "cannot": ("не", "нельзя"),
    "must": ("должный", "обязан"),
    "only": ("только",),
    "not": ("не",),
    "after": ("после",),
    "before": ("до", "перед"),
    "top": ("верх",),
    "fly": ("летать", "полет"),
    "aircraft": ("самолет",),
    "template": ("шаблон",),
    "blast": ("взрыв",),
    "scatter": ("отклонение", "рассеивание"),
    "random": ("случайный",),
    "measure": ("измерять", "расстояние"),
    "measuring": ("измерение",),
    "base": ("подставка", "основание"),
    "hull": ("корпус",),
    "coherency": ("согласованность", "сплоченность"),
    "engagement": ("поражение",),
    "represent": ("отражать", "представлять"),
    "value": ("значение",),
    "guardsman": ("гвардеец",),
    "allowed": ("разрешить", "мочь"),
    "penalty": ("штраф",),
    "bonus": ("бонус",),
    "need": ("нужно",),
    "achieve": ("достичь",),
    "succeed": ("успешный",),
    "successful": ("успешный",),
    "let": ("позволять",),
    "lose": ("проиграть",),
    "win": ("выиграть", "победить"),
    "wounded": ("потерять", "ранение"),
    "allocate": ("распределить", "назначить"),
    "allocated": ("распределить", "назначить"),
    "attached": ("прикрепить", "присоединить", "прикрепленный"),
    "attach": ("прикрепить", "присоединить"),
    "bodyguard": ("телохранитель",),
    "first": ("первый",),
    "pistol": ("пистолет",),
    "pistols": ("пистолет",),
    "grenade": ("граната",),
    "flamer": ("огнемет",),
    "arrive": ("прибыть", "прибытие"),
    "finish": ("закончить", "завершить"),
    "declare": ("объявить", "заявить", "объявлять", "заявлять"),
    "closest": ("ближайший",),
    "nearest": ("ближайший",),
    "horizontal": ("горизонталь", "горизонтально"),
    "horizontally": ("горизонталь", "горизонтально"),
    "vertical": ("вертикаль", "вертикально"),
    "height": ("высота",),
    "tall": ("высота",),
    "climb": ("взбираться",),
    "explode": ("взорваться", "уничтожить"),
    "explodes": ("взорваться", "уничтожить"),
    "passenger": ("борт", "внутри"),
    "passengers": ("борт", "внутри"),
    "control": ("контроль", "контролировать"),
    "points": ("очко",),
    "victory": ("победный",),
    "order": ("порядок", "последовательность"),
    "choose": ("выбрать",),
    "select": ("выбрать",),
    "different": ("разный",),
    "multiple": ("несколько",),
    "several": ("несколько",),
    "far": ("расстояние", "далеко"),
    "near": ("близко", "пределы"),
    "hidden": ("скрытый",),
    "ignore": ("игнорировать",),
    "modify": ("модифицировать", "модификатор"),
    "modified": ("модифицировать", "модифицированный"),
    "unmodified": ("немодифицированный",),
    "critical": ("критический",),
    "extra": ("дополнительный",),
    "additional": ("дополнительный",),
    "limit": ("предел", "ограничение"),
    "maximum": ("максимум", "максимальный"),
    "minimum": ("минимум", "минимальный"),
    "again": ("снова", "повторно"),
    "same": ("один", "тот"),
    "instead": ("вместо",),
    "fire": ("огонь", "стрельба"),
    "max": ("максимум", "максимальный"),
    "other": ("другой",),
    "over": ("поверх", "через"),
    "during": ("время",),
    "against": ("против",),
    "big": ("большой",),
    "large": ("большой",),
    "small": ("малый", "маленький"),
    "give": ("давать", "дать"),
    "one": ("один",),
    "normally": ("обычно", "обычный"),
    "usually": ("обычно", "обычный"),
    "flee": ("бегство", "отступать"),
    "eldar": ("эльдар", "эльдарский"),
    "kill": ("убить", "уничтожить"),
    "agreement": ("договоренность",),
    "agree": ("договориться", "договоренность"),
    "use": ("использовать", "применять"),
    "used": ("использовать", "применять"),
    "slow": ("замедлять", "замедляться"),
    "both": ("оба",),
}

#: Question and function words: searched, but at a low weight (they rarely decide the passage).
#: Rule words such as «не», «нельзя», «только», «каждый» are not here on purpose.
LIGHT_WORDS: frozenset[str] = frozenset(
    lemma(word)
    for word in """
    а и или но да же ли бы вот ну то это этот тот такой так как какой каков что кто чей где куда когда
    сколько зачем почему там тут здесь ещё уже вообще просто очень тоже также ведь лишь
    в во на с со к ко по о об обо от до из у за для при про над под через без между
    я ты он она оно мы вы они мой твой свой наш ваш его её их меня мне нас нам вас вам себя
    быть есть являться если чтобы надо нужно можно мочь
    the a an is are was be been of to in on at for and or by with from as it its this that
    i you we they my your our do does did can could should would how what which who when where
    if then than about into there here any some me us
    """.split()
)
#: Weight of a light word, an expansion (synonym, English) and a spelling correction.
LIGHT_WEIGHT = 0.25
EXPANSION_WEIGHT = 0.45
CORRECTION_WEIGHT = 0.8
#: Weight of another reading of an ambiguous word form.
VARIANT_WEIGHT = 0.8
#: Weight of a word of a rendering added for a concept named in slang or English, and of the
#: slang or English word itself.
RENDERING_WEIGHT = 0.5
SLANG_WORD_WEIGHT = 0.5


@lru_cache(maxsize=1)
def _synonym_map() -> dict[str, tuple[str, ...]]:
    result: dict[str, list[str]] = {}
    for group in load_vocabulary().groups:
        keys = [lemma(word) for word in group]
        for key in keys:
            result.setdefault(key, []).extend(k for k in keys if k != key)
    return {key: tuple(dict.fromkeys(values)) for key, values in result.items()}


@lru_cache(maxsize=1)
def _english_map() -> dict[str, tuple[str, ...]]:
    result: dict[str, tuple[str, ...]] = {}
    for word, russian in ENGLISH.items():
        keys = [t.text for t in tokens(word)]
        if len(keys) == 1:
            result[keys[0]] = tuple(lemma(r) if not r.isdigit() else r for r in russian)
    return result


# --- concepts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConceptEntry:
    """What search needs of a termbase concept (an adapter over ``kb.terms_model.Concept``)."""

    id: str
    english: str
    phrases: tuple[tuple[str, str, str], ...]
    """``(text, origin, source_id)``: origin is rendering / alias / english / abbreviation;
    source_id is set for renderings only."""
    title: str = ""
    """The Russian term to show (the recommended rendering), or the English term."""
    keyword: bool = False
    """A keyword or named rule of the rules (КТ «Отряд»): an everyday word typed in lower case
    names it only when no other concept has that word."""


def load_concepts() -> list[ConceptEntry]:
    """The termbase as :class:`ConceptEntry` objects; empty when there is no termbase yet."""
    try:
        import importlib

        loader: Any = None
        for module in ("kb.terms", "kb.terms_model"):
            try:
                loader = getattr(importlib.import_module(module), "default_termbase", None)
            except ImportError:
                continue
            if loader is not None:
                break
        if loader is None:
            return []
        termbase: Iterable[Any] = loader()
    except ImportError:
        return []
    except Exception as exc:  # a broken termbase must not take search down with it
        from corpus.errors import TermbaseError

        if isinstance(exc, TermbaseError):
            return []
        raise
    entries = []
    for concept in termbase:
        phrases: list[tuple[str, str, str]] = [(concept.english, "english", "")]
        if concept.abbreviation:
            phrases.append((concept.abbreviation, "abbreviation", ""))
        phrases += [(alias, "alias", "") for alias in concept.aliases]
        phrases += [(r.text, "rendering", r.source) for r in concept.rendering]
        title = getattr(concept, "recommended", "") or concept.english
        keyword = bool(getattr(concept, "keyword", False))
        entries.append(ConceptEntry(concept.id, concept.english, tuple(phrases), title, keyword))
    return entries


#: Words shorter than this are matched to slang exactly (one edit turns «ковер» into «ховер»).
FUZZY_MIN_LENGTH = 6
_RU_VERB_PREFIXES = ("пере", "за", "от", "вы", "по", "про", "на", "с", "раз", "у", "до")


def slang_key(word: str) -> str:
    """A spelling-insensitive key for slang: ё/э→е, о→а (an unstressed «о» sounds «а»: «ковер» is
    «кавер»), no hyphens or spaces, no soft or hard signs, doubled letters single.

    «баттл-шок», «батлшок» give the same key; «бэтлшок» is one letter away.
    """
    text = fold(word).replace("э", "е").replace("о", "а").replace("ъ", "").replace("ь", "")
    text = re.sub(r"[\s\-'’]", "", text)
    return re.sub(r"(.)\1+", r"\1", text)


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


@dataclass(frozen=True)
class _Phrase:
    key: tuple[str, ...]
    concept: str
    origin: str
    source: str
    text: str
    keyword_caps: bool
    """A rendering printed wholly in capitals: on the text side it matches capitals only."""
    short: bool
    """One token of at most three characters (an abbreviation): matched by exact surface form."""


@dataclass(frozen=True)
class ConceptMatch:
    """A concept found in a text: which tokens, by which phrase."""

    concept: str
    start: int
    """Index of the first matched token."""
    end: int
    """Index after the last matched token."""
    phrase: str
    origin: str
    fuzzy: bool = False


_CYRILLIC_WORD = re.compile(r"[а-яёА-ЯЁ]+")


def _is_abbreviation(text: str) -> bool:
    """At most three characters and not an ordinary lower-case Russian word («ап», «ОС», «WS», «D6»,
    but not «лес» or «дым», which match by lemma like any word)."""
    if len(text) > 3:
        return False
    if _CYRILLIC_WORD.fullmatch(text) and not _is_upper(text):
        return not _known_russian(text)
    return True


def _is_upper(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


class ConceptMatcher:
    """Finds termbase concepts in a token sequence by lemma n-grams (any inflection, any language)."""

    MAX_WORDS = 7

    def __init__(self, concepts: Sequence[ConceptEntry]) -> None:
        self.concepts = {c.id: c for c in concepts}
        self._by_first: dict[str, list[_Phrase]] = {}
        self._slang: dict[str, set[str]] = {}
        self._slang_deletes: dict[str, set[str]] = {}
        self._rendering_lemmas: dict[str, set[str]] = {}
        seen: set[tuple[tuple[str, ...], str, bool, str]] = set()
        for concept in concepts:
            for text, origin, source in concept.phrases:
                terms = [t for t in tokens(text)]
                key = tuple(t.text for t in terms)
                if not key or len(key) > self.MAX_WORDS:
                    continue
                caps = origin == "rendering" and _is_upper(text) and len(text) > 3
                short = len(key) == 1 and _is_abbreviation(text.strip())
                marker = (key, concept.id, caps, text.strip() if short else "")
                if marker in seen:
                    continue
                seen.add(marker)
                phrase = _Phrase(key, concept.id, origin, source, text.strip(), caps, short)
                self._by_first.setdefault(key[0], []).append(phrase)
                if len(key) == 1 and not short and len(text.strip()) >= 4:
                    slang = slang_key(text)
                    self._slang.setdefault(slang, set()).add(concept.id)
                    for deleted in _deletes(slang):
                        self._slang_deletes.setdefault(deleted, set()).add(slang)
        for phrases in self._by_first.values():
            phrases.sort(key=lambda p: -len(p.key))

    def __bool__(self) -> bool:
        return bool(self.concepts)

    def rendering_lemmas(self, concept_id: str) -> set[str]:
        """Every lemma of the concept's printed renderings."""
        cached = self._rendering_lemmas.get(concept_id)
        if cached is None:
            concept = self.concepts.get(concept_id)
            phrases = concept.phrases if concept is not None else ()
            cached = {t.text for text, origin, _ in phrases if origin == "rendering" for t in tokens(text)}
            self._rendering_lemmas[concept_id] = cached
        return cached

    def phrases_of(self, concept_id: str) -> list[tuple[str, ...]]:
        return [p.key for ps in self._by_first.values() for p in ps if p.concept == concept_id]

    def match_terms(self, terms: Sequence[Term], *, query: bool, raw: str = "") -> list[ConceptMatch]:
        """Concepts in ``terms`` (the output of :func:`kb.analysis.tokens` over ``raw``).

        ``query=True`` relaxes case (players type «ws», «ап»); on the text side a capitals-only
        rendering matches capitals only and abbreviations match their exact spelling.
        """
        matches: list[ConceptMatch] = []
        texts = [t.text for t in terms]
        count = len(terms)
        index = 0
        while index < count:
            best: list[_Phrase] = []
            for phrase in self._by_first.get(texts[index], ()):
                size = len(phrase.key)
                if best and size < len(best[0].key):
                    break
                if tuple(texts[index : index + size]) != phrase.key:
                    continue
                if not self._accept(phrase, terms, index, size, query=query, raw=raw):
                    continue
                best.append(phrase)
            if best and query and len(best) > 1:
                best = self._prefer_words(best, terms[index : index + len(best[0].key)])
            if best:
                size = len(best[0].key)
                for phrase in best:
                    matches.append(ConceptMatch(phrase.concept, index, index + size, phrase.text, phrase.origin))
                index += size
            else:
                index += 1
        return matches

    def _prefer_words(self, best: list[_Phrase], typed: Sequence[Term]) -> list[_Phrase]:
        """Of several concepts named by the same words, drop a keyword reached only through its
        printed name (Kill Team's rule «Отряд») when the words were typed in lower case and an
        ordinary concept («unit», whose alias «отряд» is the everyday word) has them too."""
        if all(_is_upper(t.original) for t in typed):
            return best
        by_alias = {p.concept for p in best if p.origin != "rendering"}
        named_only = {
            p.concept for p in best if self._is_keyword(p.concept) and p.concept not in by_alias
        }
        plain = [p for p in best if p.concept not in named_only]
        return plain or best

    def _is_keyword(self, concept_id: str) -> bool:
        concept = self.concepts.get(concept_id)
        return concept is not None and concept.keyword

    def _accept(self, phrase: _Phrase, terms: Sequence[Term], index: int, size: int, *, query: bool, raw: str) -> bool:
        first = terms[index]
        if phrase.short:
            original = first.original
            if len(phrase.text) == 1:
                # a one-letter characteristic (S, T, W, A, I, M) only right before a value: «S3», «T 4»
                following = raw[first.end : first.end + 2] if raw else ""
                return original == phrase.text and re.match(r"\s?[\d(]", following) is not None
            if query:
                if fold(original) != fold(phrase.text):
                    return False
                # «ПО» (victory points) is not the preposition «по», «HoW» is not «how»: an
                # abbreviation typed in another case counts only when it is not an everyday word
                if original == phrase.text:
                    return True
                everyday = first.text in LIGHT_WORDS or (
                    _CYRILLIC_WORD.fullmatch(original) is not None and _known_russian(original)
                )
                return not everyday
            return original == phrase.text or (fold(original) == fold(phrase.text) and _is_upper(original))
        if phrase.keyword_caps and not query:
            return all(_is_upper(t.original) for t in terms[index : index + size])
        return True

    def fuzzy(self, word: str, *, edits: bool = True) -> set[str]:
        """Concepts whose one-word slang/alias is ``word`` spelt another way, its stem, or (with
        ``edits``) within one edit of it."""
        key = slang_key(word)
        if len(key) < 4:
            return set()
        found = set(self._slang.get(key, ()))
        if found:
            return found
        candidates = {key}
        for prefix in _RU_VERB_PREFIXES:
            if key.startswith(prefix) and len(key) - len(prefix) >= 4:
                candidates.add(key[len(prefix) :])
        for candidate in candidates:
            # the slang word inflected or derived: «рерольнуть» ← «реролл», «дипстрайкнуться» ← «дипстрайк»
            for cut in range(len(candidate), 3, -1):
                stem = candidate[:cut]
                if stem in self._slang and len(stem) >= max(4, len(candidate) - 6):
                    found |= self._slang[stem]
            if found:
                return found
        if edits and len(key) >= FUZZY_MIN_LENGTH:
            for deleted in {key} | _deletes(key):
                for slang in self._slang_deletes.get(deleted, set()) | ({deleted} & self._slang.keys()):
                    if abs(len(slang) - len(key)) <= 1:
                        found |= self._slang[slang]
        return found


@lru_cache(maxsize=1)
def default_matcher() -> ConceptMatcher:
    """The matcher over the project's termbase, built once per process."""
    return ConceptMatcher(load_concepts())


# --- spelling ---------------------------------------------------------------------------------


class Speller:
    """Corrects an unknown word to a word of the texts one edit away (symmetric deletes)."""

    def __init__(self, words: dict[str, int]) -> None:
        """``words``: folded surface forms of the texts → frequency."""
        self.words = words
        self._deletes: dict[str, list[str]] | None = None

    def _index(self) -> dict[str, list[str]]:
        if self._deletes is None:
            index: dict[str, list[str]] = {}
            for word in self.words:
                if len(word) >= 4:
                    for deleted in _deletes(word):
                        index.setdefault(deleted, []).append(word)
            self._deletes = index
        return self._deletes

    def correct(self, word: str) -> str | None:
        folded = fold(word)
        if len(folded) < 5 or folded in self.words:
            return None
        index = self._index()
        candidates: set[str] = set(index.get(folded, ()))
        for deleted in _deletes(folded):
            if deleted in self.words:
                candidates.add(deleted)
            candidates.update(index.get(deleted, ()))
        candidates = {c for c in candidates if abs(len(c) - len(folded)) <= 1 and c[0] == folded[0]}
        if not candidates:
            return None
        return max(sorted(candidates), key=lambda c: self.words[c])


@lru_cache(maxsize=4096)
def _known_russian(word: str) -> bool:
    from kb.analysis import _morph

    return bool(_morph().word_is_known(fold(word)))


# --- the parsed query -------------------------------------------------------------------------


@dataclass
class QueryTerm:
    """One term to search for, with its weight and why it is there."""

    text: str
    weight: float
    origin: str
    """``word``, ``light`` (a question word), ``synonym``, ``english``, ``correction``."""


@dataclass
class QueryWord:
    """One word of the question and every term that stands for it."""

    original: str
    lemma: str
    alternatives: tuple[str, ...]
    """The lemma, its translations, synonyms and spelling correction."""
    light: bool = False
    concept: str | None = None
    """The concept whose phrase this word is part of."""


@dataclass
class ParsedQuery:
    """A question, understood."""

    text: str
    """The question as given."""
    cleaned: str
    terms: list[QueryTerm] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    """Concept ids, in the order the question names them."""
    concept_phrases: dict[str, list[str]] = field(default_factory=dict)
    concept_share: dict[str, float] = field(default_factory=dict)
    """Concept → 1 / the number of concepts its words named («атака» names attack, attacks and
    charge: a third each); the best share when it was named more than once. Missing means 1."""
    editions: list[str] = field(default_factory=list)
    """Editions named in the text (or the explicit one), in order."""
    explicit_edition: str | None = None
    compare: bool = False
    """The question compares editions («как изменился овервотч с 6-й», «difference between…»):
    its editions are each given a place at the top instead of one filtering the others."""
    corrections: dict[str, str] = field(default_factory=dict)
    """Unknown word → the word of the texts it was corrected to."""
    numbers: list[str] = field(default_factory=list)
    """Numbers and dice notation of the question (``2d6``, ``3+``, ``6"``)."""
    words: list[QueryWord] = field(default_factory=list)
    """The question's words in order, each with the terms that stand for it."""

    @property
    def edition(self) -> str | None:
        """The one edition to report: explicit, or the only one named; ``None`` for none or several."""
        if self.explicit_edition is not None:
            return self.explicit_edition
        return self.editions[0] if len(self.editions) == 1 else None

    @property
    def did_you_mean(self) -> str | None:
        """The question with its corrected words, or ``None`` if nothing was corrected."""
        if not self.corrections:
            return None
        text = self.cleaned
        for wrong, right in self.corrections.items():
            text = re.sub(rf"(?<!\w){re.escape(wrong)}(?!\w)", right, text, flags=re.IGNORECASE)
        return text

    @property
    def empty(self) -> bool:
        return not self.terms and not self.concepts

    def lemma_set(self) -> set[str]:
        return {t.text for t in self.terms if t.origin in ("word", "correction", "variant")}


#: A reading of a word form at least this likely (pymorphy3's score) counts as a variant.
READING_MIN_SCORE = 0.1


@lru_cache(maxsize=20_000)
def readings(word: str) -> tuple[str, ...]:
    """Every likely normal form of a Russian word form, the first (the lemma) first."""
    from kb.analysis import _morph

    folded = fold(word)
    if not re.search(r"[а-я]", folded):
        return (lemma(word),)
    forms = [lemma(word)]
    for parse in _morph().parse(folded):
        form = fold(parse.normal_form)
        if parse.score >= READING_MIN_SCORE and form not in forms:
            forms.append(form)
    return tuple(forms)


def reading_links(surface: Iterable[str]) -> dict[str, list[str]]:
    """Lemma → the other lemmas that share a word form of the texts with it.

    The index holds each form under its first reading: «ран» is «ран», «броней» is «бронь», while
    «раны» is «рана» and «броня» is «броня». A question's «рана» must find «ран» too.
    """
    links: dict[str, set[str]] = {}
    for word in surface:
        forms = readings(word)
        for other in forms[1:]:
            links.setdefault(other, set()).add(forms[0])
            links.setdefault(forms[0], set()).add(other)
    return {key: sorted(values) for key, values in sorted(links.items())}


_VERB_END = re.compile(r"(?:ывать|ивать|вать|ать|ять|ить|еть|ыть)$")


def aspect_key(word: str) -> str | None:
    """The stem a verb shares with its other aspect: «проиграть», «проигрывать» → «проигр»;
    «назначить», «назначать(ся)» → «назнач». ``None`` for a word that is not an infinitive."""
    if word.endswith(("ться", "тись")):
        word = word[:-2]
    if not word.endswith("ть"):
        return None
    stem = _VERB_END.sub("", word)
    return stem if len(stem) >= 4 and stem != word else None


@lru_cache(maxsize=4)
def _aspect_index(vocabulary: frozenset[str]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for word in vocabulary:
        key = aspect_key(word)
        if key is not None:
            index.setdefault(key, []).append(word)
    return {key: tuple(sorted(words)) for key, words in index.items()}


def aspect_partners(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    """Verbs of the texts with the same aspect stem as ``word`` (itself excluded)."""
    key = aspect_key(word)
    if key is None:
        return ()
    return tuple(w for w in _aspect_index(vocabulary).get(key, ()) if w != word)


def _readings(original: str, text: str, variants: dict[str, list[str]] | None) -> list[str]:
    found = [r for r in readings(original)[1:] if r != text]
    for other in (variants or {}).get(text, ()):
        if other != text and other not in found:
            found.append(other)
    return found


def _add(terms: dict[str, QueryTerm], text: str, weight: float, origin: str) -> None:
    current = terms.get(text)
    if current is None:
        terms[text] = QueryTerm(text, weight, origin)
    elif weight > current.weight:
        current.weight = weight
        current.origin = origin


def _add_renderings(weighted: dict[str, QueryTerm], matcher: ConceptMatcher, concept_id: str) -> None:
    """The lemmas of every printed rendering of a concept, as expansion terms."""
    concept = matcher.concepts.get(concept_id)
    if concept is None:
        return
    for text, origin, _ in concept.phrases:
        if origin == "rendering":
            for term in tokens(text):
                if term.text not in LIGHT_WORDS:
                    _add(weighted, term.text, RENDERING_WEIGHT, "rendering")


def parse_query(
    question: str,
    *,
    edition: str | None = None,
    matcher: ConceptMatcher | None = None,
    speller: Speller | None = None,
    vocabulary: frozenset[str] | set[str] | None = None,
    variants: dict[str, list[str]] | None = None,
) -> ParsedQuery:
    """Understand ``question``: terms with weights, concepts, editions, corrections.

    ``vocabulary`` is the set of lemmas the index knows (words outside it may be corrected);
    ``speller`` corrects them; ``variants`` maps a lemma to the lemmas the texts gave the same
    word forms (see :func:`reading_links`). Raises :class:`QueryError` for an unknown ``edition`` or a
    question longer than :data:`MAX_QUERY_CHARS`.
    """
    if edition is not None and edition not in EDITION_CODES:
        raise QueryError(f"Unknown edition {edition!r}; use one of {', '.join(EDITION_CODES)}.")
    cleaned = clean_query(question)
    parsed = ParsedQuery(text=question, cleaned=cleaned, explicit_edition=edition)
    parsed.editions = [edition] if edition is not None else detect_editions(cleaned)
    if edition is None and is_comparison(cleaned):
        parsed.compare = True
        if len(parsed.editions) == 1:  # «с 6-й редакции»: from that edition to the newest, or back
            parsed.editions.append(NEWEST_EDITION if parsed.editions[0] != NEWEST_EDITION else "6")
    body = expand_contractions(_strip_edition_words(cleaned))
    matcher = matcher if matcher is not None else default_matcher()
    terms = list(tokens(body))
    matches = matcher.match_terms(terms, query=True, raw=body)
    if vocabulary is not None and any("-" in t.original for t in terms):
        # «анти-техника», «супер-спас»: a hyphenated word neither the texts nor the termbase know
        # is read as its parts
        named = {i for m in matches for i in range(m.start, m.end)}
        split = [
            t for t in terms
            if "-" in t.original and t.position not in named and t.text not in vocabulary
            and not matcher.fuzzy(t.original, edits=False)
        ]
        if split:
            chars = list(body)
            for t in split:
                for offset in range(t.start, t.end):
                    if chars[offset] == "-":
                        chars[offset] = " "
            body = "".join(chars)
            terms = list(tokens(body))
            matches = matcher.match_terms(terms, query=True, raw=body)
    weighted: dict[str, QueryTerm] = {}
    covered: dict[int, str] = {}
    slang: set[int] = set()
    span_size: dict[tuple[int, int], int] = {}
    for match in matches:
        span_size[(match.start, match.end)] = span_size.get((match.start, match.end), 0) + 1
    for match in matches:
        share = 1.0 / span_size[(match.start, match.end)]
        parsed.concept_share[match.concept] = max(parsed.concept_share.get(match.concept, 0.0), share)
        parsed.concept_phrases.setdefault(match.concept, []).append(match.phrase)
        if match.concept not in parsed.concepts:
            parsed.concepts.append(match.concept)
        printed = matcher.rendering_lemmas(match.concept) if match.origin != "rendering" else set()
        for position in range(match.start, match.end):
            covered.setdefault(position, match.concept)
            if match.origin != "rendering" and terms[position].text not in printed:
                slang.add(position)
        if match.origin != "rendering":
            _add_renderings(weighted, matcher, match.concept)
    synonyms = _synonym_map()
    english = _english_map()
    for position, term in enumerate(terms):
        text = term.text
        concept = covered.get(position)
        if text[0].isdigit() or text[0] in "+-" or (text[0] == "d" and text[1:2].isdigit()):
            parsed.numbers.append(text)
            _add(weighted, text, 1.0, "word")
            parsed.words.append(QueryWord(term.original, text, (text,), concept=concept))
            continue
        latin = not re.search(r"[а-я]", text)
        if text in LIGHT_WORDS:
            _add(weighted, text, LIGHT_WEIGHT, "light")
            parsed.words.append(QueryWord(term.original, text, (text,), light=True, concept=concept))
            continue
        alternatives = [text]
        # a word of slang or English that named a concept is searched through the concept's
        # renderings; as a word of its own it would find look-alikes («хит ролл» → «хиты»)
        own = SLANG_WORD_WEIGHT if position in slang else 1.0
        if latin:
            for russian in english.get(text, ()):
                _add(weighted, russian, EXPANSION_WEIGHT if concept else 0.8, "english")
                alternatives.append(russian)
            _add(weighted, text, own, "word")
        else:
            _add(weighted, text, own, "word")
            # the other readings of an ambiguous form («ран» → «рана», «броней» → «броня»): the
            # texts were lemmatised by their first reading, the question may be read another way
            readings = [text, *_readings(term.original, text, variants)]
            for reading in readings[1:]:
                if vocabulary is None or reading in vocabulary:
                    _add(weighted, reading, VARIANT_WEIGHT * own, "variant")
                    alternatives.append(reading)
            for reading in readings:
                for other in synonyms.get(reading, ()):
                    _add(weighted, other, EXPANSION_WEIGHT, "synonym")
                    alternatives.append(other)
            if vocabulary is not None:
                # the verb's other aspect («проиграть» ~ «проигрывать», «назначить» ~ «назначать»)
                for other in aspect_partners(text, frozenset(vocabulary)):
                    if other not in alternatives:
                        _add(weighted, other, VARIANT_WEIGHT * own, "variant")
                        alternatives.append(other)
        word = QueryWord(term.original, text, tuple(alternatives), concept=concept)
        parsed.words.append(word)
        if concept or len(term.original) < 4:
            continue
        known = vocabulary is None or text in vocabulary or text in english or text in synonyms
        if known:
            continue
        # one edit away is a typo of slang only when the word itself is no dictionary word
        # («роутер» is a word, not a misspelt «ростер»)
        fuzzy = matcher.fuzzy(term.original, edits=latin or not _known_russian(term.original))
        if fuzzy:
            for found in sorted(fuzzy):
                if found not in parsed.concepts:
                    parsed.concepts.append(found)
                parsed.concept_phrases.setdefault(found, []).append(term.original)
            word.concept = sorted(fuzzy)[0]
            continue
        if speller is not None and (latin or not _known_russian(term.original)):
            fixed = speller.correct(term.original)
            if fixed is not None:
                parsed.corrections[term.original] = fixed
                fixed_terms = [t.text for t in tokens(fixed)]
                for other in fixed_terms:
                    _add(weighted, other, CORRECTION_WEIGHT, "correction")
                word.alternatives = (*word.alternatives, *fixed_terms)
    _apply_paraphrases(parsed, weighted, matcher)
    parsed.terms = list(weighted.values())
    return parsed


#: Weight of the words a paraphrase adds.
PARAPHRASE_WEIGHT = 0.6


def _apply_paraphrases(parsed: ParsedQuery, weighted: dict[str, QueryTerm], matcher: ConceptMatcher) -> None:
    """Name the concepts and add the words of every paraphrase whose trigger is in the question."""
    present: set[str] = set()
    for word in parsed.words:
        present.update(word.alternatives)
    for paraphrase in load_vocabulary().paraphrases:
        trigger = next((t for t in paraphrase.triggers if t <= present), None)
        if trigger is None:
            continue
        added: list[str] = []
        for text in paraphrase.words:
            if text not in LIGHT_WORDS:
                _add(weighted, text, PARAPHRASE_WEIGHT, "synonym")
                added.append(text)
        concept = paraphrase.concept if paraphrase.concept in matcher.concepts else None
        if concept is not None:
            if concept not in parsed.concepts:
                parsed.concepts.append(concept)
            _add_renderings(weighted, matcher, concept)
            concept_entry = matcher.concepts[concept]
            added.extend(t.text for text, origin, _ in concept_entry.phrases if origin == "rendering" for t in tokens(text))
        for word in parsed.words:
            if word.lemma in trigger and not word.light:
                word.alternatives = tuple(dict.fromkeys((*word.alternatives, *added)))
                if word.concept is None and concept is not None:
                    word.concept = concept
