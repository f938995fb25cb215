"""Which FAQ entry a question asks (:func:`match_faq`).

The matcher is deliberately small: lemma sets (:func:`rulekb.kb.text.analysis.lemmas`) of the question and of
each variant, weighted by inverse entry frequency, compared by cosine. Only for this matching a
short list of function words is ignored; game words such as «не» or «только» are kept.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence

from rulekb.kb.faq.model import FaqEntry
from rulekb.kb.text.analysis import lemma, lemmas

__all__ = ["DEFAULT_THRESHOLD", "FaqMatcher", "faq_matcher", "faq_terms", "match_faq"]

#: Scores at or above this mean «this FAQ entry answers the question» (see ``tests/faq``).
DEFAULT_THRESHOLD = 0.3

#: Function words ignored only when matching questions (lemmatised below, so any form matches).
_STOP_WORDS = """
а и или но да же ли бы вот ну то это этот тот такой так как какой каков что кто чей где куда когда
там тут здесь ещё уже вообще просто вдруг очень тоже также ведь лишь
в во на с со к ко по о об обо от до из у за для при про над под через без между перед
я ты он она оно мы вы они мой твой свой наш ваш его её их меня мне нас нам вас вам себя
быть есть был было будет являться
the a an is are was be been of to in on at for and or by with from as it its this that
i you we they my your our do does did can could should would how what which who when where
if then than about into there here any some me us
"""
#: Edition markers («в 6-й редакции», «в десятке», «в КТ», «kill team»): the edition is a filter
#: (``edition=``), so these words would only make every entry of an edition look alike.
_EDITION_WORDS = """
редакция edition th й ке ка ку ки кт килл килла тим kill team
шестой шестая шестёрка седьмой седьмая семёрка десятый десятая десятка
"""
_IGNORED: frozenset[str] = frozenset(lemma(word) for word in (_STOP_WORDS + _EDITION_WORDS).split())
#: Russian slang and inflection defeat the lemmatiser now and then («овервотчем» → «овервотчий»,
#: «инвулю» → «инвуля»), so every longer word also yields its first letters as an extra feature.
_STEM = 5


def faq_terms(text: str) -> frozenset[str]:
    """The features the matcher compares: lemmas less function and edition words, plus each longer
    word's first letters."""
    terms: set[str] = set()
    for term in lemmas(text):
        if term in _IGNORED:
            continue
        terms.add(term)
        if len(term) >= _STEM and term.isalpha():
            terms.add("~" + term[:_STEM])
    return frozenset(terms)


class FaqMatcher:
    """Cosine over lemma sets weighted by inverse entry frequency, precomputed once per entry list.

    Each entry has its phrasings (the question and each variant) and a profile (all phrasings plus
    the answer). Its score blends the cosine with the closest phrasing (weight 0.7) and with the
    profile (0.3), so a question in words of its own still reaches the entry whose answer uses
    them. Words no entry uses count against the question with the highest weight. Scores lie in
    [0, 1]; the same lemmas as a phrasing score at least 0.7.
    """

    PHRASING_WEIGHT = 0.7

    def __init__(self, entries: Sequence[FaqEntry]) -> None:
        self.entries: tuple[FaqEntry, ...] = tuple(entries)
        phrasings = [[faq_terms(e.question), *(faq_terms(v) for v in e.variants)] for e in self.entries]
        profiles = [
            frozenset().union(*docs, faq_terms(e.answer))
            for docs, e in zip(phrasings, self.entries, strict=True)
        ]
        self._profiles: list[frozenset[str]] = profiles
        self._positions: dict[str, int] = {e.id: i for i, e in enumerate(self.entries)}
        count = len(self.entries)
        frequency: dict[str, int] = {}
        for profile in profiles:
            for term in profile:
                frequency[term] = frequency.get(term, 0) + 1
        #: squared inverse entry frequency of each term
        self._weight: dict[str, float] = {t: math.log(1 + count / n) ** 2 for t, n in frequency.items()}
        self._unknown = math.log(1 + count) ** 2
        self._phrasing_norms: list[list[float]] = []
        #: each entry's phrasings as term sets, and the smallest norm among them (the bound in :meth:`match`)
        self._phrasing_sets: list[list[frozenset[str]]] = phrasings
        self._shortest_norms: list[float] = []
        self._profile_norms: list[float] = []
        self._profile_postings: dict[str, list[int]] = {}
        for index, (docs, profile) in enumerate(zip(phrasings, profiles, strict=True)):
            self._phrasing_norms.append([self._norm(doc) for doc in docs])
            self._shortest_norms.append(min(self._phrasing_norms[-1]))
            self._profile_norms.append(self._norm(profile))
            for term in profile:
                self._profile_postings.setdefault(term, []).append(index)

    def uncovered(self, question: str, entry: FaqEntry) -> float:
        """Share of ``question``'s term weight that ``entry``'s phrasings and answer never use (0 when
        the entry covers every word of the question; words no entry uses weigh the most)."""
        terms = faq_terms(question)
        if not terms:
            return 1.0
        index = self._positions.get(entry.id)
        if index is None:
            return 1.0
        profile = self._profiles[index]
        total = sum(self._weight.get(t, self._unknown) for t in terms)
        missing = sum(self._weight.get(t, self._unknown) for t in terms if t not in profile)
        return missing / total if total else 1.0

    def _norm(self, terms: Iterable[str]) -> float:
        return math.sqrt(sum(self._weight[t] for t in terms)) or 1.0

    def match(
        self, question: str, edition: str | None = None, limit: int | None = None
    ) -> list[tuple[FaqEntry, float]]:
        """Entries that share terms with ``question``, best first, as ``(entry, score)``.

        With a ``limit`` only the entries that can still reach the top ``limit`` are scored in full:
        an entry's phrasings are subsets of its profile, so its profile dot over its shortest
        phrasing bounds its closest phrasing, and an entry whose bound falls below the ``limit``-th
        score so far cannot enter. Every score is summed in the same order as the full computation,
        so the scores, and the order, are the same as without the bound."""
        terms = faq_terms(question)
        if not terms:
            return []
        query_norm = math.sqrt(sum(self._weight.get(t, self._unknown) for t in terms))
        weights = self._weight
        known = [(term, weight) for term in terms if (weight := weights.get(term)) is not None]
        profile_dots: dict[int, float] = {}
        postings = self._profile_postings
        for term, weight in known:
            for index in postings[term]:
                profile_dots[index] = profile_dots.get(index, 0.0) + weight
        if edition is not None:
            entries = self.entries
            profile_dots = {i: dot for i, dot in profile_dots.items() if entries[i].edition == edition}
        phrasing = self.PHRASING_WEIGHT
        rest = 1 - self.PHRASING_WEIGHT
        profile_norms = self._profile_norms
        if limit is None or limit < 1 or limit >= len(profile_dots):
            # every entry is scored: in the order the dots were summed, with no bound to stop at
            order: list[tuple[float, int, float]] = [(0.0, i, dot) for i, dot in profile_dots.items()]
            bounded = False
        else:
            # a heap of negated bounds: the entry that may score highest comes out first
            shortest = self._shortest_norms
            order = [
                (-(phrasing * (dot / shortest[i]) + rest * (dot / profile_norms[i])) / query_norm, i, dot)
                for i, dot in profile_dots.items()
            ]
            heapq.heapify(order)
            bounded = True
        top = limit or 0
        profiles = self._profiles
        phrasing_sets = self._phrasing_sets
        phrasing_norms = self._phrasing_norms
        results: list[tuple[float, int]] = []
        best: list[float] = []  # the best ``limit`` scores so far, smallest first (a heap)
        while order:
            if bounded:
                negated, index, profile_dot = heapq.heappop(order)
                if len(best) >= top and -negated < best[0]:
                    break
            else:
                _, index, profile_dot = order.pop()
            profile_terms = profiles[index]
            shared = [(term, weight) for term, weight in known if term in profile_terms]
            closest = 0.0
            for doc, norm in zip(phrasing_sets[index], phrasing_norms[index], strict=True):
                dot = 0.0
                for term, weight in shared:
                    if term in doc:
                        dot += weight
                if dot and dot / norm > closest:
                    closest = dot / norm
            score = min(1.0, (phrasing * closest + rest * (profile_dot / profile_norms[index])) / query_norm)
            results.append((score, index))
            if bounded:
                if len(best) < top:
                    heapq.heappush(best, score)
                elif score > best[0]:
                    heapq.heapreplace(best, score)
        results.sort(key=lambda item: (-item[0], item[1]))
        if limit is not None:
            results = results[:limit]
        return [(self.entries[index], round(score, 6)) for score, index in results]


_MATCHERS: dict[tuple[int, ...], FaqMatcher] = {}


def faq_matcher(entries: Sequence[FaqEntry]) -> FaqMatcher:
    """The matcher over ``entries``, built once and reused while the same entry objects are passed."""
    key = tuple(map(id, entries))
    matcher = _MATCHERS.get(key)
    if matcher is None:
        if len(_MATCHERS) >= 8:
            _MATCHERS.pop(next(iter(_MATCHERS)))
        matcher = _MATCHERS[key] = FaqMatcher(entries)
    return matcher


def match_faq(
    question: str, entries: Sequence[FaqEntry], edition: str | None = None, limit: int | None = None
) -> list[tuple[FaqEntry, float]]:
    """Find the FAQ entries ``question`` asks, best first, each with a score in [0, 1].

    ``edition`` keeps only entries of that edition. The index over ``entries`` is built once and
    reused while the same entry objects are passed (the cache keeps them alive, so their ids cannot
    be reused). A score at or above :data:`DEFAULT_THRESHOLD` means «this entry answers it».
    """
    return faq_matcher(entries).match(question, edition=edition, limit=limit)
