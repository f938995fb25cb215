"""A verb of the question naming no concept also searches the noun of its action, as headings print it
(:mod:`rulekb.kb.search.query_nouns`, ``_add_verbal_nouns`` in :mod:`rulekb.kb.search.query`)."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.search.query_nouns import is_verb, verbal_nouns
from rulekb.kb.search.ranking import _QueryFeatures
from rulekb.kb.search.searcher import get_index


def test_verbal_nouns_are_the_texts_nouns_of_the_verbs_stem(built: Path) -> None:
    index = get_index(built)
    vocabulary = index.vocabulary
    pairs = [(verb, noun) for verb in sorted(vocabulary) for noun in verbal_nouns(verb, vocabulary)]
    assert len(pairs) > 50
    for verb, noun in pairs:
        assert noun in vocabulary and noun.endswith("ние") and noun != verb
        assert noun[:3] == verb[:3]  # the verb's own stem
    assert ("нападать", "нападение") in pairs
    # a noun is never a verb's noun, nor a word the texts do not print
    assert verbal_nouns("нападение", vocabulary) == []
    assert verbal_nouns("нападать", {"нападать"}) == []


def test_only_a_verb_naming_no_concept_searches_its_noun(built: Path) -> None:
    index = get_index(built)
    assert is_verb("нападать") and is_verb("объявляет") and not is_verb("нападающих") and not is_verb("нападение")
    parsed = index.parse("Можно ли объявлять, когда отряд отступает?", None)
    words = {w.original: w for w in parsed.words}
    for typed in ("объявлять", "отступает"):
        word = words[typed]
        nouns = verbal_nouns(word.lemma, index.vocabulary)
        if word.concept is None:
            assert nouns and set(nouns) <= set(word.alternatives), typed
            assert all(t.origin == "variant" for t in parsed.terms if t.text in nouns and t.text not in word.lemma)
        else:
            assert not set(nouns) & set(word.alternatives) - {word.lemma}, typed
    # a participle names the ones who act, not the action
    parsed = index.parse("Как двигать остальных нападающих?", None)
    (word,) = [w for w in parsed.words if w.original == "нападающих"]
    assert not set(verbal_nouns(word.lemma, index.vocabulary)) & set(word.alternatives)


def test_a_heading_printing_the_noun_carries_the_verb(built: Path) -> None:
    """A leaf whose heading prints the noun of the question's verb, and whose text never prints the verb,
    carries that word of the question in the reranker's coverage."""
    index = get_index(built)
    checked = 0
    for features in index.features.values():
        leaf = index.leaf_sets[features.id]
        for noun in sorted(leaf.heading):
            verbs = [v for v in (noun[:-4] + "ать", noun[:-4] + "ить", noun[:-5] + "ить") if v in index.vocabulary
                     and noun in verbal_nouns(v, index.vocabulary) and v not in leaf.text | leaf.heading]
            if not verbs or not noun.endswith("ние"):
                continue
            parsed = index.parse(f"можно {verbs[0]}?", None)
            if not parsed.words or parsed.words[-1].concept is not None:
                continue
            query = _QueryFeatures.of(index, parsed)
            if not query.units:
                continue
            covered, _ = query.cover(leaf, features.heading)
            assert covered > 0, (features.id, noun, verbs[0])
            checked += 1
            break
        if checked >= 5:
            break
    assert checked >= 5
