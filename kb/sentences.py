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

from kb.analysis import lemma, tokens

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
    модель отряд юнит единица подразделение персонаж транспорт техника машина пехота
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


def _join_cut(sentences: Sequence[str]) -> list[str]:
    """Re-join sentences cut after «(см. стр.», «(см. с.» or an abbreviation the splitter took for an end."""
    out: list[str] = []
    for sentence in sentences:
        if out and (
            re.search(r"\((?:см\.\s*)?(?:стр|с)\.$", out[-1])
            or re.search(r"\bсм\.$", out[-1])
            or (out[-1].count("(") > out[-1].count(")") and len(out[-1]) < 500)
            or out[-1].rstrip().endswith("«")
        ):
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    return out


def mark_one(text: str, kind: str, position: int, count: int) -> str:
    """The mark of one sentence of a leaf of ``kind`` (see the module docstring)."""
    stripped = text.strip()
    words = re.findall(r"\w+", stripped)
    lemmas = {t.text for t in tokens(stripped)}
    has_number = bool(_NUMBER.search(stripped))
    modal = bool(_MODAL.search(stripped))
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
    if _FLAVOUR.search(stripped) and not (modal and has_number):
        return "flavour"
    if not has_number and not (lemmas & _RULE_WORDS) and not re.search(r"\b(?:не|никогда)\b", stripped, re.I):
        return "flavour"
    return "rule"


def mark_sentences(sentences: Sequence[str], kind: str) -> list[tuple[str, str]]:
    """``(sentence, mark)`` for a leaf's sentences, cut ones re-joined first."""
    joined = _join_cut(sentences)
    return [(s, mark_one(s, kind, i, len(joined))) for i, s in enumerate(joined)]


def stage_sentences(ctx: Any) -> None:
    """Build stage: mark every leaf's sentences (``sentences.json``); runs after the index stage."""
    from kb.index import read_features

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
    from kb.question_form import build_edition_vocabulary

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
        form in ("number", "comparison") and _UNIT.search(sentence.text))
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
    return Choice(node_id, text, score, i, sentences[i].text)


#: A further sentence is added when it carries at least this share of the question's weight that
#: the chosen ones do not.
COVER_GAIN = 0.2
#: A sentence of another top passage joins when it carries this share of the question's weight
#: the chosen sentences do not.
OTHER_PASSAGE_GAIN = 0.35
#: At most this many sentences from one passage.
MAX_SENTENCES = 4


def _expand(sentences: Sequence[Sentence], i: int, scores: Sequence[float], form: str,
            weights: dict[str, float]) -> str:
    """The chosen sentence with what it needs: the whole passage when short, the list it announces,
    the steps of a procedure, the sentences carrying the question's other words."""
    ruling = [s for s in sentences if s.mark not in NON_RULING]
    whole = " ".join(s.text for s in ruling)
    if ruling and len(whole) <= WHOLE_PASSAGE.get(form, SHORT_PASSAGE):
        return whole
    chosen = [i]
    limit = 4 if form == "procedure" else 2
    k = i
    while k + 1 < len(sentences) and len(chosen) < limit:
        nxt = sentences[k + 1]
        if nxt.mark in NON_RULING:
            break
        announces = sentences[k].text.rstrip().endswith(":") or nxt.text.lstrip().startswith(("•", "-", "–"))
        if announces or form == "procedure" or scores[k + 1] >= 0.6 * scores[i] > 0:
            chosen.append(k + 1)
            k += 1
            continue
        break
    covered = set().union(*(sentences[j].lemmas for j in chosen))
    total = sum(w for t, w in weights.items() if t in sentences[i].lemmas) or 1.0  # what the best carries
    while len(chosen) < MAX_SENTENCES:
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
    text = " ".join(sentences[j].text for j in sorted(chosen))
    longest = MAX_TEXT * 3 // 2 if form == "procedure" else MAX_TEXT
    if len(text) > longest:
        text = text[:longest].rsplit(" ", 1)[0] + "…"
    return text


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


def _polarity(sentence: str, strong_only: bool) -> str | None:
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


def yes_no_lead(ruling: str, lang: str = "ru", weights: dict[str, float] | None = None) -> str | None:
    """«Да», «Нет» or «Да, если …» read off a ruling; ``None`` when no sentence permits or forbids.

    Without ``weights`` the first sentence that permits or forbids decides. With the question's term
    ``weights`` the sentence that carries most of the question's words decides (a ruling often
    permits something else first: «могут стрелять … Монстры никогда не залегают»), and a negated
    verb there («не бросают») counts as a denial."""
    sentences = [s for s in re.split(r"(?<=[.!?;])\s+", ruling) if s.strip()]
    order = list(range(len(sentences)))
    if weights:
        from kb.analysis import lemmas

        words = [set(lemmas(s)) for s in sentences]  # each sentence analysed once, not once per term
        carried = [sum(w for t, w in weights.items() if t in here) for here in words]
        best = max(carried, default=0.0)
        if best > 0:
            order = sorted((i for i in order if carried[i] >= VERDICT_SHARE * best), key=lambda i: -carried[i])
            order += [i for i in range(len(sentences)) if i not in order]
    for position, i in enumerate(order):
        sentence = sentences[i]
        polarity = _polarity(sentence, strong_only=not weights or position > 0)
        if polarity == "no":
            return "No." if lang == "en" else "Нет."
        if polarity == "yes":
            condition = _CONDITION.search(sentence)
            if condition is not None and len(condition.group(1).split()) >= 3:
                return "Yes, if the condition below holds." if lang == "en" else f"Да, если {condition.group(1).strip()}."
            return "Yes." if lang == "en" else "Да."
    return None
