"""One glued-word splitter and one test of capitals, shared by the parser's clean text and kb's matcher.

The word forms below are taken from the corpus texts: the ones on which the parser's clean text and
the matcher's tokens used to disagree, each with the cut the text around it shows to be right.
"""

from __future__ import annotations

import pytest

from rulekb.corpus.normalize import split_glued_keywords
from rulekb.corpus.reader import read_lines
from rulekb.corpus.words import WORD, glued_split_points, is_caps, split_word
from rulekb.kb.text.analysis import TOKEN_RE
from rulekb.kb.text.matcher import analyse

SOURCES = ["10e-core", "6e-rules", "6e-assault", "7e-pp58-67", "kt"]

#: (source, line, word form as printed, the words it is made of)
DECIDED = [
    # a keyword in capitals glued to the next word must split, at the capital that starts it
    ("10e-core", 1649, "ДВИЖЕНИЕМодели", ["ДВИЖЕНИЕ", "Модели"]),  # not «ДВИЖЕНИЕМ одели»
    ("10e-core", 1735, "ЗВЕРИиЛЕТАТЬМодели", ["ЗВЕРИ", "и", "ЛЕТАТЬ", "Модели"]),
    ("10e-core", 1716, "САМОЛЕТи", ["САМОЛЕТ", "и"]),  # not «САМОЛЕ Ти»
    # a preposition glued to the end of a keyword («ОБЪЕКТАВ фазе атаки», «ХАРАКТЕРВ технических»)
    ("10e-core", 967, "ОБЪЕКТАВ", ["ОБЪЕКТА", "В"]),
    ("10e-core", 1270, "ХАРАКТЕРВ", ["ХАРАКТЕР", "В"]),
    # a heading glued to the first word of its text: lower case, then one capital
    ("10e-core", 1445, "ГранатыОтряд", ["Гранаты", "Отряд"]),
    ("10e-core", 1475, "стратегияБудь", ["стратегия", "Будь"]),
    ("10e-core", 268, "стрельбыВаши", ["стрельбы", "Ваши"]),
    ("10e-core", 421, "ЭтотКровожадныйобъявил", ["Этот", "Кровожадныйобъявил"]),
    # the command-point abbreviation glued to the stratagem's type
    ("10e-core", 1401, "CPОсновная", ["CP", "Основная"]),
    # real words stay whole: a weapon ability in brackets, a capital typed twice, a Latin «c»
    # typed for the Cyrillic one
    ("10e-core", 793, "ЛАНС", ["ЛАНС"]),  # «[ЛАНС]», not «ЛАН С»
    ("10e-core", 1309, "ПОдвиг", ["ПОдвиг"]),  # «ЭПИЧЕСКИЙ ПОдвиг», not «П Одвиг»
    ("6e-assault", 19, "наноcят", ["наноcят"]),  # not «нано c ят»
]


@pytest.mark.parametrize(("source_id", "line", "word", "words"), DECIDED)
def test_glued_word_forms_of_the_corpus(source_id: str, line: int, word: str, words: list[str]) -> None:
    assert word in read_lines(source_id)[line - 1], "the word form is printed there"
    assert split_word(word) == words
    assert split_glued_keywords(word) == " ".join(words)  # the parser's clean text
    assert [t.original for t in analyse(word)] == words  # the matcher's tokens


def test_clean_text_and_matcher_cut_every_word_of_the_corpus_alike() -> None:
    forms = {
        m.group(0)
        for source_id in SOURCES
        for line in read_lines(source_id)
        for m in TOKEN_RE.finditer(line)
        if m.lastgroup == "word"
    }
    assert len(forms) > 5000
    differ = [w for w in sorted(forms) if split_glued_keywords(w) != " ".join(t.original for t in analyse(w))]
    assert differ == []


def test_split_points_are_offsets_inside_the_word() -> None:
    assert glued_split_points("ЭтотТРАНСПОРТНОЕ") == (4,)
    assert glued_split_points("СРЕДСТВООбладает") == (8,)
    assert glued_split_points("ПЕХОТАмодели") == (6,)
    assert glued_split_points("ПЕХОТА") == ()
    assert glued_split_points("ПОд") == ()  # three letters or fewer are never cut
    assert WORD in TOKEN_RE.pattern  # the tokenizer reads words as the cleaner does


def test_is_caps_thresholds() -> None:
    assert is_caps("ОШ") and not is_caps("А") and is_caps("А", min_letters=1)
    assert not is_caps("Пехота") and is_caps("ТРАНСПОРТНОЕ СРЕДСТВО")
    heading = "ФАЗА ДВИЖЕНИЯ (продолжение)"
    assert not is_caps(heading) and is_caps(heading, 3, ignore_parentheses=True)
    assert not is_caps("ОШ", 3, ignore_parentheses=True)
