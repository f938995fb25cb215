"""A word naming several concepts («овервотч»: the 10th edition's Fire Overwatch and the older editions'
overwatch) stands for each of them when the question names editions, the one those editions render
first; with no edition named it is read in its first concept's sense alone
(:func:`rulekb.kb.search.query._name_concepts`, ``QueryWord.concepts``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rulekb.corpus.reader import find_source
from rulekb.kb.ask.answer import coverage
from rulekb.kb.search.knowledge_index import KnowledgeIndex
from rulekb.kb.search.query import ParsedQuery
from rulekb.kb.search.ranking import _QueryFeatures
from rulekb.kb.search.searcher import get_index

#: How a question names each edition (the forms :func:`detect_editions` reads).
EDITION_WORDS = {"6": "в 6-й редакции", "7": "в 7-й редакции", "10": "в 10-й редакции", "kt": "в Kill Team"}


def rendered_editions(index: KnowledgeIndex, concept: str) -> set[str]:
    edition_of = index.matcher.editions.get
    return {
        edition_of(source) or find_source(source).edition
        for _, origin, source in index.matcher.concepts[concept].phrases
        if origin == "rendering"
    }


def shared_words(index: KnowledgeIndex) -> Iterator[tuple[str, str, list[str]]]:
    """``(word, edition, concepts)``: a one-word question naming several concepts, an edition that renders
    only some of them, and the concepts it names."""
    seen: set[str] = set()
    for entry in index.matcher.concepts.values():
        for text, origin, _ in entry.phrases:
            if origin == "rendering" or " " in text or len(text) < 5 or text.lower() in seen:
                continue
            seen.add(text.lower())
            parsed = index.parse(text, None)
            if len(parsed.concepts) < 2 or len([w for w in parsed.words if not w.light]) != 1:
                continue
            editions = {c: rendered_editions(index, c) for c in parsed.concepts}
            for edition in EDITION_WORDS:
                rendering = [c for c in parsed.concepts if edition in editions[c]]
                if rendering and len(rendering) < len(parsed.concepts) and parsed.concepts[0] not in rendering:
                    yield text, edition, parsed.concepts


def content_word(parsed: ParsedQuery) -> tuple[str, ...]:
    (word,) = [w for w in parsed.words if not w.light]
    return word.named


def test_with_an_edition_named_a_shared_word_stands_for_each_concept_that_edition_first(built: Path) -> None:
    index = get_index(built)
    checked = 0
    for text, edition, concepts in shared_words(index):
        plain = index.parse(text, None)
        assert content_word(plain) == (concepts[0],), text  # no edition: the first concept's sense
        named = content_word(index.parse(f"{text} {EDITION_WORDS[edition]}", None))
        assert set(named) >= set(concepts), (text, edition)
        assert edition in rendered_editions(index, named[0]), (text, edition, named)
        checked += 1
    assert checked >= 3


def test_a_leaf_carrying_the_second_concept_is_covered(built: Path) -> None:
    """The reranker's coverage and ``ask``'s confidence read every concept of the word: a leaf of the named
    edition carrying only the concept that edition renders counts the word as found."""
    index = get_index(built)
    checked = 0
    for text, edition, concepts in shared_words(index):
        parsed = index.parse(f"{text} {EDITION_WORDS[edition]}", None)
        first = content_word(parsed)[0]
        others = set(concepts) - {first}
        query = _QueryFeatures.of(index, parsed)
        for features in index.features.values():
            leaf = index.leaf_sets[features.id]
            if features.edition != edition or first not in leaf.concepts or leaf.concepts & others:
                continue
            if not query.unit_terms.isdisjoint(leaf.text | leaf.heading):
                continue  # the word itself is printed there
            covered, _ = query.cover(leaf, features.heading)
            assert covered >= query.units_total - 1e-9, (text, features.id)
            assert coverage(index, parsed, features) == 1.0, (text, features.id)
            # read as the first concept alone, the same leaf carries nothing of the word
            plain = index.parse(text, None)
            if first != content_word(plain)[0]:
                assert coverage(index, plain, features) == 0.0, (text, features.id)
            checked += 1
            break
    assert checked >= 2


def edition_phrases(index: KnowledgeIndex) -> Iterator[tuple[str, str, str]]:
    """``(concept, phrase, edition)``: a phrase of several words naming a concept that one edition's text
    renders, and another edition."""
    for concept, entry in index.matcher.concepts.items():
        editions = rendered_editions(index, concept)
        if len(editions) != 1:
            continue
        for text, origin, _ in entry.phrases:
            if origin != "rendering" and len(text.split()) > 1:
                for edition in EDITION_WORDS:
                    if edition not in editions:
                        yield concept, text, edition


def test_a_phrase_gives_way_to_the_named_editions_name_of_its_mechanic(built: Path) -> None:
    """«fires Overwatch» in a Kill Team question names Kill Team's overwatch (the curated mechanic
    overwatch / Fire Overwatch), not the 10th edition's stratagem; a phrase whose concept has no
    mechanic partner keeps its concept («wholly within в 6-й»)."""
    from rulekb.kb.search.concepts import same_mechanic

    index = get_index(built)
    partners = same_mechanic()
    gave_way = kept = 0
    for concept, text, edition in edition_phrases(index):
        parsed = index.parse(f"{text} {EDITION_WORDS[edition]}", None)
        named = [c for word in parsed.words for c in word.named]
        if concept in named:
            kept += 1
            continue
        # replaced only by the same mechanic's concept, one the named edition renders
        assert named, (text, edition)
        inner = [c for c in named if c in partners.get(concept, ())]
        assert inner and all(edition in rendered_editions(index, c) for c in inner), (text, edition, named)
        gave_way += 1
    assert gave_way >= 3 and kept > 100
    parsed = index.parse("Kill Team: it fires Overwatch. Can my other model fire too?", None)
    assert [w.named[0] for w in parsed.words if w.original == "Overwatch"] == ["overwatch"]


def test_same_mechanic_reads_the_curated_mechanics() -> None:
    """Search reads only the ``[[mechanic]]`` tables of ``defines.toml``: the same groups the graph's
    curation loads and validates."""
    from rulekb.kb.graph.curation import load_curation
    from rulekb.kb.search.concepts import same_mechanic

    expected: dict[str, set[str]] = {}
    for mechanic in load_curation().mechanics:
        for concept in mechanic.concepts:
            expected.setdefault(concept, set()).update(c for c in mechanic.concepts if c != concept)
    assert expected and same_mechanic() == {c: frozenset(others) for c, others in expected.items()}
