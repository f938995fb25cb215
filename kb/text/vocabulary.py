"""Query vocabulary: synonyms, English rule words and player paraphrases (``kb/data/synonyms.toml``,
``kb/data/english.toml``).

Part of query understanding (:mod:`rulekb.kb.search.query`): words the texts use for the same thing
(unit = отряд / подразделение / юнит) and a player's phrase for what the rules say in other
words («не докатил чардж» → failed charge).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulekb.corpus.errors import QueryError
from rulekb.kb.context import BuildContext, dump_json
from rulekb.kb.datafile import read_toml, validation_problem
from rulekb.kb.paths import DATA_DIR
from rulekb.kb.text.analysis import lemma, tokens

# --- vocabulary: synonyms and English rule words -----------------------------------------------

#: The search vocabulary (:data:`VOCABULARY_FILE`): synonym groups and player paraphrases.
VOCABULARY_FILE = DATA_DIR / "synonyms.toml"
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
    english: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """English word → the Russian words of the texts (``kb/data/english.toml``)."""


class SynonymGroup(BaseModel):
    """``[[group]]``: words that stand for one another (lemmas or any inflected form)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    words: tuple[str, ...] = Field(min_length=2)


class ParaphraseEntry(BaseModel):
    """``[[paraphrase]]``: triggers (each a set of words that must all be in the question), the
    concept it names and the words it adds."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    when: tuple[str, ...] = Field(min_length=1)
    concept: str | None = None
    words: tuple[str, ...] = ()


class SynonymsFile(BaseModel):
    """The whole ``kb/data/synonyms.toml`` (its JSON Schema: ``kb/data/synonyms.schema.json``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    group: tuple[SynonymGroup, ...] = ()
    paraphrase: tuple[ParaphraseEntry, ...] = ()


def _read_synonyms(path: Path) -> dict[str, Any]:
    """The parsed ``synonyms.toml``, checked against :class:`SynonymsFile`."""
    data = read_toml(path, QueryError, missing=f"{path}: the search vocabulary is missing; restore it from git.")
    try:
        SynonymsFile.model_validate(data)
    except ValidationError as exc:
        raise QueryError(f"{path.name}: {validation_problem(exc)}; see the comment at the top of the file.") from exc
    return data


@lru_cache(maxsize=1)
def load_vocabulary(path: Path | None = None) -> Vocabulary:
    """Synonym groups and paraphrases; a missing file gives none, a broken one a :class:`QueryError`."""
    path = path or VOCABULARY_FILE
    english = {"english": load_english()}
    if not path.is_file():
        return vocabulary_from_data(english)
    return vocabulary_from_data({**_read_synonyms(path), **english}, path.name)


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
        english = tuple((str(word), tuple(str(r) for r in russian)) for word, russian in data.get("english", {}).items())
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise QueryError(f"{name}: not a search vocabulary ({exc}).") from exc
    return Vocabulary(groups, tuple(paraphrases), english)


def stage_vocabulary(ctx: BuildContext) -> None:
    """Build stage: the search vocabulary as the build serves it (``vocabulary.json``: the synonyms
    and paraphrases of ``synonyms.toml`` and the English words of ``english.toml``), checked."""
    data: dict[str, Any] = {}
    if VOCABULARY_FILE.is_file():
        data = _read_synonyms(VOCABULARY_FILE)
    data["english"] = {word: list(russian) for word, russian in load_english().items()}
    vocabulary_from_data(data)
    dump_json(ctx.out / VOCABULARY_JSON, data)



#: English rule words → Russian lemmas the texts use (``kb/data/english.toml``).
ENGLISH_FILE = DATA_DIR / "english.toml"


class EnglishWord(BaseModel):
    """One English word a player types and the Russian words of the texts it stands for."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    english: str = Field(min_length=1, pattern=r"^[a-z0-9'-]+$")
    """One word, lower case, as players type it."""
    russian: tuple[str, ...] = Field(min_length=1)
    """The words of the texts it stands for (read as lemmas)."""


class EnglishVocabulary(BaseModel):
    """The whole file: its schema version and the words."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    schema_version: int = Field(alias="schema", ge=1, le=1)
    word: tuple[EnglishWord, ...]


@lru_cache(maxsize=1)
def load_english(path: Path | None = None) -> dict[str, tuple[str, ...]]:
    """English word → Russian words; a broken file is a :class:`QueryError` naming the entry and the fix."""
    path = path or ENGLISH_FILE
    raw = read_toml(path, QueryError, missing=f"{path}: the English search vocabulary is missing; restore it from git.")
    try:
        data = EnglishVocabulary.model_validate(raw)
    except ValidationError as exc:
        raise QueryError(f"{path.name}: {validation_problem(exc)}; see the comment at the top of the file.") from exc
    words: dict[str, tuple[str, ...]] = {}
    for entry in data.word:
        if entry.english in words:
            raise QueryError(f"{path.name}: {entry.english!r} is listed twice; merge its Russian words into one entry.")
        words[entry.english] = entry.russian
    return words


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
def synonym_map(vocabulary: Vocabulary | None = None) -> dict[str, tuple[str, ...]]:
    result: dict[str, list[str]] = {}
    for group in (vocabulary or load_vocabulary()).groups:
        keys = [lemma(word) for word in group]
        for key in keys:
            result.setdefault(key, []).extend(k for k in keys if k != key)
    return {key: tuple(dict.fromkeys(values)) for key, values in result.items()}


@lru_cache(maxsize=4)
def english_map(vocabulary: Vocabulary | None = None) -> dict[str, tuple[str, ...]]:
    result: dict[str, tuple[str, ...]] = {}
    for word, russian in (vocabulary or load_vocabulary()).english:
        keys = [t.text for t in tokens(word)]
        if len(keys) == 1:
            result[keys[0]] = tuple(lemma(r) if not r.isdigit() else r for r in russian)
    return result


