"""Query text: cleaning a player's question and finding the editions it names.

Part of query understanding (:mod:`rulekb.kb.search.query`): control characters and symbols are dropped and
anything beyond :data:`MAX_QUERY_CHARS` is refused; «в 6-й», «6-ка», «шестёрке», «6th», «10ed»,
«десятка», «kill team», «кт»… name editions (a dice «шестёрка» does not); «как изменился … с 6-й»,
«vs» make a comparison.
"""

from __future__ import annotations

import re
import unicodedata

from rulekb.corpus.editions import Edition, by_id, chronological, display_order, near_editions
from rulekb.corpus.errors import QueryError
from rulekb.corpus.models import EDITIONS
from rulekb.kb.text.analysis import fold

#: A question longer than this is refused (a player's question is a sentence or two).
MAX_QUERY_CHARS = 2000
#: Known edition codes (see :data:`rulekb.corpus.models.EDITIONS`).
EDITION_CODES = tuple(EDITIONS)
#: Editions whose rules are close relatives (one ``family`` in ``sources.toml``: the Kill Team supplement
#: sits on 6th/7th).
NEAR_EDITIONS: dict[str, frozenset[str]] = near_editions()

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

_EDITION_WORD = r"(?:редакц\w*|ред\.?|изд\w*|эдишн\w*|edition|ed\b|версии|версия)"
#: How a question names a numbered edition («10th», «10-ка», «10-я редакция», «в 10-й»); ``{n}`` is the number.
_NUMBER_PATTERNS = (
    r"\b{n}\s?(?:th|e|ed|ed\.)(?![\w])",
    r"\b{n}\s?-?\s?(?:ка|ке|ки|ку|кой)\b",
    r"\b{n}\s?-?\s?(?:я|й|ой|ая|ей|ую)?\s+{edition}",
    r"(?:\bв|\bво|\bиз|\bдля|\bпо|\bи|\bот|\bс|\bчем)\s+{n}\s?-?\s?(?:й|ой|ей|я)\b",
)


def _edition_patterns(edition: Edition) -> tuple[str, ...]:
    """The regexes naming ``edition`` in a question: its number's forms, then its ``mentions`` (``sources.toml``)."""
    numbered = tuple(p.replace("{n}", edition.number) for p in _NUMBER_PATTERNS) if edition.number else ()
    return tuple(p.replace("{edition}", _EDITION_WORD) for p in (*numbered, *edition.mentions))


_EDITION_PATTERNS: dict[str, tuple[str, ...]] = {code: _edition_patterns(by_id()[code]) for code in display_order()}
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
NEWEST_EDITION = chronological()[-1]
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


def term_edition_names(text: str) -> list[str]:
    """The words of ``text`` naming an edition whose name is also a term of its texts («Kill Team»)."""
    folded = fold(text)
    return [match.group(0) for edition, pattern in _EDITION_RE.items() if by_id()[edition].mention_is_term
            for match in pattern.finditer(folded)]


_EDITION_WORD_AFTER = re.compile(r"\s*" + _EDITION_WORD + r"\.?", re.IGNORECASE)


def strip_edition_words(text: str, *, keep_terms: bool = True) -> str:
    """The text without the words that name an edition (they are not about the rule).

    ``keep_terms``: an edition whose name is also a term of its texts («Kill Team») keeps its words."""
    folded = fold(text)
    spans: list[tuple[int, int]] = []
    for edition, pattern in _EDITION_RE.items():
        if keep_terms and by_id()[edition].mention_is_term:
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


