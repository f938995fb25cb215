"""The matcher's bounded top ``limit`` (:meth:`FaqMatcher.match` stops scoring entries that can no
longer enter it) gives the same entries, scores and order as scoring every entry the plain way."""

from __future__ import annotations

import math
import random

import pytest

from rulekb.kb.faq.entries import FaqEntry, FaqMatcher, faq_terms, load_faq

ENTRIES = load_faq()
MATCHER = FaqMatcher(ENTRIES)


def plain_match(
    matcher: FaqMatcher, question: str, edition: str | None = None, limit: int | None = None
) -> list[tuple[str, float]]:
    """Every entry sharing a term scored by the cosine of the docstring, term by term (the computation
    the bound must agree with)."""
    terms = faq_terms(question)
    if not terms:
        return []
    weight = matcher._weight
    query_norm = math.sqrt(sum(weight.get(t, matcher._unknown) for t in terms))
    results: list[tuple[float, int]] = []
    for index, entry in enumerate(matcher.entries):
        if edition is not None and entry.edition != edition:
            continue
        profile_dot: float | None = None
        for term in terms:
            if term in weight and term in matcher._profiles[index]:
                profile_dot = (profile_dot or 0.0) + weight[term]
        if profile_dot is None:
            continue
        closest = 0.0
        for doc, norm in zip(matcher._phrasing_sets[index], matcher._phrasing_norms[index], strict=True):
            dot: float | None = None
            for term in terms:
                if term in doc:
                    dot = (dot or 0.0) + weight[term]
            if dot is not None:
                closest = max(closest, dot / norm)
        profile = profile_dot / matcher._profile_norms[index]
        score = (FaqMatcher.PHRASING_WEIGHT * closest + (1 - FaqMatcher.PHRASING_WEIGHT) * profile) / query_norm
        results.append((min(1.0, score), index))
    results.sort(key=lambda item: (-item[0], item[1]))
    if limit is not None:
        results = results[:limit]
    return [(matcher.entries[index].id, round(score, 6)) for score, index in results]


def _questions(count: int, seed: int) -> list[str]:
    """Questions made of words of the entries' phrasings and answers, mixed across entries, plus
    words no entry uses."""
    rng = random.Random(seed)
    words = [w for e in ENTRIES for text in (e.question, *e.variants, e.answer) for w in text.split()]
    out = []
    for _ in range(count):
        picked = rng.sample(words, rng.randint(1, 9))
        if rng.random() < 0.3:
            picked.append(rng.choice(["зюзюка", "фывапр", "quux"]))
        out.append(" ".join(picked))
    return out


def _own(entry: FaqEntry) -> list[str]:
    return [entry.question, *entry.variants]


@pytest.mark.parametrize("limit", [1, 3, 10, 40])
def test_bounded_top_matches_the_plain_cosine(limit: int) -> None:
    editions = [None, *sorted({e.edition for e in ENTRIES})]
    questions = _questions(150, seed=limit) + [q for e in ENTRIES[::7] for q in _own(e)]
    for number, question in enumerate(questions):
        edition = editions[number % len(editions)]
        found = [(entry.id, score) for entry, score in MATCHER.match(question, edition=edition, limit=limit)]
        assert found == plain_match(MATCHER, question, edition=edition, limit=limit), question


def test_unlimited_and_degenerate_limits_match_the_plain_cosine() -> None:
    for question in _questions(40, seed=99):
        every = [(entry.id, score) for entry, score in MATCHER.match(question)]
        assert every == plain_match(MATCHER, question)
        for limit in (0, -1, len(ENTRIES) + 5):
            found = [(entry.id, score) for entry, score in MATCHER.match(question, limit=limit)]
            assert found == every[:limit]
