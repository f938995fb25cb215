"""Sentences that rule, and those that never answer: marked at build time, chosen at ask time.

The build stage (after the index) re-joins the sentences the splitter cut
at «(см. стр.» and marks each one of every leaf (``build/sentences.json``):

* ``rule`` — it says what may, must or happens (the default);
* ``heading`` — a title line or a bracketed keyword alone («[ТЯЖЕЛЫЙ]»);
* ``naming`` — a naming line («В их описании они известны как парные орудия»);
* ``flavour`` — narrative with no game mechanics in it («Во вселенной Warhammer 40000 существует
  множество видов танков…»), introductions and pointers to other chapters;
* ``fragment`` — cut text (unbalanced brackets, an opening «(см.» with nothing after it);
* ``example-setup`` — an example's set-up; the sentence that states its result is ``example-result``.

:func:`rulekb.kb.text.choice.choose` picks, across the top passages, the sentence(s) carrying what
the question asks; :func:`rulekb.kb.text.verdicts.yes_no_lead` reads «Да», «Нет» or «Да, если …» off
the chosen ruling. The build stage that writes the marks is :func:`rulekb.kb.ask.stage.stage_sentences`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rulekb.kb.text.analysis import lemma, tokens

__all__ = [
    "MARKS",
    "NON_RULING",
    "SENTENCES_FILE",
    "STEP",
    "Sentence",
    "load_marked",
    "mark_sentences",
]

SENTENCES_FILE = "sentences.json"
MARKS = ("rule", "heading", "naming", "flavour", "fragment", "example-setup", "example-result")
#: Marks that never answer (only when a passage has nothing else).
NON_RULING = frozenset({"heading", "naming", "flavour", "fragment", "example-setup"})

#: Lemmas of the game's mechanics: a sentence with none of them and no number is not a ruling.
_RULE_WORDS = frozenset(
    lemma(w)
    for w in """
    можно мочь может нельзя должен обязан необходимо нужно следует разрешаться запрещаться
    если когда каждый любой только вместо пока сразу
    модель отряд юнит единица подразделение персонаж транспорт техника машина пехота игрок армия
    бросок бросать кубик кость перебросить переброс результат проверка тест
    дюйм расстояние дистанция дальность радиус линия видимость обзор
    фаза ход раунд этап шаг начало конец
    атака атаковать попадание ранение рана урон повреждение спасбросок сохранение бросок
    стрелять стрельба выстрел оружие рукопашный ближний бой нападение атака рывок движение двигаться переместить
    характеристика сила стойкость лидерство инициатива навык спасение
    цель противник враг вражеский союзный
    получать терять выполнять использовать выбрать выбирать совершать считаться считать применяться действовать
    правило способность стратагема очко
    """.split()
)
_NAMING = re.compile(r"(известн\w*\s+как|(?:далее\s+)?именуем\w*|называ\w*|обозначаются\s+как|known\s+as)", re.I)
#: A naming line's subject pointing back at the rule before it («Это называется …», «В их описании …»).
_POINTS_BACK = re.compile(r"(?:это|эти|этот|эта|такие|такой|такая|они|их|в\s+их)\b", re.I)
#: A naming sentence of at most this many words names only; a longer one with its own subject defines
#: a term («Количество моделей, которыми обладает отряд …, называется его начальной численностью»).
NAMING_WORDS = 8
_MODAL = re.compile(
    r"\b(можно|нельзя|может|могут|можете|мож[её]т|должн\w*|обязан\w*|необходимо|нужно|следует|разреша\w*|запрещ\w*"
    r"|не\s+мо\w+|только|если|когда|каждый\s+раз)\b",
    re.I,
)
_FLAVOUR = re.compile(
    r"(вселенн|галактик|тысячелет|легенд|повествован|эпическ|захватывающ|в\s+этом\s+разделе|в\s+данном\s+разделе"
    r"|данный\s+раздел|добро\s+пожаловать|подробн\w*\s+(?:вы\s+)?(?:узнаете|описан|рассказ)|см\.\s+(?:стр|с)\.\s*\d*\)?\.?$)",
    re.I,
)
_RESULT = re.compile(
    r"(поэтому|значит|итак|таким\s+образом|в\s+итоге|в\s+результате|следовательно|получается|получает|получит|="
    r"|нужно\s+выбросить|необходимо\s+выбросить|бросает\s+\d|бросят\s+\d|всего)",
    re.I,
)
_CUT = re.compile(r"\((?:см\.?|see)?\s*(?:стр\.|с\.|способност\w*|правил\w*)?\s*$", re.I)
_NUMBER = re.compile(r"\d")


@dataclass(frozen=True)
class Sentence:
    text: str
    mark: str
    lemmas: tuple[str, ...]

    @classmethod
    def read(cls, text: str, mark: str = "rule") -> Sentence:
        """``text`` marked ``mark``, its words as the analyser reads them."""
        return cls(text, mark, tuple(t.text for t in tokens(text)))


#: A step's number the splitter cut from its step («1.», «2)»).
_STEP_NUMBER = re.compile(r"\d{1,2}[.)]")
#: A step of a procedure: numbered («1. Объявите нападение.») or a list item.
STEP = re.compile(r"^(?:\d{1,2}[.)]\s|•|-\s|–\s)")


def _join_cut(sentences: Sequence[str]) -> list[str]:
    """Re-join sentences cut after «(см. стр.», «(см. с.» or an abbreviation the splitter took for an end."""
    out: list[str] = []
    for sentence in sentences:
        if out and (
            re.search(r"\((?:см\.\s*)?(?:стр|с)\.$", out[-1])
            or re.search(r"\b(?:см|стр)\.$", out[-1])
            or _STEP_NUMBER.fullmatch(out[-1])  # «1.» «Объявите нападение.»: a numbered step
            or (out[-1].count("(") > out[-1].count(")") and len(out[-1]) < 500)
            or out[-1].rstrip().endswith("«")
        ):
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    return out


#: A sentence end the source printed without a space («…к фазе боя.Юнит считается…»,
#: «…как описано здесь.ВИДИМОСТЬ Модели…»): a lower-case letter, the stop, a capitalised word.
_GLUED = re.compile(r"(?<=[а-яё»)])[.!?](?=[А-ЯЁ][А-ЯЁа-яё])"
                    # «…последовательность действий.1 ВЫБЕРИТЕ …»: a stop glued to a numbered heading
                    r"|(?<=[а-яё])[.!?](?=\d\s*[А-ЯЁ]{3,})")
#: A numbered step's capitalised heading glued to the one-letter word that starts the next sentence
#: («…5 ПОВТОРИТЕ ДЛЯ СЛЕДУЮЩЕГО ПОДХОДЯЩЕГО ОБЪЕКТАВ фазе атаки, …»): the split is before that letter.
_GLUED_HEADING = re.compile(r"\d\s*(?:[А-ЯЁ]{2,}\s+)+[А-ЯЁ]{3,}(?=[ВСКОУИА]\s+[а-яё])")


def _split_glued(sentences: Sequence[str]) -> list[str]:
    """Sentences split where the source glued two together without a space."""
    out: list[str] = []
    for sentence in sentences:
        cuts = sorted({m.end() for m in _GLUED.finditer(sentence)} | {m.end() for m in _GLUED_HEADING.finditer(sentence)})
        start = 0
        for cut in cuts:
            out.append(sentence[start:cut].strip())
            start = cut
        out.append(sentence[start:].strip())
    return [s for s in out if s]


#: A sentence of at least this many words ending with a stop is complete though one of its brackets is
#: never closed (the source lost it: «… (например, ГУРОН ЧЕРНОЕ СЕРДЦЕ Правила, позволяющие …
#: всегда разрешаются после шага «Развертывание армий» …»): it rules, it is no cut text.
COMPLETE_WORDS = 12


def _complete(text: str, words: Sequence[str]) -> bool:
    return len(words) >= COMPLETE_WORDS and bool(re.search(r"[.!?]$", text))


def mark_one(text: str, kind: str, position: int, count: int) -> str:
    """The mark of one sentence of a leaf of ``kind`` (see the module docstring)."""
    stripped = text.strip()
    words = re.findall(r"\w+", stripped)
    lemmas = {t.text for t in tokens(stripped)}
    has_number = bool(_NUMBER.search(stripped))
    modal = bool(_MODAL.search(stripped))
    if stripped.startswith("•") and words:
        return "rule"  # a list item («• Отряд залегает») is part of the rule, however short
    if re.fullmatch(r"\[[^\]]+\]\.?", stripped) or (len(words) <= 4 and not re.search(r"[.!?:;]$", stripped) and not has_number):
        return "heading"
    if stripped.isupper() and len(words) <= 8 and not has_number:
        return "heading"
    if _CUT.search(stripped) or (stripped.count("(") > stripped.count(")") and not _complete(stripped, words)):
        return "fragment"
    body = re.sub(r"^\[[^\]]+\]\s*", "", stripped)
    if _NAMING.search(body) and not re.search(r"\b(можно|нельзя|не\s+мо\w+|должн\w*|если|когда|каждый|позволя\w*|\d)\b", body, re.I) \
            and (body != stripped or _POINTS_BACK.match(body) or len(words) <= NAMING_WORDS):
        return "naming"  # a keyword's or a pronoun's name line; a term's definition («X … называется Y») rules
    if kind == "example":
        if _RESULT.search(stripped) or position == count - 1:
            return "example-result"
        return "example-setup"
    if stripped.endswith(":") and len(words) >= 4:
        return "rule"  # it announces a list of the rule («оба игрока теперь тайно записывают:»)
    if _FLAVOUR.search(stripped) and not (modal and has_number):
        return "flavour"
    if not has_number and not (lemmas & _RULE_WORDS) and not re.search(r"\b(?:не|никогда)\b", stripped, re.I):
        return "flavour"
    return "rule"


def mark_sentences(sentences: Sequence[str], kind: str) -> list[tuple[str, str]]:
    """``(sentence, mark)`` for a leaf's sentences, cut ones re-joined and glued ones split first."""
    joined = _join_cut(_split_glued(sentences))
    return [(s, mark_one(s, kind, i, len(joined))) for i, s in enumerate(joined)]


@lru_cache(maxsize=4)
def _load(path: str, stamp: float) -> dict[str, tuple[Sentence, ...]]:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    return {node: tuple(Sentence(s, m, tuple(lem)) for s, m, lem in items) for node, items in raw.items()}


def load_marked(build_dir: Path) -> dict[str, tuple[Sentence, ...]]:
    """Node id → its marked sentences; empty for a build made before this stage existed."""
    path = build_dir / SENTENCES_FILE
    if not path.is_file():
        return {}
    return _load(str(path), path.stat().st_mtime)
