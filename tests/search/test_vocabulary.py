"""Query understanding beyond the termbase: other readings of a word form, a verb's other aspect,
hyphenated words, keywords versus everyday words, and the vocabulary of kb/data/synonyms.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekb.corpus.errors import QueryError
from rulekb.kb.build import load_nodes
from rulekb.kb.search.index import own_title
from rulekb.kb.search.query import (
    LIGHT_WORDS,
    ConceptEntry,
    ConceptMatcher,
    aspect_key,
    aspect_partners,
    expand_contractions,
    load_concepts,
    load_vocabulary,
    parse_query,
    reading_links,
    readings,
)
from rulekb.kb.search.searcher import get_index, search
from rulekb.kb.text.analysis import tokens

CONCEPT_IDS = {c.id for c in load_concepts()}


# --- other readings of an ambiguous form -------------------------------------------------------


def test_an_ambiguous_form_has_its_other_readings() -> None:
    # «ран» is read as a noun «ран» first; «рана» (wounds) is the other likely reading
    assert readings("ран")[0] != "рана" and "рана" in readings("ран")
    assert "броня" in readings("броней")
    # an unlikely reading is not offered («стали» is «стать», hardly ever «сталь»)
    assert "сталь" not in readings("стали")


def test_reading_links_connect_both_ways() -> None:
    links = reading_links(["ран", "броней"])
    assert "ран" in links["рана"] and "рана" in links["ран"]
    assert "бронь" in links["броня"]


def test_a_question_word_searches_the_readings_the_texts_use() -> None:
    vocabulary = frozenset({"ран", "рана", "смертельный"})
    parsed = parse_query("смертельные раны", vocabulary=vocabulary, variants=reading_links(["ран"]))
    terms = {t.text: t for t in parsed.terms}
    assert terms["рана"].origin == "word"
    assert "ран" in terms and terms["ран"].origin == "variant" and terms["ран"].weight < terms["рана"].weight
    # a reading the texts never use is not searched
    assert "бронь" not in {t.text for t in parse_query("броня", vocabulary=frozenset({"броня"})).terms}


# --- a verb's other aspect and hyphenated words -------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [("проиграть", "проигрывать"), ("назначить", "назначаться"), ("распределить", "распределять")],
)
def test_aspect_pairs_share_a_key(one: str, other: str) -> None:
    assert aspect_key(one) is not None and aspect_key(one) == aspect_key(other)


def test_aspect_key_is_for_verbs_only() -> None:
    assert aspect_key("отряд") is None
    assert aspect_key("быть") is None  # too short a stem to pair safely
    assert aspect_key("стрелять") != aspect_key("стрельба")


def test_a_verb_also_searches_its_other_aspect_in_the_texts() -> None:
    vocabulary = frozenset({"проигрывать", "бой", "ближний"})
    assert aspect_partners("проиграть", vocabulary) == ("проигрывать",)
    parsed = parse_query("отряд проиграл бой", vocabulary=vocabulary)
    assert "проигрывать" in {t.text for t in parsed.terms}


def test_an_unknown_hyphenated_word_is_read_as_its_parts() -> None:
    parsed = parse_query("анти-техника", vocabulary=frozenset({"анти", "техника"}))
    words = {t.text for t in parsed.terms if t.origin == "word"}
    assert {"анти", "техника"} <= words
    # a hyphenated word the texts know stays whole
    kept = parse_query("анти-техника", vocabulary=frozenset({"анти-техника"}))
    assert "анти-техника" in {t.text for t in kept.terms}


# --- keywords versus everyday words --------------------------------------------------------------


def _matcher() -> ConceptMatcher:
    return ConceptMatcher(
        [
            ConceptEntry("unit", "Unit", (("Unit", "english", ""), ("отряд", "alias", ""))),
            ConceptEntry("squad", "Squad", (("Squad", "english", ""), ("Отряд", "rendering", "kt")), keyword=True),
            ConceptEntry("smoke", "Smoke", (("SMOKE", "english", ""), ("дым", "alias", "")), keyword=True),
            ConceptEntry("smokescreen", "Smokescreen", (("дым", "alias", ""),)),
        ]
    )


def test_a_lower_case_everyday_word_does_not_name_a_keyword_rule() -> None:
    matcher = _matcher()
    assert parse_query("сколько моделей в отряде", matcher=matcher).concepts == ["unit"]
    # typed in capitals it is the keyword too
    assert set(parse_query("ОТРЯД", matcher=matcher).concepts) == {"unit", "squad"}
    # a keyword that has the word as an alias of its own keeps it
    assert set(parse_query("дым", matcher=matcher).concepts) == {"smoke", "smokescreen"}


# --- the vocabulary file --------------------------------------------------------------------------


def test_the_vocabulary_file_is_sound() -> None:
    vocabulary = load_vocabulary()
    assert len(vocabulary.groups) > 40 and len(vocabulary.paraphrases) > 5
    for group in vocabulary.groups:
        assert len(group) >= 2
    for paraphrase in vocabulary.paraphrases:
        assert paraphrase.concept is not None or paraphrase.words
        assert paraphrase.concept is None or paraphrase.concept in CONCEPT_IDS
        for trigger in paraphrase.triggers:
            assert trigger - LIGHT_WORDS


def test_every_paraphrase_names_its_concept() -> None:
    for paraphrase in load_vocabulary().paraphrases:
        if paraphrase.concept is None:
            continue
        for trigger in paraphrase.triggers:
            question = "что если " + " ".join(sorted(trigger)) + "?"
            assert paraphrase.concept in parse_query(question).concepts, question


def test_a_paraphrase_adds_the_rule_words_to_the_words_that_triggered_it() -> None:
    paraphrase = next(p for p in load_vocabulary().paraphrases if p.words and p.concept is None)
    trigger = paraphrase.triggers[0]
    parsed = parse_query(" ".join(sorted(trigger)))
    searched = {t.text for t in parsed.terms}
    assert set(paraphrase.words) - LIGHT_WORDS <= searched
    carriers = [w for w in parsed.words if w.lemma in trigger and not w.light]
    assert carriers and all(set(paraphrase.words) - LIGHT_WORDS <= set(w.alternatives) for w in carriers)


def test_a_broken_vocabulary_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "synonyms.toml"
    bad.write_text('[[paraphrase]]\nwhen = ["как"]\nwords = ["x"]\n', encoding="utf-8")
    with pytest.raises(QueryError, match="question words"):
        load_vocabulary.__wrapped__(bad)
    bad.write_text("[[group]\n", encoding="utf-8")
    with pytest.raises(QueryError, match="synonyms.toml"):
        load_vocabulary.__wrapped__(bad)
    assert load_vocabulary.__wrapped__(tmp_path / "missing.toml").groups == ()


def test_player_words_reach_the_rule_words() -> None:
    groups = {w: g for g in load_vocabulary().groups for w in g}
    # a word of a group searches the other words of its group
    word = "перекинуть"
    parsed = parse_query(f"можно {word} кубик")
    searched = {t.text for t in parsed.terms}
    assert {t.text for w in groups[word] for t in tokens(w)} - {word} <= searched


# --- leaves printed under their own name ------------------------------------------------------------


def test_a_leaf_printed_under_its_own_name_is_headed_by_it(built: Path) -> None:
    nodes = load_nodes(built)
    named = [n for n in nodes if own_title(n)]
    assert named, "the 10th-edition stratagems are printed under their own names"
    index = get_index(built)
    for node in named:
        if node.id not in index.features:
            continue
        features = index.features[node.id]
        assert features.heading == own_title(node)
        assert set(t.text for t in tokens(own_title(node))) <= set(features.heading_lemmas)
    # asking for one by its printed name finds it (or its continuation, «… — ЦЕЛЬ») first
    for node in named:
        if node.id in index.features and "—" not in own_title(node):
            hits = search(own_title(node).lower(), build_dir=built, limit=3).hits
            assert hits and hits[0].heading.startswith(own_title(node)), own_title(node)


def test_ordinary_leaves_have_no_own_name(built: Path) -> None:
    nodes = load_nodes(built)
    leaves = [n for n in nodes if n.kind.value == "rule"]
    assert sum(1 for n in leaves if own_title(n)) < len(leaves) // 10


def test_concepts_named_by_the_same_words_share_their_weight() -> None:
    matcher = ConceptMatcher(
        [
            ConceptEntry("charge", "Charge", (("рывок", "alias", ""), ("чардж", "alias", ""))),
            ConceptEntry("surge-move", "Surge move", (("рывок", "alias", ""),)),
        ]
    )
    shared = parse_query("рывок", matcher=matcher)
    assert set(shared.concepts) == {"charge", "surge-move"}
    assert shared.concept_share == {"charge": 0.5, "surge-move": 0.5}
    # named unambiguously elsewhere in the question, a concept has its full weight
    assert parse_query("рывок и чардж", matcher=matcher).concept_share["charge"] == 1.0


# --- third iteration: player words, English contractions ----------------------------------------


@pytest.mark.parametrize(
    ("question", "rule_word"),
    [
        ("можно юзать страту дважды?", "использовать"),  # slang verb → the texts' verb
        ("ничья по ранам, что тогда?", "одинаковый"),  # a tie is «одинаковое количество»
        ("стрелять сквозь своих", "через"),
        ("сколько морталок наносит", "смертельный"),
        ("всех выбили", "уничтожить"),
        ("подъём на крышу считается?", "вершина"),
    ],
)
def test_player_words_search_the_rule_words(question: str, rule_word: str) -> None:
    assert rule_word in {t.text for t in parse_query(question).terms}


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("всех пушкарей убили", "crew"),
        ("танком задавить пехоту", "tank-shock"),
        ("прицельно выбить героя", "precision"),
    ],
)
def test_player_phrases_name_the_rule(question: str, concept: str) -> None:
    assert concept in parse_query(question).concepts


def test_not_rolling_means_automatically() -> None:
    assert "автоматически" in {t.text for t in parse_query("есть страта, чтобы не кидать бэтлшок?").terms}
    assert "автоматически" not in {t.text for t in parse_query("сколько кубиков кидать на бэтлшок?").terms}


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("What's the max range?", "What the max range?"),
        ("Can't I shoot?", "can not I shoot?"),
        ("it couldn't arrive", "it could not arrive"),
        ("they won’t", "they will not"),
        # a possessive is a word of its own: the termbase prints «Model's eye view»
        ("Model's eye view", "Model's eye view"),
        ("No man's land", "No man's land"),
    ],
)
def test_english_contractions_are_read_as_words(text: str, expanded: str) -> None:
    assert expand_contractions(text) == expanded


def test_an_english_question_with_contractions_searches_no_fragments() -> None:
    searched = {t.text for t in parse_query("What's the max distance? Can't it move?").terms}
    assert not any("'" in term for term in searched)
    assert {"максимум", "не"} <= searched


def test_an_english_word_reaches_the_forms_the_texts_print() -> None:
    # the 10th-edition mission says «Битва заканчивается…», not «конец»
    assert "заканчиваться" in {t.text for t in parse_query("When does the game end?").terms}
