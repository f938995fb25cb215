"""Query vocabulary: synonyms, English rule words and player paraphrases (``kb/data/synonyms.toml``).

Part of query understanding (:mod:`kb.query`): words the texts use for the same thing
(unit = отряд / подразделение / юнит) and a player's phrase for what the rules say in other
words («не докатил чардж» → failed charge).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from corpus.errors import QueryError
from kb.analysis import lemma, tokens

# --- vocabulary: synonyms and English rule words -----------------------------------------------

#: The search vocabulary (:data:`VOCABULARY_FILE`): synonym groups and player paraphrases.
VOCABULARY_FILE = Path(__file__).parent / "data" / "synonyms.toml"
#: The copy of it in a build, which the search of that build reads.
VOCABULARY_JSON = "vocabulary.json"


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
    except tomllib.TOMLDecodeError as exc:
        raise QueryError(f"{path.name}: not a search vocabulary ({exc}).") from exc
    return vocabulary_from_data(data, path.name)


def vocabulary_from_data(data: dict[str, Any], name: str = VOCABULARY_FILE.name) -> Vocabulary:
    """The vocabulary of parsed ``synonyms.toml`` data (the file's, or the copy a build keeps in
    ``vocabulary.json``); a broken one is a :class:`QueryError` naming ``name``."""
    try:
        groups = tuple(tuple(str(w) for w in g["words"]) for g in data.get("group", []))
        paraphrases = []
        for entry in data.get("paraphrase", []):
            triggers = tuple(frozenset(t.text for t in tokens(str(w))) for w in entry["when"])
            if any(not t or t <= LIGHT_WORDS for t in triggers):
                raise ValueError(f"a trigger of {entry['when']!r} has only question words")
            words = tuple(dict.fromkeys(t.text for w in entry.get("words", []) for t in tokens(str(w))))
            paraphrases.append(Paraphrase(triggers, entry.get("concept"), words))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise QueryError(f"{name}: not a search vocabulary ({exc}).") from exc
    return Vocabulary(groups, tuple(paraphrases))


def stage_vocabulary(ctx: Any) -> None:
    """Build stage: the search vocabulary as the build serves it (``vocabulary.json``), checked."""
    from kb.build import dump_json

    data: dict[str, Any] = {}
    if VOCABULARY_FILE.is_file():
        data = tomllib.loads(VOCABULARY_FILE.read_text(encoding="utf-8"))
    vocabulary_from_data(data)
    dump_json(ctx.out / VOCABULARY_JSON, data)


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
    "disagree": ("согласный", "спор", "договориться"),
    "argue": ("спор",),
    "argument": ("спор",),
    "dispute": ("спор",),
    "hurt": ("навредить", "ранить"),
    "harm": ("навредить", "вред"),
    "useless": ("бесполезный",),
}

#: Question and function words: searched, but at a low weight (they rarely decide the passage).
#: Rule words such as «не», «нельзя», «только», «каждый» are not here on purpose.
LIGHT_WORDS: frozenset[str] = frozenset(
    lemma(word)
    for word in """
    а и или но да же ли бы вот ну то это этот тот такой так как какой каков что кто чей где куда когда
    сколько скока скоко скок зачем почему там тут здесь ещё уже вообще просто очень тоже также ведь лишь
    чё чо че шо чтоб
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


@lru_cache(maxsize=4)
def _synonym_map(vocabulary: Vocabulary | None = None) -> dict[str, tuple[str, ...]]:
    result: dict[str, list[str]] = {}
    for group in (vocabulary or load_vocabulary()).groups:
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


