"""What a ruling states in numbers, in the rulebooks' notation: its measures (``9″``, ``2D6``, ``3+``,
``+1``), the ranges of results it gives (``1-3``) and the terms it counts (``3 mortal wounds``, ``1 CP``) —
for a number card's lead and an English card's lead line. Nothing here translates a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulekb.corpus.errors import RulebaseError
from rulekb.corpus.words import is_caps
from rulekb.kb.ask.card_terms import english_name, records
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.analysis import tokens

__all__ = ["GENERIC_WEIGHT", "MAX_DISTANCES", "MIN_ABBREVIATION", "OPEN_DISTANCE", "RULE_LEAVES", "counted_terms", "distance_lead",
           "given_value", "measures", "number_lead", "result_ranges", "rule_text", "with_counts"]


_MEASURED = re.compile(
    r"(\d+(?:[.,]\d+)?(?:-?х)?\s*(?:\"|″|”|“|дюйм\w*)|(?<!\w)\d*\s*[DdДд]\s*\d+(?:\s*[+\-]\s*\d+)?(?:\"|″|”|“|\s*дюйм\w*)?|\b\d\+|(?<![\w+\-])[+\-−]\d\b"
    r"|(?:добав\w*|прибав\w*|увелич\w*\s+на)\s+\d+|(?:вычт\w*|отним\w*|уменьш\w*\s+на|ухудш\w*\s+на)\s+\d+"
    r"|\b\d+\s*(?:CP|КП|ОК)\b)",
    re.IGNORECASE,
)


def _inches(value: str) -> str:
    """``3 дюйма``, ``3х дюймов``, ``3"`` → ``3″``; a dice distance ``D6"``, ``2D6 дюймов`` → ``D6″``, ``2D6″``
    (the older editions roll distances: a how-far question is answered by them); «добавьте 1» → ``+1``;
    «вычтите 1» → ``-1``."""
    value = re.sub(r"^(?:добав\w*|прибав\w*|увелич\w*\s+на)\s+(\d+)$", r"+\1", value, flags=re.I)
    value = re.sub(r"^(?:вычт\w*|отним\w*|уменьш\w*\s+на|ухудш\w*\s+на)\s+(\d+)$", r"-\1", value, flags=re.I)
    value = re.sub(r"^(\d*\s*[DdДд]\s*\d+(?:\s*[+\-]\s*\d+)?)\s*(?:\"|″|”|“|дюйм\w*)$", r"\1″", value, flags=re.I)
    return re.sub(r"^(\d+(?:[.,]\d+)?)(?:-?х)?\s*(?:\"|″|”|“|дюйм\w*)$", r"\1″", value)


#: Numbers the rulings write in words («три юнита», «шести кубиков»), as numerals.
_NUMBER_WORDS = {
    "два": "2", "две": "2", "двух": "2", "двум": "2", "три": "3", "трех": "3", "трём": "3", "трем": "3",
    "трёх": "3", "четыре": "4", "четырех": "4", "четырёх": "4", "пять": "5", "пяти": "5", "шесть": "6",
    "шести": "6", "семь": "7", "семи": "7", "восемь": "8", "восьми": "8", "девять": "9", "девяти": "9",
    "десять": "10", "десяти": "10", "двенадцать": "12", "двенадцати": "12",
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.I)


def measures(ruling: str, ranges: bool = False) -> list[str]:
    """The measures a ruling states, then the numbers it writes in words, each once; with ``ranges``
    the dice results it gives as a range too, in the rulebooks' notation (:func:`result_ranges`)."""
    return list(_measures(ruling, ranges))


@lru_cache(maxsize=4096)
def _measures(ruling: str, ranges: bool) -> tuple[str, ...]:
    """:func:`measures`, read once per text: a card reads the same passages and rules again and again."""
    found = [_inches(m.group(0).strip()) for m in _MEASURED.finditer(ruling)]
    if ranges:
        found += result_ranges(ruling)
    found += [_NUMBER_WORDS[m.group(1).lower()] for m in _NUMBER_WORD.finditer(ruling)]
    return tuple(dict.fromkeys(found))


#: A distance a rule leaves to the unit's datasheet: «до x дюймов», «Разведчики x"».
_X_DISTANCE = re.compile(r"(?<![\w-])[xXхХ](?=\s*(?:\"|″|”|дюйм))")


def given_value(ruling: str, question: str, context: str = "") -> str:
    """``ruling`` with the distance it leaves open («Разведчики x»: «перемещение на расстояние до x
    дюймов») read as the distance the question writes beside that ability's name («способность
    «Разведчики 6"»»): the datasheet's value the player asks about. The name is read from the «Name x»
    phrase of ``ruling`` or of ``context`` (the rest of its rule). ``ruling`` unchanged when the question
    writes no distance beside the name, or two different ones: a distance written elsewhere («Враг в 12"
    от Разведчиков») measures something else."""
    if not question or not _X_DISTANCE.search(ruling):
        return ruling
    given = list(dict.fromkeys(
        n for name in _open_names(ruling + " " + context) for m in _beside(name).finditer(question)
        for n in m.groups() if n))  # «Прыжок 4" или 6"?»: two values, which one is x?
    if len(given) != 1:
        return ruling
    return _X_DISTANCE.sub(given[0], ruling)


#: The ability that leaves a distance open, named before its ``x``: «Разведчики x)», «Прыжок x»».
_OPEN_NAME = re.compile(r"(?<![\w-])([A-Za-zА-ЯЁа-яё][\w-]{2,})\s+[xXхХ](?=\s*(?:[»)\"″”:,.]|$))")


def _open_names(text: str) -> list[str]:
    """The names written before an open ``x`` in ``text``, each once."""
    return list(dict.fromkeys(m.group(1) for m in _OPEN_NAME.finditer(text)))


def _beside(name: str) -> re.Pattern[str]:
    """A distance written right after ``name`` in any case form («Разведчиков 6"», «Прыжок «4 дюйма»»), and
    the other value it is set against («Прыжок 4" или 6"»)."""
    stem = re.escape(name[:max(4, len(name) - 2)])
    unit = r"(?:-?х)?\s*(?:\"|″|”|“|дюйм)"
    return re.compile(stem + r"\w*\s*[«\"]?\s*(\d+)" + unit + r"(?:\w*[»\"]?\s*(?:или|/)\s*(\d+)" + unit + ")?", re.I)


#: A range of results: «от 1 до 3», «1-2», «1–3» (not a measure: «от 1 до 3"» is a distance).
_RANGE = re.compile(r"(?:\bот\s+(\d)\s+до\s+(\d)|(?<![\w.,+\-])(\d)\s*[-–—]\s*(\d))(?![\d\"″”“]|\s*(?:\"|″|дюйм))",
                    re.IGNORECASE)


def result_ranges(ruling: str) -> list[str]:
    """The ranges of dice results a ruling states, as the rulebooks print them: «бросок … от 1 до 3
    всегда проваливается» → ``1-3``, «При выпадении 1-2» → ``1-2`` (single digits, lower first)."""
    found: list[str] = []
    for m in _RANGE.finditer(ruling):
        low, high = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if int(low) < int(high):
            found.append(f"{low}-{high}")
    return found


#: The units a number question may name, and the measures written in each.
_UNITS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (re.compile(r"\b(?:CP|КП|ОК)\b|командн\w*\s+очк|command points?", re.I), re.compile(r"\b(?:CP|КП|ОК)$")),
    (re.compile(r"дюйм|\d\s*[\"″]|\binch|how far|\bрасстояни", re.I), re.compile(r"″$")),
)


def number_lead(ruling: str, question: str = "", rule: str = "") -> str | None:
    """For a how-far / how-many question: the measures the ruling states (``9″``, ``2D6``, ``3+``, ``+1``),
    then those the rest of its rule states (``rule``, :func:`rule_text`: a question asking two things
    gets one sentence, and the other's measure sits beside it — «должны остановиться в 1"» chosen,
    «двигаются на расстояние до D6"» the sentence before). A question naming its unit («сколько CP»,
    «на сколько дюймов») is led only by measures in that unit, or by none when neither states one."""
    ruling, rule = given_value(ruling, question, rule), given_value(rule, question, ruling)
    found = list(dict.fromkeys(measures(ruling) + measures(rule)))
    for asked, written in _UNITS:
        if asked.search(question):
            found = [m for m in found if written.search(m)]
            break
    if not found:
        return None
    return ", ".join(found[:2])


#: A concept weighing less than this (mentioned by about half the passages) is left off an English line.
GENERIC_WEIGHT = 0.25
#: Shortest abbreviation shown beside a concept's English name (one letter — M, S, T — says nothing alone).
MIN_ABBREVIATION = 2


#: A count before a term: digits, dice («D3», «2D6») or a number the ruling writes in words («три»).
_COUNT = re.compile(r"^(?:\d+|\d*[dд]\d+)$", re.IGNORECASE)


def counted_terms(build_dir: Path, ruling: str) -> list[str]:
    """The terms a ruling counts (see :func:`_counted_terms`; none without a build's index)."""
    try:
        index = get_index(build_dir)
    except RulebaseError:
        return []
    return list(_counted_terms(index, ruling))


@lru_cache(maxsize=2048)
def _counted_terms(index: Any, ruling: str) -> tuple[str, ...]:
    """The terms a ruling counts, in English, in text order, each once: a number right before a
    concept's rendering («получает 3 смертельных ранения» → ``3 mortal wounds``, «1 очка командования»
    → ``1 CP``: a concept with an abbreviation of two letters or more by it). A measure
    («6 дюймов»), a dice concept itself and the concepts half the rules name («модели») are left out."""
    terms = list(tokens(ruling))
    if not any(t.text.isdigit() or t.text in _NUMBER_WORDS for t in terms):
        return ()
    build_dir = index.build_dir
    found: list[str] = []
    for match in index.matcher.match_terms(terms, query=False, raw=ruling):
        if match.start == 0:
            continue
        before = terms[match.start - 1]
        number = before.text if _COUNT.match(before.text) else _NUMBER_WORDS.get(before.text)
        if number is None or ruling[before.end:terms[match.start].start].strip():
            continue  # no count, or a comma or bracket between them
        if _MEASURED.match(ruling, before.start):
            continue  # a measure («3 дюйма», «2 CP»): the line gives it already
        if _COUNT.match(match.phrase.replace(" ", "")) or index.concept_weight(match.concept) < GENERIC_WEIGHT:
            continue
        if all(is_caps(t.original, min_letters=1) for t in terms[match.start:match.end]):
            continue  # a numbered step's heading («2 ВЫБЕРИТЕ ЦЕЛИ»), not a count
        name = _counted_name(build_dir, match.concept)
        if name is None or name.lower() in _DICE_NAMES:
            continue  # «2D6 кубика»: the dice notation says it
        if number == "1" and name.endswith("s") and not name.isupper():
            name = name[:-1]  # «1 смертельное ранение»: one mortal wound
        found.append(f"{re.sub('[dDдД]', 'D', number)} {name}")  # «2д6» dice are written 2D6 on an English line
    return tuple(dict.fromkeys(found))


_DICE_NAMES = frozenset({"dice", "die", "dices"})


def _counted_name(build_dir: Path, concept: str) -> str | None:
    """A counted concept's name: its abbreviation of two letters or more («CP»), else its English name
    when that names countable things — a plural ("Mortal wounds", "Supporting attacks"; not "Hit
    roll", whose number is the roll's result, nor "Friendly (models and units)") —, a common noun's
    first letter in lower case ("mortal wounds")."""
    abbreviation = str((records(build_dir).get(concept) or {}).get("abbreviation") or "")
    if len(abbreviation) >= MIN_ABBREVIATION and abbreviation.isupper():
        return abbreviation
    name = english_name(build_dir, concept)
    if not name or not re.fullmatch(r"[A-Za-z][A-Za-z -]*[a-z]s", name):
        return None
    if name[:1].isupper() and name[1:2].islower() and " " in name and name.split(" ", 1)[1][:1].islower():
        return name[0].lower() + name[1:]
    return name


def with_counts(numbers: list[str], counted: Sequence[str]) -> list[str]:
    """The ruling's measures, then the terms it counts that no measure already says («1 CP»)."""
    kept = [c for c in counted if c not in numbers][:MAX_COUNTED]
    return numbers + kept


#: At most this many counted terms on a lead line.
MAX_COUNTED = 3



def distance_lead(ruling: str, rule: str = "", question: str = "") -> str | None:
    """The distances a card's ruling states, then those the rest of its rule states (``rule``: see
    :func:`rule_text`), each once, at most :data:`MAX_DISTANCES` — for a procedure or lookup card,
    whose question names no measure («Где его можно поставить?», «Как двигается самолёт?») yet is
    answered by the rule's distances: a rule listing cases («• Во время второго раунда … в пределах
    6 дюймов», «• Нельзя … ближе чем в 9 дюймах») is cut on a card before its last case. ``None``
    when neither states a distance."""
    ruling, rule = given_value(ruling, question, rule), given_value(rule, question, ruling)
    found = [m for m in dict.fromkeys(measures(ruling) + measures(rule)) if m.endswith("″")]
    if _X_DISTANCE.search(ruling) or _X_DISTANCE.search(rule):
        found = [OPEN_DISTANCE, *found]  # else «9″» alone reads as the move the rule leaves to the datasheet
    return ", ".join(found[:MAX_DISTANCES]) if found else None


#: A distance a rule leaves to the datasheet and the question does not give, as a lead names it.
OPEN_DISTANCE = "x″ (по профилю)"


#: At most this many distances lead a procedure or lookup card (one per case of a short list).
MAX_DISTANCES = 3


#: The rule a where/how card answers reads on into at most this many following leaves of its section.
RULE_LEAVES = 2


def rule_text(index: Any, node_id: str) -> str:
    """The text of the rule a card quotes: the chosen leaf's, then that of the next :data:`RULE_LEAVES`
    leaves of its section, examples left out (the parser cuts a rule's bullets and its summary box
    into leaves of their own). Empty for a leaf the index does not order."""
    features = index.features.get(node_id)
    position = index.order.get(node_id) if features is not None else None
    if features is None or position is None:
        return ""
    section = node_id.rsplit("/", 1)[0]
    ids = index.ordered
    texts = [features.text]
    for leaf_id in ids[position + 1:position + 1 + RULE_LEAVES]:
        if leaf_id.rsplit("/", 1)[0] != section:
            break
        leaf = index.features[leaf_id]
        if leaf.kind != "example":
            texts.append(leaf.text)
    return " ".join(texts)

