"""What a passage's sentences are about beyond their own words: the rule its heading or naming line
names, the heading it sits under, the characteristic's entry a sentence belongs to; and the weight of
the question a sentence carries (:func:`carried`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.sentences import NON_RULING, Sentence

__all__ = ["NAMED_CONTEXT", "NAMING", "OTHER_ENTRY", "OWN_HEADING", "carried", "context_scores", "entry_of",
           "heading_lemmas", "labels"]

#: Marks of the sentences that name a passage's rule (its heading, its naming line) …
NAMING = frozenset({"heading", "naming"})
#: … whose question words count this much for each of the passage's ruling sentences (as if it printed them).
NAMED_CONTEXT = 1.0
#: … and the words of the heading a passage sits under that its text never prints, this much.
OWN_HEADING = 1.0
#: In a passage listing labelled entries, a sentence of an entry whose label carries none of the
#: question's words, when another entry's label does, counts this much (see :func:`labels`).
OTHER_ENTRY = 0.5


def carried(lemmas: Iterable[str], weights: dict[str, float], groups: Mapping[str, str] | None = None,
            covered: Iterable[str] = ()) -> float:
    """The question's weight a sentence's ``lemmas`` carry that ``covered`` does not. With ``groups``
    (term → the question word it stands for: an English word's Russian renderings), a question word
    counts once, by the weightiest of its terms the sentence carries (a sentence printing three
    renderings of *charge* answers one word of the question, not three)."""
    seen = set(lemmas)
    done = set(covered)
    if not groups:
        return sum(w for t, w in weights.items() if t in seen and t not in done)
    done_groups = {groups.get(t, t) for t in done if t in weights}
    best: dict[str, float] = {}
    for t, w in weights.items():
        group = groups.get(t, t)
        if t in seen and group not in done_groups and w > best.get(group, 0.0):
            best[group] = w
    return sum(best.values())


def context_scores(sentences: Sequence[Sentence], scores: Sequence[float], weights: dict[str, float],
                   groups: Mapping[str, str] | None, heading: Iterable[str], factor: float) -> list[float]:
    """The weight a passage's context gives its sentences beyond their own words, added to ``scores``
    (each already multiplied by ``factor``, the passage's rank decay): the rule a passage names in its
    heading or naming line («[ДВОЙНОЕ СОЕДИНЕНИЕ] В их описании они известны как парные орудия») is what
    its ruling sentences are about, though they do not repeat its name; so is the heading it sits
    under, for the words the passage never prints (``heading``: «ТАНКОВЫЙ ШОК» over a stratagem's
    text); a characteristic's entry is about its label (:func:`labels`), and another entry's
    sentence is another thing's rule."""
    out = list(scores)
    named = {t for x in sentences if x.mark in NAMING for t in x.lemmas}
    if named:
        out = [score + NAMED_CONTEXT * carried(named, weights, groups, x.lemmas) * factor
               if x.mark not in NON_RULING else score for score, x in zip(out, sentences, strict=True)]
    labelled = labels(sentences)
    if any(carried(label, weights, groups) > 0 for label in labelled):
        out = [(score + NAMED_CONTEXT * carried(label, weights, groups, x.lemmas) * factor
                if carried(label, weights, groups) > 0 else score * OTHER_ENTRY) if label else score
               for score, x, label in zip(out, sentences, labelled, strict=True)]
    unprinted = set(heading) - {t for x in sentences for t in x.lemmas}
    if unprinted:
        out = [score + OWN_HEADING * carried(unprinted, weights, groups) * factor
               if x.mark not in NON_RULING else score for score, x in zip(out, sentences, strict=True)]
    return out


#: A characteristic's label at the start of a sentence: a few words, its abbreviation in brackets, a
#: colon («Урон (D): количество урона …», «Стойкость (T): …»).
_LABEL = re.compile(r"^((?:[\w-]+\s+){0,3}[\w-]+)\s*\([^()]{1,8}\)\s*:")


def labels(sentences: Sequence[Sentence]) -> list[frozenset[str]]:
    """For each sentence of a passage listing labelled entries (at least two labels), the lemmas of
    the label of the entry it belongs to (empty before the first label): «После применения всех модификаторов значение не может быть меньше
    1» after «Урон (D): …» is about the damage, after «Сила (S): …» about the strength."""
    found = [_LABEL.match(x.text) for x in sentences]
    if sum(1 for m in found if m) < 2:
        return []
    out: list[frozenset[str]] = []
    current: frozenset[str] = frozenset()
    for x, m in zip(sentences, found, strict=True):
        if m:
            words = {w.lower() for w in re.findall(r"\w+", m.group(1))}
            current = frozenset(t for t in x.lemmas if t in words or any(w.startswith(t[:4]) for w in words))
        out.append(current)
    return out


def entry_of(sentences: Sequence[Sentence], i: int, weights: dict[str, float],
             groups: Mapping[str, str] | None = None, longest: int = 800) -> list[str]:
    """The sentences of the labelled entry sentence ``i`` belongs to, its label's first, when its
    label carries the question's words (an entry is read whole: «Урон (D): количество урона … После
    применения всех модификаторов значение не может быть меньше 1. Исключением является …»); empty
    otherwise."""
    labelled = labels(sentences)
    if not labelled or not labelled[i] or carried(labelled[i], weights, groups) <= 0:
        return []
    start = i
    while start > 0 and labelled[start - 1] == labelled[i] and not _LABEL.match(sentences[start].text):
        start -= 1
    end = i + 1
    while end < len(sentences) and not _LABEL.match(sentences[end].text):
        end += 1
    picked = [x.text for x in sentences[start:end] if x.mark not in NON_RULING]
    return picked if len(" ".join(picked)) <= longest else []


@lru_cache(maxsize=4096)
def heading_lemmas(heading: str) -> tuple[str, ...]:
    """The lemmas of a passage's heading («ТАНКОВЫЙ ШОК»), kept per heading."""
    return tuple(t.text for t in tokens(heading or ""))
