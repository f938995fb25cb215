"""Sentences that rule, and those that never answer: marked at build time, chosen at ask time.

The build stage :func:`stage_sentences` (after the index) re-joins the sentences the splitter cut
at «(см. стр.» and marks each one of every leaf (``build/sentences.json``):

* ``rule`` — it says what may, must or happens (the default);
* ``heading`` — a title line or a bracketed keyword alone («[ТЯЖЕЛЫЙ]»);
* ``naming`` — a naming line («В их описании они известны как парные орудия»);
* ``flavour`` — narrative with no game mechanics in it («Во вселенной Warhammer 40000 существует
  множество видов танков…»), introductions and pointers to other chapters;
* ``fragment`` — cut text (unbalanced brackets, an opening «(см.» with nothing after it);
* ``example-setup`` — an example's set-up; the sentence that states its result is ``example-result``.

:func:`choose` picks, across the top passages, the sentence(s) carrying what the question asks:
the permission or prohibition for a yes/no question, the number with its unit for how far / how
many, the ordered steps for a procedure; a short passage is shown whole. :func:`yes_no_lead` reads
«Да», «Нет» or «Да, если …» off the chosen ruling.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulekb.kb.text.analysis import lemma, tokens

__all__ = [
    "MARKS",
    "SENTENCES_FILE",
    "Sentence",
    "choose",
    "load_marked",
    "mark_sentences",
    "stage_sentences",
    "yes_no_lead",
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


#: A step's number the splitter cut from its step («1.», «2)»).
_STEP_NUMBER = re.compile(r"\d{1,2}[.)]")
#: A step of a procedure: numbered («1. Объявите нападение.») or a list item.
_STEP = re.compile(r"^(?:\d{1,2}[.)]\s|•|-\s|–\s)")


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
_GLUED = re.compile(r"(?<=[а-яё»)])[.!?](?=[А-ЯЁ][А-ЯЁа-яё])")


def _split_glued(sentences: Sequence[str]) -> list[str]:
    """Sentences split where the source glued two together without a space."""
    out: list[str] = []
    for sentence in sentences:
        start = 0
        for match in _GLUED.finditer(sentence):
            out.append(sentence[start:match.end()].strip())
            start = match.end()
        out.append(sentence[start:].strip())
    return [s for s in out if s]


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
    if stripped.count("(") > stripped.count(")") or _CUT.search(stripped):
        return "fragment"
    body = re.sub(r"^\[[^\]]+\]\s*", "", stripped)
    if _NAMING.search(body) and not re.search(r"\b(можно|нельзя|не\s+мо\w+|должн\w*|если|когда|каждый|позволя\w*|\d)\b", body, re.I):
        return "naming"
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


def stage_sentences(ctx: Any) -> None:
    """Build stage: mark every leaf's sentences (``sentences.json``); runs after the index stage."""
    from rulekb.kb.search.index import read_features

    data = read_features(ctx.out)
    out: dict[str, list[list[Any]]] = {}
    counts: dict[str, int] = {}
    for node in data["nodes"]:
        marked = mark_sentences(node["sentences"], node["kind"])
        out[node["id"]] = [[s, m, [t.text for t in tokens(s)]] for s, m in marked]
        for _, m in marked:
            counts[m] = counts.get(m, 0) + 1
    (ctx.out / SENTENCES_FILE).write_text(json.dumps(out, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    ctx.counts["sentences"] = counts
    from rulekb.kb.ask.form import build_edition_vocabulary

    editions = {node["id"]: node["edition"] for node in data["nodes"]}
    lemmas = {node_id: [list(lem) for _, _, lem in items] for node_id, items in out.items()}
    ctx.counts["edition_vocabulary"] = build_edition_vocabulary(ctx.out, lemmas, editions)


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


# --- choosing ---------------------------------------------------------------------------------

_PERMISSION = re.compile(
    r"\b(можно|нельзя|может|могут|можете|мож[её]т|не\s+мо\w+|должн\w*|обязан\w*|разреша\w*|запрещ\w*|считается|считаются"
    r"|не\s+считается|только)\b",
    re.I,
)
_UNIT = re.compile(r"(\d+\s*(?:\"|″|”|“|''|дюйм\w*)|\d*\s*[DdДд]\s*\d+|\d\+|\b\d+\b)")
#: Bonus of a sentence fitting the question's form, as a share of the best term weight.
W_FORM = 0.5
#: Scores of the second and third passage are multiplied by these (the first is usually right).
RANK_DECAY = (1.0, 0.65, 0.5)
#: A passage's last sentence announcing a list the passage does not print («…сюжетный и
#: случайный:»; a list the next leaf prints is joined to the passage before choosing) counts this much.
ANNOUNCES_NOTHING = 0.5
#: A passage of at most this many characters is shown whole.
SHORT_PASSAGE = 700
#: Longest card text per edition.
MAX_TEXT = 800
#: Forms whose passage is shown whole up to a longer length: a comparison sets each edition's whole
#: rule side by side (its measures are often in a list after the sentence that names the rule).
WHOLE_PASSAGE = {"comparison": MAX_TEXT}


@dataclass(frozen=True)
class Choice:
    node_id: str
    text: str
    score: float
    index: int
    """Position of the best sentence in its passage."""
    best: str = ""
    """The best-scoring sentence itself (a yes/no lead is read off it)."""


def _score(sentence: Sentence, weights: dict[str, float], numbers: set[str], form: str, top: float) -> float:
    seen = set(sentence.lemmas)
    score = sum(w for t, w in weights.items() if t in seen)
    score += sum(0.5 * weights.get(n, top * 0.5) for n in numbers if n in seen)
    # a comparison asks how the mechanic's measures differ: its numbers and dice fit it as they fit a number
    fits = (form == "yesno" and _PERMISSION.search(sentence.text)) or (
        form in ("number", "comparison") and _UNIT.search(sentence.text)) or (
        form == "procedure" and _STEP.match(sentence.text))
    if fits:
        score += W_FORM * top
    if sentence.mark in NON_RULING:
        score *= 0.15
    if len(sentence.lemmas) < 4:
        score *= 0.5
    return score


def choose(
    candidates: Sequence[tuple[str, str, Sequence[Sentence]]],
    weights: dict[str, float],
    numbers: set[str],
    form: str,
) -> Choice | None:
    """The best sentence(s) across ``candidates`` — ``(node_id, kind, sentences)`` in rank order.

    The best-scoring sentence leads; then, while the question has weighty words no chosen sentence
    carries, the sentence of the same passage that carries most of them is added (a question asking
    two things gets both rulings), in text order."""
    top = max(weights.values(), default=1.0)
    best: tuple[float, int, int, list[float]] | None = None
    usable = [c for c in candidates[: len(RANK_DECAY)] if c[2]]
    for rank, (_node_id, kind, sentences) in enumerate(usable):
        decay = RANK_DECAY[rank]
        kind_factor = 1.08 if kind == "summary" else 1.0
        scores = [_score(s, weights, numbers, form, top) * decay * kind_factor for s in sentences]
        if sentences[-1].text.rstrip().endswith(":"):
            scores[-1] *= ANNOUNCES_NOTHING  # it announces what the passage does not print
        i = max(range(len(sentences)), key=lambda k: (scores[k], -k))
        if best is None or scores[i] > best[0]:
            best = (scores[i], rank, i, scores)
    if best is None:
        return None
    score, rank, i, scores = best
    node_id, _kind, sentences = usable[rank]
    text = _expand(sentences, i, scores, form, weights)
    # a question asking two things may find the second ruling in the next passage
    covered = {t for s in sentences if s.text in text for t in s.lemmas}
    total = sum(w for t, w in weights.items() if t in covered) or 1.0  # what the chosen text carries
    extra: tuple[float, str] | None = None
    for other_rank, (_other, _k, other_sentences) in enumerate(usable):
        if other_rank == rank:
            continue
        for s in other_sentences:
            if s.mark in NON_RULING:
                continue
            gain = sum(w for t, w in weights.items() if t in s.lemmas and t not in covered) * RANK_DECAY[other_rank]
            if gain >= OTHER_PASSAGE_GAIN * total and (extra is None or gain > extra[0]):
                extra = (gain, s.text)
    if extra is not None and len(text) + len(extra[1]) <= MAX_TEXT * 3 // 2:
        text = f"{text} {extra[1]}"
    if form in ("number", "yesno") and not _fits(text, form):
        # the measure or the permission asked may be printed by the next passage («…на 12"»)
        fitting = [(_score(s, weights, numbers, form, top) * RANK_DECAY[r], s.text)
                   for r, (_other, _k, other_sentences) in enumerate(usable) if r != rank
                   for s in other_sentences if s.mark not in NON_RULING and _fits(s.text, form)
                   and any(t in s.lemmas for t in weights)]
        if fitting:
            best_fit = max(fitting)
            if best_fit[0] >= FORM_FROM_OTHER * score and len(text) + len(best_fit[1]) <= MAX_TEXT * 3 // 2:
                text = f"{text} {best_fit[1]}"
    return Choice(node_id, text, score, i, sentences[i].text)


#: A further sentence is added when it carries at least this share of the question's weight that
#: the chosen ones do not.
COVER_GAIN = 0.2
#: A sentence of another top passage joins when it carries this share of the question's weight
#: the chosen sentences do not.
OTHER_PASSAGE_GAIN = 0.35
#: A sentence of another top passage carrying what the form asks (a measure, a permission) joins a
#: text without one when it scores at least this share of the chosen sentence.
FORM_FROM_OTHER = 0.3
#: At most this many sentences from one passage.
MAX_SENTENCES = 4
#: At most this many steps of a procedure's ordered list.
MAX_STEPS = 6


def _expand(sentences: Sequence[Sentence], i: int, scores: Sequence[float], form: str,
            weights: dict[str, float]) -> str:
    """The chosen sentence with what it needs: the whole passage when short, the list it announces,
    the steps of a procedure, the sentences carrying the question's other words."""
    ruling = [s for s in sentences if s.mark not in NON_RULING]
    whole = " ".join(s.text for s in ruling)
    if ruling and len(whole) <= WHOLE_PASSAGE.get(form, SHORT_PASSAGE):
        return whole
    chosen = [i]
    steps = [j for j, x in enumerate(sentences) if _STEP.match(x.text) and x.mark not in NON_RULING]
    if form == "procedure" and len(steps) >= 2:
        # a procedure is answered by its ordered steps, whichever sentence names the question's words
        first = steps[0]
        chosen += [j for j in steps[:MAX_STEPS] if j != i]
        if first > 0 and sentences[first - 1].text.rstrip().endswith(":") and first - 1 != i:
            chosen.append(first - 1)
    extra = len(chosen) - 1  # the steps do not take the places of the sentences the question needs
    limit = 4 if form == "procedure" else 2
    k = i
    while k + 1 < len(sentences) and len(chosen) - extra < limit:
        nxt = sentences[k + 1]
        if nxt.mark in NON_RULING:
            break
        if k + 1 in chosen:
            k += 1
            continue
        announces = (sentences[k].text.rstrip().endswith(":") or nxt.text.lstrip().startswith(("•", "-", "–"))
                     or _points_back(nxt.text))
        if announces or form == "procedure" or scores[k + 1] >= 0.6 * scores[i] > 0:
            chosen.append(k + 1)
            k += 1
            continue
        break
    covered = set().union(*(sentences[j].lemmas for j in chosen))
    total = sum(w for t, w in weights.items() if t in sentences[i].lemmas) or 1.0  # what the best carries
    while len(chosen) - extra < MAX_SENTENCES:
        gains = [
            (sum(w for t, w in weights.items() if t in s.lemmas and t not in covered), j)
            for j, s in enumerate(sentences)
            if j not in chosen and s.mark not in NON_RULING
        ]
        if not gains:
            break
        gain, j = max(gains)
        if gain < COVER_GAIN * total:
            break
        chosen.append(j)
        covered |= set(sentences[j].lemmas)
    chosen = _with_form(sentences, chosen, scores, form)
    chosen = _with_lists(sentences, chosen)
    text = " ".join(sentences[j].text for j in sorted(chosen))
    longest = MAX_TEXT * 3 // 2 if form == "procedure" else MAX_TEXT
    if len(text) > longest:
        text = text[:longest].rsplit(" ", 1)[0] + "…"
    return text


#: At most this many items of a list a chosen sentence announces («…следующих условий:») join it.
LIST_ITEMS = 4


def _fits(text: str, form: str) -> bool:
    """A sentence carrying what the form asks: a measure for a number, a permission or prohibition for yes/no."""
    if form == "number":
        return bool(_UNIT.search(text))
    if form == "yesno":
        return bool(_PERMISSION.search(text))
    return True


def _with_form(sentences: Sequence[Sentence], chosen: list[int], scores: Sequence[float], form: str) -> list[int]:
    """``chosen`` with the passage's best sentence carrying what the form asks when none chosen does
    («на сколько ходят мотоциклы и как им труднопроходимка?»: the sentence about difficult terrain
    carries most of the words, the one with «12"» answers «на сколько»)."""
    if form not in ("number", "yesno") or any(_fits(sentences[j].text, form) for j in chosen):
        return chosen
    fitting = [j for j, x in enumerate(sentences)
               if j not in chosen and x.mark not in NON_RULING and scores[j] > 0 and _fits(x.text, form)]
    if not fitting:
        return chosen
    return [*chosen, max(fitting, key=lambda j: (scores[j], -j))]


def _points_back(text: str) -> bool:
    """A sentence announcing a list about the sentence before it («Это возможно по следующим причинам:»)."""
    return text.rstrip().endswith(":") and bool(
        len(text.split()) < 6 or re.match(r"(?:это|они|такие|these|they)\b", text.strip(), re.I))


def _is_item(sentence: Sentence) -> bool:
    return sentence.text.lstrip().startswith(("•", "-", "–"))


def _with_lists(sentences: Sequence[Sentence], chosen: list[int]) -> list[int]:
    """``chosen`` with the items («• …») of each list a chosen sentence announces by ending with «:»,
    and for a chosen item, the sentence announcing its list (an item alone — «• Отряд бежал в фазу
    стрельбы» — does not say what it is a case of: «Некоторым отрядам запрещено объявлять нападение.
    Это возможно по следующим причинам:»)."""
    out = list(chosen)
    for j in sorted(chosen):
        if _is_item(sentences[j]):
            k = j - 1
            while k >= 0 and _is_item(sentences[k]):
                k -= 1
            if k >= 0 and sentences[k].text.rstrip().endswith(":") and k not in out:
                out.append(k)
                # «Это возможно по следующим причинам:» points back at the sentence before it
                if k > 0 and _points_back(sentences[k].text) and sentences[k - 1].mark not in NON_RULING \
                        and k - 1 not in out:
                    out.append(k - 1)
    for j in sorted(out):
        if not sentences[j].text.rstrip().endswith(":"):
            continue
        k = j + 1
        while k < len(sentences) and k - j <= LIST_ITEMS and sentences[k].text.lstrip().startswith(("•", "-", "–")):
            if k not in out:
                out.append(k)
            k += 1
    return out


_NEGATIVE = re.compile(
    r"\b(не\s+может|не\s+могут|не\s+можете|не\s+мож[её]т|нельзя|не\s+разреша\w*|запрещ\w*|не\s+должн\w*|не\s+обязан\w*"
    r"|не\s+считается|не\s+считаются|не\s+получа\w*|не\s+действу\w*|не\s+применя\w*|никогда|не\s+име\w+\s+права"
    r"|cannot|can't|must\s+not|may\s+not|never)\b",
    re.I,
)
_POSITIVE = re.compile(
    r"\b(можно|может|могут|можете|мож[её]т|разреша\w*|должн\w*|обязан\w*|считается|считаются|получа\w*|действу\w*"
    r"|can|may|must)\b",
    re.I,
)
_CONDITION = re.compile(r"\b(?:только\s+)?(?:если|когда|пока|при\s+условии,?\s+что)\s+([^.;:]{3,120}?)(?:,|\.|;|$)", re.I)


#: A negated verb in the present tense («не бросают», «не залегают», «не делает»): a ruling that
#: denies what the question names, read only in the sentence that carries the question's words.
_NEGATED_VERB = re.compile(r"\bне\s+[а-яё]+(?:ют|ят|ет|ит|ут|ат)(?:ся)?\b", re.I)
#: A sentence's share of the question's weight must reach this share of the best sentence's for
#: its polarity to decide the verdict.
VERDICT_SHARE = 0.75


def main_clauses(sentence: str) -> str:
    """``sentence`` without its conditions: the part before «, то» of an «если …, то …» and the
    clauses opening with «если», «когда», «который», «чтобы» … («Если подразделение связано боем с
    врагом, которому оно не может навредить, оно может … провалить тест» — it may)."""
    main = re.split(r",\s*то\s+", sentence, maxsplit=1)[-1] if re.search(r"\bесли\b", sentence, re.I) else sentence
    kept = [c for c in _CLAUSE_SPLIT.split(main) if c and not _SUBORDINATE.match(c)]
    return ", ".join(kept) if kept else sentence


def _polarity(sentence: str, strong_only: bool) -> str | None:
    sentence = main_clauses(sentence)
    if _NEGATIVE.search(sentence) or (not strong_only and _NEGATED_VERB.search(sentence)):
        return "no"
    if _POSITIVE.search(sentence):
        return "yes"
    return None


#: A question asking about more than one («двух лидеров», "two different targets") …
_SEVERAL = re.compile(r"\b(два|двух|две|двум|двумя|оба|обе|обоих|несколько|нескольк\w+|разн\w+|two|both|several"
                      r"|multiple|different)\b", re.I)
#: … and a ruling allowing only one («только один лидер», «по одной и той же цели», "only one").
_ONLY_ONE = re.compile(r"\b(только\s+(?:один|одн\w+)|одн\w+\s+и\s+т\w+\s+же|не\s+более\s+(?:одного|одной)|only\s+one"
                       r"|the\s+same\s+target)\b", re.I)


def only_one_denies(question: str, ruling: str) -> bool:
    """A question asking whether several may do something, answered by a ruling allowing only one."""
    return bool(_SEVERAL.search(question) and _ONLY_ONE.search(ruling))


# --- the verdict on what the question asks (its predicate) ---------------------------------------

#: Modal and linking words of a question: they ask, they are not what is asked.
_MODALS = frozenset({"мочь", "можно", "нельзя", "должный", "обязать", "обязан", "нужно", "надо", "следовать",
                     "быть", "являться", "получаться", "разрешаться", "позволять", "иметь", "стоить"})
#: A clause of the question or the ruling that states a condition or a purpose, not the verdict.
_SUBORDINATE = re.compile(r"^(?:и\s+|а\s+|но\s+)?(?:если|когда|пока|котор\w*|чтобы|дабы|после\s+того|раз|где|при\s+условии"
                          r"|даже\s+если|в\s+случае)\b", re.I)
_CLAUSE_SPLIT = re.compile(r"\s*(?:[,;:()]|\s[—–-]\s)\s*")
#: Negations that limit a measure («не более 6"», «не только») rather than deny.
_LIMITING = re.compile(r"\bне\s+(?:более|менее|больше|меньше|ближе|дальше|только|раньше|позднее|позже)\b", re.I)
_DENIAL = re.compile(r"\b(?:не|нельзя|никогда|ни)\b", re.I)
#: Verbal prefixes too common for four letters of a stem to be the same word.
_PREFIXES = frozenset({"пере", "пред", "подо", "пода", "разо", "расс", "расп", "прои", "пров", "прим", "прив", "прид",
                       "обес", "обез", "пооб", "вызы", "выпо", "выбр", "выби", "уста", "пост", "пола", "полу"})
_WORD = re.compile(r"[а-яё]+", re.I)


def _pos(word: str) -> str | None:
    from rulekb.corpus.morph import morph

    return str(morph().parse(word)[0].tag.POS or "") or None


@lru_cache(maxsize=2048)
def question_predicates(question: str) -> tuple[str, ...]:
    """The lemmas of what a yes/no question asks about: its verbs, infinitives and short forms
    («залечь», «замедляться», «провалить»), and the adjective a linking verb asks about («считается
    ли … видимым»), outside its conditions («если нападает», «чтобы выйти») and its modals."""
    text = re.sub(r"«[^»]*»|\([^)]*\)|\[[^\]]*\]", " ", question.lower().replace("ё", "е"))  # names, asides
    asked = [x for x in re.split(r"(?<=[.!?])\s+", text) if x.strip()]
    # the sentence that asks («… Могу я специально провалить тест?»), not the situation told before it
    asking = next((x for x in reversed(asked) if "?" in x), asked[-1] if asked else "")
    return _predicates(asking) or (_predicates(text) if asking != text else ())


@lru_cache(maxsize=2048)
def question_conditions(question: str) -> tuple[str, ...]:
    """The content lemmas of the conditions a yes/no question states in its asking sentence
    («… отряд, который бежал в фазу стрельбы, …», «…, если её подставка свисает за край»): a ruling
    sentence carrying them is the exception or case that decides."""
    text = re.sub(r"«[^»]*»|\([^)]*\)|\[[^\]]*\]", " ", question.lower().replace("ё", "е"))
    asked = [x for x in re.split(r"(?<=[.!?])\s+", text) if x.strip()]
    asking = next((x for x in reversed(asked) if "?" in x), asked[-1] if asked else "")
    out: list[str] = []
    for clause in _CLAUSE_SPLIT.split(asking):
        if not _SUBORDINATE.match(clause):
            found = re.search(r"\b(?:если|когда|после|пока)\b(.*)", clause)
            if found is None:
                continue
            clause = found.group(1)
        for word in _WORD.findall(clause):
            if _pos(word) in ("NOUN", "VERB", "INFN", "ADJF", "ADJS", "PRTF", "PRTS", "GRND"):
                lem = lemma(word)
                if lem not in _MODALS and lem != "который":
                    out.append(lem)
    return tuple(dict.fromkeys(out))


def _predicates(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for clause in _CLAUSE_SPLIT.split(text):
        if not clause or _SUBORDINATE.match(clause):
            continue
        clause = re.split(r"\b(?:если|когда|чтобы|пока)\b", clause)[0]  # «… замедляется если нападает»
        words = _WORD.findall(clause)
        linking = False
        for word in words:
            if word in ("ли", "не", "же", "бы"):
                continue
            pos = _pos(word)
            lem = lemma(word)
            if lem in _MODALS:
                continue
            if pos in ("VERB", "INFN", "ADJS", "PRTS") or (linking and pos in ("ADJF", "PRTF")):
                out.append(lem)
                linking = lem in ("считаться", "являться", "становиться", "оставаться")
    return tuple(dict.fromkeys(out))


def _same_word(token: str, predicate: str) -> float:
    """1 for the predicate's lemma, 0.5 for a word of its stem («залегать» for «залечь»), else 0."""
    if token == predicate:
        return 1.0
    common = 0
    for a, b in zip(token, predicate, strict=False):
        if a != b:
            break
        common += 1
    if common >= 5 or (common == 4 and min(len(token), len(predicate)) >= 6 and token[:4] not in _PREFIXES):
        return 0.5
    return 0.0


def predicate_verdict(ruling: str, predicates: Sequence[str]) -> tuple[str, str] | None:
    """``("yes" | "no", sentence)``: the polarity of the main clause that states the question's
    predicate, or ``None`` when no main clause states it. A clause denies when «не», «нельзя»,
    «никогда» stand before the predicate in it («Монстры никогда не залегают», «не совершайте …
    спасбросок») or the predicate is its negation («считается невидимой» for «видимым»); conditions
    («если …», «которому оно не может навредить») never decide."""
    if not predicates:
        return None
    best: tuple[float, str, str] | None = None
    for sentence in (x for x in re.split(r"(?<=[.!?;])\s+", ruling) if x.strip()):
        # «если …, то …»: the condition runs up to «то», the verdict is after it
        main = re.split(r",\s*то\s+", sentence, maxsplit=1)[-1] if re.search(r"\bесли\b", sentence, re.I) else sentence
        for clause in _CLAUSE_SPLIT.split(main):
            if not clause or _SUBORDINATE.match(clause):
                continue
            words = _WORD.findall(clause)
            found: dict[str, float] = {}
            first = len(words)
            negated_word = False
            for k, word in enumerate(words):
                lem = lemma(word)
                for p in predicates:
                    quality = _same_word(lem, p)
                    if lem.startswith("не") and lem[2:] == p:  # «невидимой» for «видимым»
                        quality, negated_word = 1.0, True
                    if quality > found.get(p, 0.0):
                        found[p] = quality
                        first = min(first, k)
            score = sum(found.values())
            if score <= 0:
                continue
            before = " ".join(words[:first])
            denied = (negated_word or bool(_DENIAL.search(_LIMITING.sub(" ", before)))
                      or bool(re.search(r"\b(?:нельзя|запрещ\w*)\b", clause, re.I)))
            if best is None or score > best[0]:
                best = (score, "no" if denied else "yes", sentence)
    if best is None:
        return None
    return best[1], best[2]


def yes_no_lead(ruling: str, lang: str = "ru", weights: dict[str, float] | None = None,
                question: str | None = None) -> str | None:
    """«Да», «Нет» or «Да, если …» read off a ruling; ``None`` when no sentence permits or forbids.

    Without ``weights`` the first sentence that permits or forbids decides. With the question's term
    ``weights`` the sentence that carries most of the question's words decides (a ruling often
    permits something else first: «могут стрелять … Монстры никогда не залегают»), and a negated
    verb there («не бросают») counts as a denial."""
    if question and lang != "en":
        verdict = predicate_verdict(ruling, question_predicates(question))
        if verdict is not None and verdict[0] == "no":
            return "Нет."  # the ruling denies what was asked («Монстры никогда не залегают»)
    sentences = [s for s in re.split(r"(?<=[.!?;:])\s+|\s+(?=•)", ruling) if s.strip()]
    order = list(range(len(sentences)))
    if weights:
        from rulekb.kb.text.analysis import lemmas

        seen = [set(lemmas(s)) for s in sentences]
        carried = [sum(w for t, w in weights.items() if t in lems) for lems in seen]
        conditions = set(question_conditions(question)) if question and lang != "en" else set()
        on_condition = [sum(w for t, w in weights.items() if t in conditions and t in lems) for lems in seen]
        if max(on_condition, default=0.0) > 0:
            # the question's condition decides: the sentences stating it (an exception, a case of a list) first
            carried = [c + 2 * k for c, k in zip(carried, on_condition, strict=True)]
        best = max(carried, default=0.0)
        if best > 0:
            order = sorted((i for i in order if carried[i] >= VERDICT_SHARE * best), key=lambda i: -carried[i])
            order += [i for i in range(len(sentences)) if i not in order]
    for position, i in enumerate(order):
        sentence = sentences[i]
        polarity = _polarity(sentence, strong_only=not weights or position > 0)
        if polarity is None and sentence.lstrip().startswith("•"):
            polarity = _list_polarity(sentences, i)  # an item is a case of what its list's lead-in rules
        if polarity == "no":
            return "No." if lang == "en" else "Нет."
        if polarity == "yes":
            return _yes(sentence, lang)
    return None


def _list_polarity(sentences: Sequence[str], i: int) -> str | None:
    """The polarity of the lead-in of the list item ``sentences[i]``: the sentence announcing the
    list («… по следующим причинам:») and the one before it («Некоторым отрядам запрещено …»)."""
    k = i - 1
    while k >= 0 and sentences[k].lstrip().startswith("•"):
        k -= 1
    for j in (k, k - 1):
        if j >= 0 and not sentences[j].lstrip().startswith("•"):
            polarity = _polarity(sentences[j], strong_only=True)
            if polarity is not None:
                return polarity
    return None


def _yes(sentence: str, lang: str) -> str:
    """«Да» or «Да, если …» (the condition the permitting sentence states in three or more words)."""
    condition = _CONDITION.search(sentence)
    if condition is not None and len(condition.group(1).split()) >= 3:
        return "Yes, if the condition below holds." if lang == "en" else f"Да, если {condition.group(1).strip()}."
    return "Yes." if lang == "en" else "Да."
