"""Choosing, across a card's top passages, the sentence(s) carrying what the question asks: the
permission or prohibition for a yes/no question, the number with its unit for how far / how many, the
ordered steps for a procedure, the list a passage announces; a short passage is shown whole."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rulekb.kb.text import steps as told
from rulekb.kb.text.context import carried, context_scores, entry_of
from rulekb.kb.text.passage_whole import whole_passage
from rulekb.kb.text.runner_up import with_runner_up
from rulekb.kb.text.sentences import NON_RULING, STEP, Sentence
from rulekb.kb.text.steps import is_titled_procedure, procedure_opening, procedure_steps

__all__ = ["MAX_TEXT", "SHORT_PASSAGE", "Choice", "carried", "choose", "with_lists"]

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
    runner: str = ""
    """The runner-up passage's sentence that rules beside ``text`` (:func:`with_runner_up`), shown after
    the card's text and its lead, which it does not change."""
    runner_node: str | None = None


def _score(sentence: Sentence, weights: dict[str, float], numbers: set[str], form: str, top: float,
           groups: Mapping[str, str] | None = None, compared: str | None = None) -> float:
    seen = set(sentence.lemmas)
    score = carried(seen, weights, groups)
    score += sum(0.5 * weights.get(n, top * 0.5) for n in numbers if n in seen)
    # a comparison asks how the mechanic's measures differ: its numbers and dice fit it as they fit a
    # number, unless it compares a permission («нужно ли …»: ``compared``), which the «может» fits
    fits = (_fitting_form(form, compared) == "yesno" and _PERMISSION.search(sentence.text)) or (
        _fitting_form(form, compared) == "number" and _UNIT.search(sentence.text)) or (
        form == "procedure" and STEP.match(sentence.text))
    if fits:
        score += W_FORM * top
    if sentence.mark in NON_RULING:
        score *= 0.15
    if len(sentence.lemmas) < 4:
        score *= 0.5
    return score


def _fitting_form(form: str, compared: str | None) -> str:
    """The form a sentence fits: a comparison's compared form (a measure by default), else the form."""
    if form == "comparison":
        return compared or "number"
    return form


def choose(
    candidates: Sequence[tuple[str, str, Sequence[Sentence]]],
    weights: dict[str, float],
    numbers: set[str],
    form: str,
    groups: Mapping[str, str] | None = None,
    also: str | None = None,
    conditions: Mapping[str, str] | None = None,
    headings: Mapping[str, Iterable[str]] | None = None,
    asked: dict[str, float] | None = None,
) -> Choice | None:
    """The best sentence(s) across ``candidates`` — ``(node_id, kind, sentences)`` in rank order.

    The best-scoring sentence leads; then, while the question has weighty words no chosen sentence
    carries, the sentence of the same passage that carries most of them is added (a question asking
    two things gets both rulings), in text order. ``groups``: see :func:`carried`; ``also``: a second
    form the question asks («на сколько … и можно ли …?»), whose sentence joins too; ``conditions``:
    the terms of the question's conditions and situation — the list item of the chosen passage that
    carries most of them joins, with its lead-in (the case of the rule the question is about);
    ``headings``: node id → the lemmas of the heading the passage sits under — the words of it the
    passage never prints («ТАНКОВЫЙ ШОК» over a stratagem's text, «СПЕЦИАЛЬНЫЕ ПРАВИЛА» over a list
    of them) count for its ruling sentences as its naming line does (:data:`rulekb.kb.text.context.OWN_HEADING`);
    ``asked``: the weights the leading sentence is chosen by, when they differ from ``weights`` (the
    asking clause's terms over the set-up's: :func:`rulekb.kb.ask.card_parts.asked_weights`) — what
    joins it is still read by ``weights``."""
    leading = asked if asked is not None else weights
    top = max(leading.values(), default=1.0)
    # a comparison's second form is what it compares: the measure or the permission each edition rules
    compared = also if form == "comparison" else None
    best: tuple[float, int, int, list[float]] | None = None
    best_scores: list[tuple[float, int]] = []  # each passage's best score and its sentence
    usable = [c for c in candidates[: len(RANK_DECAY)] if c[2]]
    for rank, (node_id, kind, sentences) in enumerate(usable):
        decay = RANK_DECAY[rank]
        if form == "procedure" and rank and headings and is_titled_procedure(
                sentences, headings.get(node_id, ()), leading, groups, top):
            decay = 1.0  # the procedure under the heading naming what is asked, whatever its rank
        kind_factor = 1.08 if kind == "summary" else 1.0
        scores = [_score(s, leading, numbers, form, top, groups, compared) * decay * kind_factor for s in sentences]
        scores = context_scores(sentences, scores, leading, groups, headings.get(node_id, ()) if headings else (),
                                decay * kind_factor)
        if sentences[-1].text.rstrip().endswith(":"):
            scores[-1] *= ANNOUNCES_NOTHING  # it announces what the passage does not print
        i = max(range(len(sentences)), key=lambda k: (scores[k], -k))
        best_scores.append((scores[i], i))
        if best is None or scores[i] > best[0]:
            best = (scores[i], rank, i, scores)
    if best is None:
        return None
    score, rank, i, scores = best
    node_id, _kind, sentences = usable[rank]
    entry = entry_of(sentences, i, weights, groups, MAX_TEXT)
    text = " ".join(entry) if entry else _expand(sentences, i, scores, form, weights, groups, also, conditions)
    best_text = text if entry else sentences[i].text
    text = _with_second_ruling(usable, rank, text, weights, groups)
    # a comparison sets each edition's whole rule side by side
    runner = with_runner_up(usable, rank, text, score, best_scores, weights, groups) if form != "comparison" else None
    if form == "yesno" and conditions:
        case = _case_elsewhere(usable, rank, text, weights, conditions)
        if case and len(text) + len(case) <= MAX_TEXT * 3 // 2:
            text = f"{text} {case}"
    wanted = (compared if form == "comparison" else form) or ""
    if wanted in ("number", "yesno") and not _fits(text, wanted):
        # the measure or the permission asked may be printed by the next passage («…на 12"»)
        fitting = [(_score(s, weights, numbers, form, top, groups, compared) * RANK_DECAY[r], s.text)
                   for r, (_other, _k, other_sentences) in enumerate(usable) if r != rank
                   for s in other_sentences if s.mark not in NON_RULING and _fits(s.text, wanted)
                   and any(t in s.lemmas for t in weights)]
        if fitting:
            best_fit = max(fitting)
            if best_fit[0] >= FORM_FROM_OTHER * score and len(text) + len(best_fit[1]) <= MAX_TEXT * 3 // 2:
                text = f"{text} {best_fit[1]}"
    return Choice(node_id, text, score, i, best_text, runner[1] if runner else "", runner[0] if runner else None)


#: A further sentence is added when it carries at least this share of the question's weight that
#: the chosen ones do not.
COVER_GAIN = 0.2
#: A sentence of another top passage joins when it carries this share of the question's weight
#: the chosen sentences do not.
OTHER_PASSAGE_GAIN = 0.35
#: A sentence of another top passage carrying what the form asks (a measure, a permission) joins a
#: text without one when it scores at least this share of the chosen sentence.
FORM_FROM_OTHER = 0.3
#: A neighbour of the chosen sentence (the one before it, the ones after it) scoring this share of
#: its score joins it: the rule runs over both («…включает турбоускорение, он может передвинуться на
#: 36"…» before «Если … не включает турбоускорение, он может передвинуться на 2D6"…»).
NEIGHBOUR = 0.6
#: Sentences of the chosen passage scoring this share of the best one's score are tied with it …
TIED = 0.95
#: … and when at least this many are, they are all shown (within the card's length).
TIED_SENTENCES = 3
#: At most this many sentences from one passage.
MAX_SENTENCES = 4
#: At most this many steps of a procedure's ordered list.
MAX_STEPS = 6


def _expand(sentences: Sequence[Sentence], i: int, scores: Sequence[float], form: str,
            weights: dict[str, float], groups: Mapping[str, str] | None = None, also: str | None = None,
            conditions: Mapping[str, str] | None = None) -> str:
    """The chosen sentence with what it needs: the whole passage when short, the list it announces,
    the steps of a procedure, the sentences carrying the question's other words."""
    ruling = [s for s in sentences if s.mark not in NON_RULING]
    whole = " ".join(s.text for s in ruling)
    if ruling and len(whole) <= WHOLE_PASSAGE.get(form, SHORT_PASSAGE):
        return whole
    chosen = [i]
    steps = [j for j, x in enumerate(sentences) if STEP.match(x.text) and x.mark not in NON_RULING]
    if form == "procedure" and len(steps) >= 2:
        # a procedure is answered by its ordered steps, whichever sentence names the question's words
        chosen += [j for j in procedure_steps(sentences, steps[:MAX_STEPS], i, scores, MAX_TEXT * 3 // 2) if j not in chosen]
    tied = [j for j, x in enumerate(sentences) if j not in chosen and x.mark not in NON_RULING and scores[j] >= TIED * scores[i] > 0]
    if len(tied) + 1 >= TIED_SENTENCES:
        chosen += tied  # the passage as a whole is about what is asked (its heading names it): each of them rules
    extra = len(chosen) - 1  # the steps do not take the places of the sentences the question needs
    limit = 4 if form == "procedure" else 2
    if i > 0 and sentences[i - 1].mark not in NON_RULING and i - 1 not in chosen and scores[i - 1] >= NEIGHBOUR * scores[i] > 0:
        chosen.append(i - 1)  # the sentence before scores nearly as much: the rule runs over both
        extra += 1
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
        if announces or form == "procedure" or scores[k + 1] >= NEIGHBOUR * scores[i] > 0:
            chosen.append(k + 1)
            k += 1
            continue
        break
    if form in told.CLOSE_FORMS:
        room = MAX_TEXT * 3 // 2 if form == "procedure" else MAX_TEXT
        if form == "procedure":  # a procedure is told in order: its passage's opening leads into the best sentence …
            chosen += procedure_opening(sentences, chosen, scores, i, room)
        # … and a sentence scoring nearly as much as the best, wherever it stands, rules too
        chosen += told.close_scoring(sentences, chosen, scores, i, told.CLOSE_SHARE, room)
    covered = set().union(*(sentences[j].lemmas for j in chosen))
    total = carried(sentences[i].lemmas, weights, groups) or 1.0  # what the best carries
    while len(chosen) - extra < MAX_SENTENCES:
        gains = [
            (carried(s.lemmas, weights, groups, covered), j)
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
    if also is not None:
        chosen = _with_form(sentences, chosen, scores, also)
    if conditions:
        chosen = _with_case(sentences, chosen, weights, conditions)
    chosen = with_lists(sentences, chosen)
    text = " ".join(sentences[j].text for j in sorted(chosen))
    longest = MAX_TEXT * 3 // 2 if form == "procedure" else MAX_TEXT
    if len(text) > longest:
        text = text[:longest].rsplit(" ", 1)[0] + "…"
    return text


def _with_second_ruling(usable: Sequence[tuple[str, str, Sequence[Sentence]]], rank: int, text: str,
                        weights: dict[str, float], groups: Mapping[str, str] | None) -> str:
    """``text`` with the sentence of another top passage carrying most of the question's weight the
    chosen text does not (:data:`OTHER_PASSAGE_GAIN`): a question asking two things may find the
    second ruling in the next passage."""
    covered = {t for x in usable[rank][2] if x.text in text for t in x.lemmas}
    total = carried(covered, weights, groups) or 1.0  # what the chosen text carries
    extra: tuple[float, str, Sequence[Sentence]] | None = None  # the gain, the sentence, its passage
    room = MAX_TEXT * 3 // 2 - len(text) - 1
    for other_rank, (_other, _k, other_sentences) in enumerate(usable):
        if other_rank == rank:
            continue
        for s in other_sentences:
            if s.mark in NON_RULING:
                continue
            gain = carried(s.lemmas, weights, groups, covered) * RANK_DECAY[other_rank]
            if gain >= OTHER_PASSAGE_GAIN * total and (extra is None or gain > extra[0]):
                extra = (gain, s.text, other_sentences)
    if extra is None:
        return text
    added = whole_passage(extra[2], extra[1], room)
    return f"{text} {added}" if len(text) + len(added) <= MAX_TEXT * 3 // 2 else text


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


def _with_case(sentences: Sequence[Sentence], chosen: list[int], weights: dict[str, float],
               conditions: Mapping[str, str]) -> list[int]:
    """``chosen`` with the list item stating what of the question's situation the chosen sentences
    leave out («Мой отряд … сделал фолбэк …» — «• Эта единица продвинулась вперед или отступила в
    этом ходу» under «…, за исключением случаев, когда выполняется любое из следующих условий:»):
    the item is the case of the rule the question is about."""
    wanted = {t: w for t, w in weights.items() if t in conditions}
    if not wanted:
        return chosen
    covered = {t for j in chosen for t in sentences[j].lemmas}
    # a condition word counts once, by the weightiest of the terms standing for it
    gains = [(carried(s.lemmas, wanted, conditions, covered), -j) for j, s in enumerate(sentences)
             if j not in chosen and s.mark not in NON_RULING and _is_item(s)]
    if not gains or max(gains)[0] <= 0:
        return chosen
    return [*chosen, -max(gains)[1]]


#: A list item of another top passage joins a yes/no card when it states at least this share of the
#: weight of the question's conditions that the chosen text does not state.
CASE_ELSEWHERE = 0.5


def _case_elsewhere(usable: Sequence[tuple[str, str, Sequence[Sentence]]], rank: int, text: str,
                    weights: dict[str, float], conditions: Mapping[str, str]) -> str | None:
    """The list item of another top passage stating the question's condition the chosen text leaves
    out, with its list's lead-in («Некоторым отрядам запрещено объявлять нападение … • Отряд стрелял
    из … Тяжёлого оружия … Даже если … на вскидку» for «можно ли чарджить, если стрелял из тяжёлого
    на вскидку?»): the case the question asks about, ruled by a passage the question's other words
    rank lower. ``None`` when the chosen text states the conditions already or no item states them."""
    wanted = {t: w for t, w in weights.items() if t in conditions}
    total = carried(wanted, wanted, conditions)
    if total <= 0:
        return None
    shown = {t for r, (_n, _k, sentences) in enumerate(usable) if r == rank for x in sentences if x.text in text
             for t in x.lemmas}
    left = carried(wanted, wanted, conditions, shown)  # what of the conditions the chosen text leaves out
    if left <= 0:
        return None
    best: tuple[float, int, int] | None = None
    for r, (_n, _k, sentences) in enumerate(usable):
        if r == rank:
            continue
        for j, x in enumerate(sentences):
            if x.mark in NON_RULING or not _is_item(x) or x.text in text:
                continue
            gain = carried(x.lemmas, wanted, conditions, shown)
            if gain >= CASE_ELSEWHERE * left and (best is None or gain > best[0]):
                best = (gain, r, j)
    if best is None:
        return None
    sentences = usable[best[1]][2]
    picked = with_lists(sentences, [best[2]])
    if len(picked) < 2:
        return None  # an item without the lead-in saying what it is a case of
    return " ".join(sentences[j].text for j in sorted(picked) if sentences[j].text not in text)


def _points_back(text: str) -> bool:
    """A sentence announcing a list about the sentence before it («Это возможно по следующим причинам:»)."""
    return text.rstrip().endswith(":") and bool(
        len(text.split()) < 6 or re.match(r"(?:это|они|такие|these|they)\b", text.strip(), re.I))


def _is_item(sentence: Sentence) -> bool:
    return sentence.text.lstrip().startswith(("•", "-", "–"))


def with_lists(sentences: Sequence[Sentence], chosen: list[int]) -> list[int]:
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


