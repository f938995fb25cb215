"""Word forms: the one test of capitals, and the one place a glued word is cut into words.

The 10th-edition machine translation glues keywords in capitals to their neighbours
(«ЭтотТРАНСПОРТНОЕ СРЕДСТВООбладает», «ХАРАКТЕРмодель», «1CPОсновная», «ХАРАКТЕРВ технических»).
:func:`glued_split_points` says where one word breaks; the parser's ``text_clean``
(:func:`rulekb.corpus.normalize.split_glued_keywords`) puts a space there, and kb's matcher cuts its
tokens there (keeping raw offsets), so the two always agree.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from rulekb.corpus.morph import is_known

__all__ = ["WORD", "glued_split_points", "is_caps", "split_word"]

_UP = "А-ЯЁ"
_LO = "а-яё"
#: One word as the tokenizer and the cleaner read it: letters, inner hyphens and apostrophes.
WORD = r"[^\W\d_]+(?:[\-'’][^\W\d_]+)*"
_PARENTHESES = re.compile(r"\([^)]*\)")
_CAPS_RUN_THEN_LOWER = re.compile(rf"[{_UP}]{{2,}}(?=[{_LO}])")
_LOWER_THEN_UPPER = re.compile(rf"(?<=[{_LO}])(?=[{_UP}])")
# «CPОсновная»: two Latin letters or more against Cyrillic. One Latin letter inside a Cyrillic word
# is a look-alike typed for a Cyrillic one («наноcят»), not a word boundary.
_SCRIPT_CHANGE = re.compile(r"(?<=[A-Za-z]{2})(?=[А-Яа-яЁё])|(?<=[А-Яа-яЁё])(?=[A-Za-z]{2})")
_GLUED_PREPOSITIONS = frozenset("ВСКОУИА")
#: A keyword in capitals with a preposition glued to its end has at least this many letters before
#: it («ОБЪЕКТА|В», «ХАРАКТЕР|В»): a shorter one is a word of its own («[ЛАНС]», not «ЛАН С»).
_MIN_KEYWORD_BEFORE_PREPOSITION = 4


def is_caps(text: str, min_letters: int = 2, *, ignore_parentheses: bool = False) -> bool:
    """Written wholly in capitals, with at least ``min_letters`` letters: with the default two, a
    keyword form or an abbreviation (not a capital «А» starting a sentence). A heading line is
    tested with ``min_letters=3, ignore_parentheses=True`` («ФАЗА ДВИЖЕНИЯ (продолжение)»).
    The one test of capitals that the parser, the matchers, the termbase and inflection share."""
    if ignore_parentheses:
        text = _PARENTHESES.sub("", text)
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= min_letters and all(ch.isupper() for ch in letters)


def _caps_run_cut(word: str, start: int, end: int, next_cut: int) -> int | None:
    """Where a run of capitals ``word[start:end]`` glued to lower-case letters ends its word.

    A: its last capital starts the next word («СРЕДСТВО|Обладает», «ДВИЖЕНИЕ|Модели»);
    B: the capitals end the keyword («ХАРАКТЕР|модель», «САМОЛЕТ|и»). The tail must be a known
    word; of both, the one whose keyword is a known word too, then the earlier cut."""
    options: list[tuple[int, int]] = []
    tail_a, tail_b = word[end - 1 : next_cut], word[end:next_cut]
    if end - 1 - start >= 2 and len(tail_a) >= 2 and is_known(tail_a):
        options.append((1 + is_known(word[start : end - 1]), end - 1))
    if is_known(tail_b):
        options.append((1 + is_known(word[start:end]), end))
    elif end - start >= 4 and is_known(word[start:end]):
        options.append((0, end))  # «ПЕРСОНАЖИ|юнитам»: slang the dictionary lacks
    if not options:
        return None  # «ПОдвиг»: a capital typed twice, one word
    return max(options, key=lambda o: (o[0], -o[1]))[1]


@lru_cache(maxsize=50_000)
def glued_split_points(word: str) -> tuple[int, ...]:
    """Where one word (:data:`WORD`) breaks into the words it was glued from: offsets into ``word``,
    in order; empty for a word of its own. Words of three letters or fewer are never cut."""
    if len(word) <= 3:
        return ()
    points: set[int] = {m.start() for m in _LOWER_THEN_UPPER.finditer(word)}
    points |= {m.start() for m in _SCRIPT_CHANGE.finditer(word)}  # «CPОсновная» → CP | Основная
    for run in _CAPS_RUN_THEN_LOWER.finditer(word):
        next_cut = min([p for p in points if p > run.end()] + [len(word)])
        cut = _caps_run_cut(word, run.start(), run.end(), next_cut)
        if cut is not None:
            points.add(cut)
    if (
        not points
        and is_caps(word)
        and word[-1] in _GLUED_PREPOSITIONS
        and len(word) - 1 >= _MIN_KEYWORD_BEFORE_PREPOSITION
        and not is_known(word)
        and is_known(word[:-1])
    ):
        points.add(len(word) - 1)  # «ХАРАКТЕРВ технических»: a preposition glued to a keyword
    return tuple(sorted(p for p in points if 0 < p < len(word)))


def split_word(word: str) -> list[str]:
    """``word`` cut at its :func:`glued_split_points`."""
    cuts = (0, *glued_split_points(word), len(word))
    return [word[a:b] for a, b in itertools.pairwise(cuts) if b > a]
