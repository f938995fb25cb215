"""What a question asks: its form and the edition it names or implies.

:func:`question_form` reads the form from the question's own words — yes/no («можно ли», «может
ли», «обязан ли», «считается ли», "can/does/must"), a number («сколько», «на какое расстояние»,
"how far/many"), a procedure («как», «в каком порядке»), terminology («как переведён», «как
называется в этом переводе», "how is X rendered") or a comparison («чем отличается», «как
изменился», "vs"); anything else is a lookup.

:func:`implied_editions` finds the edition a question implies without naming it: the concepts it
names whose renderings the termbase finds in one edition's books only («инициатива» and
«шаблон» are in the 6th-edition texts alone, «стратагема» and «боевой шок» in the 10th) — read
from the termbase counts of the build (``build/terms.json``), not from a word list.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from rulekb.corpus.editions import default_edition, display_order
from rulekb.kb.ask.form_asking import WH_RU, asking_words, infinitive_asks, main_clauses_ask
from rulekb.kb.store import read_manifest
from rulekb.kb.text.analysis import lemmas as lemmas_of
from rulekb.kb.text.asked import asking_sentence

__all__ = [
    "FORMS",
    "compares_editions",
    "concept_editions",
    "implied_editions",
    "listed_editions",
    "older_editions_asked",
    "question_form",
]

FORMS = ("yesno", "number", "procedure", "terminology", "comparison", "lookup")

_TERMINOLOGY = re.compile(
    r"(как\s+(?:в\s+\S+\s+)?(?:тексте\s+|книге\s+|переводе\s+)?(?:переведен|переведён|переводится|перевели|передан|передаётся|передается|звучит)"
    r"|как\s+(?:это\s+)?называ\w*\s+(?:в|по)\s|перевод\w*\s+(?:термин|слов)|какой\s+перевод|как\s+перевест"
    r"|термин\w*\s+[a-z]|\brender\w*|\btranslat(?:ed|ion|e)\b|what\s+(?:is|are)\s+.+\s+called|\bterm\s+for\b"
    r"|what\s+russian|в\s+русском\s+тексте"
    # «что это за термин», «как он звучит в оригинале» ask what a term is; «в оригинале» alone does not
    r"|что\s+(?:это\s+)?за\s+термин|(?:звуч\w*|называ\w*|пишет\w*|пишут|именуе\w*)\s+в\s+оригинале\b"
    r"|\bв\s+оригинале\s+(?:(?:это|он|она|оно|они)\s+)?(?:[—–-]|называ\w*|звуч\w*|пишет\w*|именуе\w*)"
    r"|\bcalled\s+in\s+the\s+original\b|\bin\s+the\s+original\s+(?:it\s+is\s+|it's\s+)?called\b)",
    re.IGNORECASE,
)
_COMPARISON = re.compile(
    r"(чем\s+.*отлича|отличи\w*|разниц|как\s+измени|что\s+измени|по\s+сравнению|сравн\w*|\bvs\.?\b|\bversus\b"
    r"|\bdiffer(?:s|ence|ences)?\b|\bdifferent\s+(?:from|in)\b|\bcompared?\b|\bchanged?\b.*\bfrom\b)",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"(сколько|скока|скоко|\bскок\b|на\s+какое\s+расстояни|какое\s+расстояни|на\s+сколько|какая\s+дальност|какой\s+радиус"
    r"|на\s+как\w+\s+дистанц|какая\s+дистанц|какой\s+(?:бросок|результат)|на\s+что\s+(?:кида|брос)"
    r"|\bhow\s+(?:far|many|much|long|close|big|large)\b|\bwhat\s+(?:distance|range|roll|size)\b"
    r"|\bwhat\s+(?:do|does|must|should)\s+\w+\s+(?:need\s+to\s+|have\s+to\s+)?roll\b"
    # a measure named by what it is: a bonus, a penalty, a size, a limit («какой штраф», «какого размера»)
    r"|как(?:ой|ая|ое|ие|ого|ую)\s+(?:бонус|штраф|модификатор|размер|диаметр|длин|лимит|предел|максимум|минимум|радиус)\w*"
    r"|\b(?:limit|cap|maximum|minimum)\b)",
    re.IGNORECASE,
)
_YESNO_RU = re.compile(
    r"(\b(?:можно|может|могу|могут|можем|обязан\w*|должен|должна|должны|должно|считается|считаются|нужно|надо"
    r"|разрешено|разрешается|позволено|есть|будет|получается|действует|работает|срабатывает|теряет|"
    r"[а-яё]+ет|[а-яё]+ит|[а-яё]+ют|[а-яё]+ат|[а-яё]+ят)\s+ли\b|\b(?:можн[оа]|нельзя)\b.*\?|\bли\b"
    # «могу я …?», «может он …?»: a modal before its subject asks; «… пройден или нет» asks too
    r"|\b(?:могу|можем|может|можешь|можете|могут|должен|должна|должны|обязан\w*)\s+(?:я|мы|он|она|оно|они|ты|вы)\b.*\?"
    r"|\bили\s+нет\s*\??\s*$)",
    re.IGNORECASE,
)
_YESNO_EN = re.compile(
    r"^\s*(?:so\s+|and\s+|but\s+)?(?:can|could|does|do|did|is|are|am|must|may|should|will|would|has|have)\b",
    re.IGNORECASE,
)
#: The clause that asks after what a question sets out ("In 10th, if my unit can't …, can it …?"):
#: an auxiliary opening the last clause, before its subject.
_WH_EN_OPENING = re.compile(r"^\s*(?:how|what|which|when|where|who|why)\b", re.IGNORECASE)
_YESNO_EN_CLAUSE = re.compile(
    r"[,;:—]\s*(?:so\s+|and\s+|but\s+|then\s+)?(?:can|could|does|do|did|is|are|must|may|should|will|would|has|have)"
    r"\s+(?:it|they|i|we|you|he|she|my|the|a|an|this|that|these|those|its|their|our|your|his|her)\b[^,;:—]*\?\s*$",
    re.IGNORECASE,
)
_PROCEDURE = re.compile(
    r"(в\s+каком\s+порядке|каков\s+порядок|порядок|по\s+шагам|что\s+происходит|что\s+будет|что\s+делать|как\s+"
    r"|\bшаг(?:и|ов|ам)\b|последовательност|алгоритм|\bhow\s+(?:do|does|is|are|to)\b|\bwhat\s+happens\b|\border\b|\bsteps?\b|\bprocedure\b)",
    re.IGNORECASE,
)
#: A short query naming a measure («дальность чарджа», "charge range") asks for a number.
_MEASURE = re.compile(r"(дальност|дистанц|расстояни|радиус|дюйм|\brange\b|\bdistance\b|\binch)", re.IGNORECASE)
_NAMING = re.compile(
    r"(назван\w*|назвал\w*|называ\w*|обозва\w*|обзыва\w*|именова\w*|именуе\w*|звуч\w*|переведен\w*|переведён\w*|переведено|переведены|обозначен\w*|перевод\w*|передан\w*"
    r"|переда[её]тся|передают)",
    re.IGNORECASE,
)
_IN_TRANSLATION = re.compile(r"(в\s+(?:сам\w+\s+)?(?:этом\s+|русском\s+)?(?:переводе|тексте|книг\w*)|[A-Za-z]{3,})")
#: «фолбэк перевод», «овервотч перевод в 10ке»: terms and the noun «перевод» — not «перевод отрядов из
#: резерва», «перевод в резерв», where it governs what is moved (a unit, its models) or where to.
_BARE_TRANSLATION = re.compile(
    r"\bперевод(?:ы)?\b(?!\s+(?:отряд|юнит|подразделен|модел|сил|войск|бойц|воин|отделени|техник|резерв)\w*)"
    r"(?!\s+(?:в|во|из|на|с|со)\s+(?:резерв|стратегическ|глубок|поле|стол|бой|игру|зону)\w*)",
    re.IGNORECASE)
#: «как (в 6ке) обозвали инвуль», «как это назвали»: «как» before a naming verb of the impersonal past
#: plural — the translators named it — asks how the text renders a term, whatever else the question names.
_THEY_NAMED = re.compile(r"\bкак\s+(?:\S+\s+){0,6}?(?:на|обо|пере)?(?:зва|обзыва|имен\w*|окрести|переве)ли\b",
                         re.IGNORECASE)


#: A yes/no question joined to another one («… и можно ли …», "…, and can it …").
_AND_YESNO = re.compile(r"(?:\b(?:и|а)\s+(?:можно|нельзя|может|могут|обязан\w*|должн\w*)\b|\bли\b"
                        r"|\band\s+(?:can|could|does|do|is|are|must|may)\b)", re.IGNORECASE)
#: A number asked beside a yes/no question ("… and is there a penalty?").
_AND_NUMBER = re.compile(r"\b(?:penalty|modifier|штраф\w*|модификатор\w*)\b", re.IGNORECASE)


def second_form(question: str, form: str) -> str | None:
    """The other form a question asking two things asks: a number beside a yes/no question («Can it
    still shoot, and is there a penalty?»), a yes/no beside a number («На сколько … и можно ли …?»)."""
    if form == "yesno" and (_NUMBER.search(question) or _AND_NUMBER.search(question)):
        return "number"
    if form == "number" and _AND_YESNO.search(question):
        return "yesno"
    if form == "comparison":
        return compared_form(question)
    return None


def compared_form(question: str) -> str | None:
    """What a comparison compares, read as the question would be without its editions: a measure
    («насколько далеко … в 7-й и в 10-й?», "how far … in 7th compared with 10th?") or a permission
    («Нужно ли видеть цель … в 6-й и в 10-й?»); ``None`` when it compares a whole mechanic."""
    # the permission compared is read off the question's own words: the conditions and situation
    # :func:`question_form` sets aside would make a whole mechanic's comparison a permission's
    inner = question_form(question, conditions=False)
    return inner if inner in ("number", "yesno") else None


#: Words that compare by themselves over time: a rule that changed changed between editions.
_CHANGE = re.compile(
    r"(как\s+измени|что\s+измени|изменил\w*|поменял\w*|\bбыло\b.*\bстало\b|\bchanged?\b)", re.IGNORECASE)
#: A conjunction setting one thing against another: it compares editions only when an edition is one of its sides.
_AGAINST = re.compile(r"(?:\bvs\b\.?|\bversus\b|\bпротив\b)", re.IGNORECASE)
#: How far either side of «vs» an edition name is read (words).
AGAINST_SIDE = 4


def _names_edition(text: str) -> bool:
    from rulekb.kb.search.query_text import detect_editions  # the query parser's edition names

    return bool(detect_editions(text) or re.search(r"(?<![\w.,+\-])(?:6|7|10)\s?-?\s?(?:я|й|ой|ая|ей|ую|ю|th)\b", text)
                or _OLDER.search(text))


#: A preposition ends a side of «vs»: «пистолет против ассолта | в 10-й» — what follows frames both sides.
_FRAME = re.compile(r"^(?:в|во|по|на|для|при|in|at|on|for|under|with)$", re.IGNORECASE)


def _side(words: Iterable[str]) -> list[str]:
    """One side of «vs»: the words next to it (nearest first), up to :data:`AGAINST_SIDE`, to a preposition
    or a clause's end."""
    side: list[str] = []
    for word in words:
        if _FRAME.match(word) or len(side) >= AGAINST_SIDE:
            break
        side.append(word)
        if re.search(r"[,;:?!.—–]$", word):
            break
    return side


def against_editions(question: str) -> bool | None:
    """Whether the question's «vs»/«против» sets an edition against another («кохеренси 6ка vs 10ка»,
    "old Kill Team rules vs the 10th edition"): an edition named on a side of it (:func:`_side`); ``None`` when the question has no such conjunction. Between rule words («пистолет vs
    ассолт», "the save vs the normal damage") it compares rules, not editions."""
    found: bool | None = None
    for match in _AGAINST.finditer(question):
        before = " ".join(_side(reversed(question[: match.start()].split())))
        after = " ".join(_side(iter(question[match.end():].split())))
        if _names_edition(before) or _names_edition(after):
            return True
        found = False
    return found


def compares_editions(question: str, editions: int) -> bool:
    """Whether a comparing word of ``question`` is about editions (``editions``: how many it names):
    a word of change («как изменился», "changed") always is; «vs»/«против» when an edition is one of its
    sides (:func:`against_editions`); a word of difference («чем отличается», «по сравнению», "differ")
    when the question names an edition. «Heavy vs Assault», «отлично от пехоты» compare rules."""
    if _CHANGE.search(question):
        return True
    against = against_editions(question)
    if against:
        return True
    if editions < 1 or against is False:
        return False  # «Heavy vs Assault в 10-й — в чём разница?» compares two rules of one edition
    return bool(_COMPARISON.search(question))


def question_form(question: str, compare: bool = False, editions: int = 0, conditions: bool = True) -> str:
    """One of :data:`FORMS` for ``question``; ``compare`` when the query parser saw a comparison,
    ``editions`` how many editions it names (two or more: a comparison). ``conditions``: a question
    word of a condition, a told situation or a comparison («где-то», «как обычно») asks nothing."""
    text = question.strip()
    form = _marked_form(text, compare, editions, conditions)
    if form is not None:
        return form
    lowered = asking_words(text) if conditions else text.lower()
    if text.endswith("?") and not WH_RU.search(lowered) and not re.search(r"\b(?:what|how|which|when|where|who|why)\b", lowered):
        return "yesno"
    return "lookup"


def _terse(text: str) -> bool:
    """No question word, no yes/no word, no «?» but a last one («фолбэк перевод?» is as terse)."""
    return not WH_RU.search(text.lower()) and "?" not in text.rstrip(" ?") and not _YESNO_RU.search(text.lower())


def _marked_form(text: str, compare: bool, editions: int, conditions: bool = True) -> str | None:
    """The form the question's words mark; ``None`` when no word does."""
    if _TERMINOLOGY.search(text) or _THEY_NAMED.search(text) or (_NAMING.search(text) and _IN_TRANSLATION.search(text)):
        return "terminology"
    if _BARE_TRANSLATION.search(text) and _terse(text):
        return "terminology"
    if editions >= 2 or (compare and compares_editions(text, editions)):
        return "comparison"
    if _NUMBER.search(text):
        return "number"
    if _YESNO_EN.search(text) or _YESNO_EN.search(asking_sentence(text)) or (
            _YESNO_EN_CLAUSE.search(text) and not _WH_EN_OPENING.match(text)):
        return "yesno"  # "My tank is in engagement range. Can it still shoot?": the sentence that asks
    lowered = asking_words(text) if conditions else text.lower()
    if _YESNO_RU.search(lowered):
        wh = WH_RU.search(lowered)
        # «можно ли …» is yes/no even with a «как» later; «как … можно?» asks for a procedure
        li = re.search(r"\bли\b", lowered)
        if wh is None or (li is not None and li.start() < wh.start()) or re.match(r"^(?:а\s+)?(?:можно|нельзя)", lowered):
            return "yesno"
    if conditions and main_clauses_ask(text):
        return "yesno"  # «Когда отряд вышел из боя, он может стрелять?»: a question word in a condition asks nothing
    if re.search(r"\b(?:можн[оа]|нельзя|может|могут)\b", lowered) and not WH_RU.search(lowered):
        return "yesno"  # a modal and no question word asks yes/no, a measure named or not («… перекинуть дистанцию?»)
    if conditions and infinitive_asks(text):
        return "yesno"  # «закончить ход на маркере цели»: an infinitive alone asks whether it may be done
    if _MEASURE.search(asking_sentence(text)):
        return "number"  # a measure the situation tells («в 3 дюймах лежит объектив. Как мне …?») asks nothing
    if _PROCEDURE.search(lowered):
        return "procedure"
    return None


@lru_cache(maxsize=4)
def _concept_sources(path: str, stamp: float) -> dict[str, frozenset[str]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    # the books of the same build (its manifest), never the source tree's list
    editions = {str(s["id"]): str(s["edition"]) for s in read_manifest(Path(path).parent).get("sources", [])}
    result: dict[str, frozenset[str]] = {}
    for record in data:
        found = {editions[r["source_id"]] for r in record.get("renderings", []) if r.get("count") and r["source_id"] in editions}
        result[str(record["concept"])] = frozenset(found)
    return result


def concept_editions(build_dir: Path) -> dict[str, frozenset[str]]:
    """Concept id → the editions whose books print one of its renderings (from ``terms.json``)."""
    path = build_dir / "terms.json"
    if not path.is_file():
        return {}
    return _concept_sources(str(path), path.stat().st_mtime)


def implied_editions(
    concepts: Sequence[str], editions_of: dict[str, frozenset[str]], shares: dict[str, float] | None = None
) -> list[str]:
    """The edition the question's concepts imply: the one edition every *edition-specific* concept
    (rendered in one edition's books only) is printed in. Concepts named ambiguously (one of several
    concepts of the same words) say nothing; two specific concepts of different editions cancel."""
    specific: list[frozenset[str]] = []
    for concept in concepts:
        if shares is not None and shares.get(concept, 1.0) < 1.0:
            continue
        found = editions_of.get(concept)
        if found and len(found) == 1:
            specific.append(found)
    if not specific:
        return []
    first = specific[0]
    if all(s == first for s in specific):
        return sorted(first)
    return []


def any_latin(words: Iterable[str]) -> bool:
    return any(re.search(r"[a-z]", w, re.IGNORECASE) for w in words)


# --- the vocabulary only one edition uses ---------------------------------------------------------

VOCABULARY_FILE = "edition_vocabulary.json"
#: Longest rendering (in words) looked up.
MAX_NGRAM = 4


def _ngrams(lemmas: Sequence[str]) -> Iterable[tuple[str, ...]]:
    for n in range(1, MAX_NGRAM + 1):
        for i in range(len(lemmas) - n + 1):
            yield tuple(lemmas[i : i + n])


def build_edition_vocabulary(out: Path, sentence_lemmas: dict[str, list[list[str]]], node_editions: dict[str, str]) -> int:
    """Build pass: every termbase rendering printed in the books of one or two editions only, with
    those editions (``edition_vocabulary.json``): the words that imply an edition («инициатива»,
    «боевая единица», «стратагема»). Returns how many were written."""
    terms_path = out / "terms.json"
    if not terms_path.is_file():
        return 0
    present: dict[str, set[tuple[str, ...]]] = {}
    for node_id, sentences in sentence_lemmas.items():
        grams = present.setdefault(node_editions[node_id], set())
        for sentence in sentences:
            grams.update(_ngrams(sentence))
    vocabulary: dict[str, list[str]] = {}
    for record in json.loads(terms_path.read_text(encoding="utf-8")):
        for rendering in record.get("renderings", []):
            key = tuple(lemmas_of(str(rendering["text"])))
            if len(key) < 2 or len(key) > MAX_NGRAM:  # one word is too weak a sign («танк», «террейн»)
                continue
            found = sorted(e for e, grams in present.items() if key in grams)
            if 1 <= len(found) <= 2:
                vocabulary[" ".join(key)] = found
    (out / VOCABULARY_FILE).write_text(json.dumps(vocabulary, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return len(vocabulary)


@lru_cache(maxsize=4)
def _vocabulary(path: str, stamp: float) -> dict[tuple[str, ...], frozenset[str]]:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    return {tuple(k.split(" ")): frozenset(v) for k, v in raw.items()}


def edition_vocabulary(build_dir: Path) -> dict[tuple[str, ...], frozenset[str]]:
    path = build_dir / VOCABULARY_FILE
    if not path.is_file():
        return {}
    return _vocabulary(str(path), path.stat().st_mtime)


def vocabulary_editions(question_lemmas: Sequence[str], vocabulary: dict[tuple[str, ...], frozenset[str]]) -> list[str]:
    """The editions the question's words imply: those every edition-specific rendering it uses is
    printed in (none when two renderings disagree)."""
    found = [vocabulary[g] for g in _ngrams(question_lemmas) if g in vocabulary]
    if not found:
        return []
    common = frozenset.intersection(*found)
    default = default_edition()
    if default in common:  # the default edition leads unmarked questions anyway; only older books' words imply
        return []
    return [e for e in display_order() if e != default and e in common]


_OLDER = re.compile(r"(\b(?:стар(?:ый|ая|ой|ое|ые|ых|ую|ом|ым|ыми|ого|ому|ее|ей|ие|их)|прошл\w+|прежн\w+|предыдущ\w+|old|older|earlier|previous|past)\s+(?:\w+\s+)?"
                    r"(?:книг\w*|редакц\w*|перевод\w*|издани\w*|правил\w*|books?|editions?|translations?|texts?|rules?)"
                    # «раньше» as "in the old days": opening the question («А раньше …?») or with what was
                    # («раньше можно было», «как было раньше») — not «кто бьёт раньше?», «раньше, чем …» (in the turn)
                    r"|(?:^|[.?!]\s*|\bа\s+)раньше\b(?!\s*,?\s*чем\b)"
                    r"|\bраньше\s+(?:было|был[аио]?|можно|нельзя|надо|нужно|мог\w*|разрешал\w*|работал\w*|действовал\w*)\b"
                    r"|\bбыл[оаи]?\s+раньше\b)", re.IGNORECASE)


def older_editions_asked(question: str) -> list[str]:
    """The editions «в старых книгах», «в разных старых переводах», "in the older editions" mean:
    every edition but the default (the newest), in display order; none when the question says nothing of it."""
    if not _OLDER.search(question):
        return []
    default = default_edition()
    return [e for e in display_order() if e != default]


_ORDINAL = r"(\d{1,2})(?:\s*-?\s*(?:й|я|ой|ая|ю|ую|ое|е|ей|ий|th|st|nd|rd))?"
_LISTED = re.compile(
    rf"(?<![\d\w]){_ORDINAL}((?:\s*(?:,|и|или|/|and|or|&)\s*(?:в\s+|in\s+(?:the\s+)?)?\d{{1,2}}(?:\s*-?\s*(?:й|я|ой|ая|ю|ую|ое|е|ей|ий|th|st|nd|rd))?)+)"
    r"\s+(?:редакц\w*|издани\w*|edition\w*|books?|книг\w*)",
    re.IGNORECASE,
)


def listed_editions(question: str) -> list[str]:
    """The editions a list of ordinals before «редакция» names: «книги 6-й и 10-й редакции»,
    «6-я и 10-я редакции», «в 6 и 10 редакции» (each number an edition the manifest has)."""
    known = set(display_order())
    found: list[str] = []
    for match in _LISTED.finditer(question):
        for number in re.findall(r"\d{1,2}", match.group(0)):
            if number in known and number not in found:
                found.append(number)
    return found
