"""The search path's tables and shortcuts (the reranker's per-leaf sets and bit masks, the snippets' spans,
the build's readings) are optimisations: the plain computation is their oracle (the same values, exactly)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekb.kb.search.knowledge_index import KnowledgeIndex
from rulekb.kb.search.ranking import _QueryFeatures, bm25_scores
from rulekb.kb.search.searcher import get_index
from rulekb.kb.search.weights import IMPLIED_SPECIFICITY, IMPLIED_WEIGHT
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.vocabulary import LIGHT_WORDS

DATA = Path(__file__).resolve().parent.parent / "data"


def dev_questions(count: int) -> list[str]:
    rows = [json.loads(line) for line in (DATA / "dev.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row["question"] for row in rows[:count]]


def plain_cover(index: KnowledgeIndex, query: _QueryFeatures, node_id: str) -> tuple[float, float]:
    """What the reranker computes, without the tables: every unit against the leaf's sets; a unit whose
    specific concept the leaf defines or whose rendering its headings print stands under every sentence."""
    features = index.features[node_id]
    heading = set(features.heading_lemmas)
    title = {t.text for t in tokens(features.heading) if t.text not in LIGHT_WORDS and not t.text.isdigit()}
    here = index.text_terms[node_id] | heading
    concepts = set(features.concepts) | set(features.defines)

    def specific(concept: str | None) -> bool:
        return concept is not None and index.concept_weight(concept) >= IMPLIED_SPECIFICITY

    def under(concept: str | None) -> bool:
        if not specific(concept) or concept not in query.concept_masks:
            return False
        if concept in features.defines:
            return True
        entry = index.matcher.concepts[concept]
        for text, origin, _ in entry.phrases:
            lemmas = {t.text for t in tokens(text) if t.text not in LIGHT_WORDS and not t.text.isdigit()}
            if origin == "rendering" and lemmas and (lemmas <= heading or (title and title <= lemmas)):
                return True
        return False

    # a word naming several concepts stands for each of them
    implied = [any(under(concept) for concept in named) for _, _, named in query.units]
    covered = sum(w for (alternatives, w, named), up in zip(query.units, implied, strict=True)
                  if up or not concepts.isdisjoint(named) or not alternatives.isdisjoint(here))
    best = 0.0
    for sentence in index.sentence_sets[node_id]:
        held = [not alternatives.isdisjoint(sentence) for alternatives, _, _ in query.units]
        if not any(held):
            continue
        value = sum(w for (_, w, _), h in zip(query.units, held, strict=True) if h)
        value += IMPLIED_WEIGHT * sum(w for (_, w, _), h, up in zip(query.units, held, implied, strict=True)
                                      if up and not h)
        best = max(best, value)
    return covered, best


def test_leaf_tables_hold_the_leaf_features(built: Path) -> None:
    index = get_index(built)
    for node_id, features in index.features.items():
        leaf = index.leaf_sets[node_id]
        assert leaf.heading == frozenset(features.heading_lemmas)
        assert leaf.defines | leaf.mentions == leaf.concepts == frozenset(features.concepts) | frozenset(features.defines)
        assert not leaf.defines & leaf.mentions
        for term, positions in leaf.term_sentences.items():
            assert positions and all(term in leaf.sentences[p] for p in positions)
        assert set(leaf.term_sentences) == leaf.text


@pytest.mark.parametrize("edition", [None, "6"])
def test_cover_equals_the_plain_computation(built: Path, edition: str | None) -> None:
    index = get_index(built)
    checked = carried = 0
    for question in dev_questions(120):
        parsed = index.parse(question, edition)
        if parsed.empty:
            continue
        query = _QueryFeatures.of(index, parsed)
        if not query.units:
            continue
        for _, docnum in sorted(bm25_scores(index, parsed))[-30:]:
            node_id = index.by_docnum[docnum].id
            fast = query.cover(index.leaf_sets[node_id], index.features[node_id].heading)
            assert fast == plain_cover(index, query, node_id), (question, node_id)
            checked += 1
            carried += fast[1] > 0
    assert checked > 500 and carried > 100


def plain_snippet(text: str, terms: set[str], width: int = 240) -> str:
    """The snippet as it was computed before the per-leaf spans: every word of the leaf walked,
    every window counted mark by mark."""
    from rulekb.kb.search.snippets import marked_window
    from rulekb.kb.text.analysis import tokens

    marks = [(t.start, t.end) for t in tokens(text) if t.text in terms]
    if len(text) <= width:
        start, end = 0, len(text)
    else:
        best_start, best_count = 0, -1
        for mark_start, _ in marks or [(0, 0)]:
            window_start = max(0, mark_start - width // 4)
            count = sum(1 for s, e in marks if s >= window_start and e <= window_start + width)
            if count > best_count:
                best_start, best_count = window_start, count
        start, end = best_start, min(len(text), best_start + width)
        while start > 0 and not text[start - 1].isspace():
            start -= 1
    return marked_window(text, marks, start, end)


@pytest.mark.parametrize("width", [240, 80])
def test_snippets_equal_the_plain_computation(built: Path, width: int) -> None:
    from rulekb.kb.search.snippets import snippet

    index = get_index(built)
    checked = windowed = 0
    for question in dev_questions(80):
        parsed = index.parse(question)
        terms = {t.text for t in parsed.terms if t.origin != "light"}
        for _, docnum in sorted(bm25_scores(index, parsed))[-10:]:
            features = index.by_docnum[docnum]
            fast = snippet(features, terms, width)
            assert fast == plain_snippet(features.text, terms, width), (question, features.id)
            checked += 1
            windowed += fast.startswith("…") and "<b>" in fast
    assert checked > 300 and windowed > 20


def test_built_readings_are_the_analysed_readings(built: Path) -> None:
    """The build's table of readings, which a question's words are looked up in, holds what
    pymorphy3 gives each form of the texts, and is what the index opened for this build uses."""
    from rulekb.kb.search import readings as module
    from rulekb.kb.search.index import read_features

    get_index(built)
    table = read_features(built)["readings"]
    assert len(table) > 1000 and {form: tuple(found) for form, found in table.items()} == module._BUILT
    ambiguous = 0
    for form, found in table.items():
        assert tuple(found) == module._readings(form), form
        assert module.readings(form.capitalize()) == module._readings(form.capitalize())
        ambiguous += len(found) > 1
    assert ambiguous > 100


def test_idf_of_a_term_no_leaf_holds_is_whooshs(built: Path) -> None:
    """A term outside the texts gets the IDF Whoosh computes for it, without being kept."""
    index = get_index(built)
    for term in ("зачарджил", "qwertyuiop", "\u0001", "ран"):
        expected = float(index.searcher.idf("text", term))
        assert index.idf(term) == expected
        assert (term in index._idf) == (term in index.field_terms["text"])
    assert index.idf("рана") == float(index.searcher.idf("text", "рана")) < index.max_idf


def test_pymorphy3_reads_its_dictionaries_with_the_compiled_reader() -> None:
    """``pymorphy3[fast]`` is a dependency: without DAWG2 every new word costs several times more."""
    import pymorphy3.dawg

    assert pymorphy3.dawg.EXTENSION_AVAILABLE
