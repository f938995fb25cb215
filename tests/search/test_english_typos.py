"""A misspelt English rule word still reaches the Russian words it stands for on an English card."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.ask.card_english import _edits, english_weights, misspelt_terms
from rulekb.kb.search.searcher import get_index
from rulekb.kb.text.vocabulary import load_english


def test_edit_distance_counts_a_swap_once() -> None:
    assert _edits("visable", "visible", 1) == 1
    assert _edits("modle", "model", 1) == 1  # neighbouring letters swapped
    assert _edits("kitten", "sitting", 3) == 3
    assert _edits("charge", "shoot", 1) == 2  # past the limit: limit + 1


def test_a_misspelt_word_weighs_as_its_vocabulary_word(built: Path) -> None:
    index = get_index(built)
    english = load_english()
    visible = {t for ru in english["visible"] for t in index.lemmas_of(ru)}
    parsed = index.parse("does the charge target need to be visable to the charging unit?")
    found = misspelt_terms(index, parsed)
    assert found and set(found) <= {t for w in english for ru in english[w] for t in index.lemmas_of(ru)}
    assert set(found) & visible
    weights = english_weights(index, parsed, {})
    assert set(found) <= set(weights)
    # the word spelt right needs no correction (the search expands it), and a short word is never corrected
    assert not misspelt_terms(index, index.parse("does the charge target need to be visible?"))
    assert not misspelt_terms(index, index.parse("can the unti shoot"))
