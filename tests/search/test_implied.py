"""A sentence stands under its section: a specific concept the leaf defines, or whose printed rendering its
headings carry, counts in each of its sentences for the one-sentence share, at ``IMPLIED_WEIGHT``
(:meth:`rulekb.kb.search.ranking._QueryFeatures.cover`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rulekb.kb.search.features import NodeFeatures
from rulekb.kb.search.knowledge_index import KnowledgeIndex
from rulekb.kb.search.ranking import _QueryFeatures
from rulekb.kb.search.searcher import get_index
from rulekb.kb.search.weights import IMPLIED_SPECIFICITY, IMPLIED_WEIGHT
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.vocabulary import LIGHT_WORDS


def lemmas(text: str) -> set[str]:
    return {t.text for t in tokens(text) if t.text not in LIGHT_WORDS and not t.text.isdigit()}


def defining_cases(index: KnowledgeIndex) -> Iterator[tuple[str, str, NodeFeatures]]:
    """``(concept, English name, leaf)``: a specific concept named by its English term, and a leaf of the
    Russian texts defining it that has a sentence printing none of the concept's renderings."""
    for concept_id, entry in index.matcher.concepts.items():
        if not entry.english or index.concept_weight(concept_id) < IMPLIED_SPECIFICITY:
            continue
        printed = set().union(*(lemmas(text) for text, origin, _ in entry.phrases if origin == "rendering"))
        for features in index.features.values():
            if concept_id in features.defines and any(not printed & set(s) for s in features.sentence_lemmas):
                yield concept_id, entry.english, features


def unit_of(query: _QueryFeatures, concept: str) -> int | None:
    return next((i for i, (_, _, c) in enumerate(query.units) if concept in c), None)


def test_a_defined_concept_counts_in_a_sentence_that_does_not_print_it(built: Path) -> None:
    index = get_index(built)
    checked = raised = 0
    for concept, english, features in defining_cases(index):
        leaf = index.leaf_sets[features.id]
        printed = set().union(*(lemmas(t) for t, o, _ in index.matcher.concepts[concept].phrases if o == "rendering"))
        # a sentence without the concept's words, and a word of it the question adds
        sentence = next(set(s) for s in features.sentence_lemmas if not printed & set(s))
        word = next((w for w in sorted(sentence) if w.isalpha() and len(w) > 4 and w in index.vocabulary
                     and not w.isascii()), None)
        if word is None:
            continue
        parsed = index.parse(f"{english} {word}", None)
        if concept not in parsed.concepts:
            continue
        query = _QueryFeatures.of(index, parsed)
        word_units = [i for i, (alternatives, _, c) in enumerate(query.units) if word in alternatives and not c]
        if not word_units:
            continue
        concept_units = [i for i, (_, _, c) in enumerate(query.units) if concept in c]
        if any(word in s and not query.units[i][0].isdisjoint(s) for s in index.sentence_sets[features.id]
               for i in concept_units):
            continue  # a sentence prints the word with the concept's own words: nothing is implied there
        concept_weight = sum(query.units[i][1] for i in concept_units)
        word_weight = query.units[word_units[0]][1]
        _, best = query.cover(leaf, features.heading)
        # the sentence holding the word is credited with the concept at IMPLIED_WEIGHT
        assert best >= word_weight + IMPLIED_WEIGHT * concept_weight - 1e-9, (concept, features.id)
        # and without the section's concepts it is not (another sentence may hold as much by itself)
        query.implied_masks = {}
        query.heading_renderings = []
        _, plain_best = query.cover(leaf, features.heading)
        assert plain_best <= best
        raised += plain_best < best
        checked += 1
        if checked >= 20:
            break
    assert checked >= 5 and raised >= 3


def test_a_heading_that_is_part_of_a_rendering_carries_the_concept(built: Path) -> None:
    """A leaf the termbase does not tag with a concept, under a heading that is a word of the concept's
    printed rendering («СЛУЧАЙНЫЙ» of «случайный выбор»), carries the question's word for it."""
    index = get_index(built)
    checked = 0
    for concept_id, entry in index.matcher.concepts.items():
        if not entry.english or index.concept_weight(concept_id) < IMPLIED_SPECIFICITY:
            continue
        renderings = [lemmas(t) for t, o, _ in entry.phrases if o == "rendering"]
        for features in index.features.values():
            title = lemmas(features.heading)
            if not title or concept_id in features.concepts or concept_id in features.defines:
                continue
            if not any(title <= r for r in renderings if r):
                continue
            parsed = index.parse(entry.english, None)
            if concept_id not in parsed.concepts:
                continue
            query = _QueryFeatures.of(index, parsed)
            position = unit_of(query, concept_id)
            if position is None:
                continue  # its words name another concept first («overwatch»: Fire Overwatch)
            covered, _ = query.cover(index.leaf_sets[features.id], features.heading)
            assert covered >= query.units[position][1], (concept_id, features.id)
            # without its heading's rendering the leaf does not, when nothing else of it holds the word
            leaf = index.leaf_sets[features.id]
            query.heading_renderings = []
            if query.units[position][0].isdisjoint(leaf.text | leaf.heading):
                assert query.cover(leaf, "")[0] < covered
                checked += 1
    assert checked >= 1


def test_a_broad_concept_does_not_stand_under_every_sentence(built: Path) -> None:
    """«Unit», «model», a phase: concepts many rules mention are not implied (specificity below the bar)."""
    index = get_index(built)
    parsed = index.parse("отряд модель фаза стрельбы", None)
    query = _QueryFeatures.of(index, parsed)
    assert query.concept_masks
    assert all(index.concept_weight(c) < IMPLIED_SPECIFICITY for c in query.concept_masks)
    assert not query.implied_masks and not query.heading_renderings
