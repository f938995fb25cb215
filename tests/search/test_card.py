"""The answer card of ``ask``: its contract, and what each kind of question gets."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from rulekb.kb.ask.answer import ask
from rulekb.kb.ask.card_english import number_lead
from rulekb.kb.ask.labels import question_lang
from rulekb.kb.text.analysis import tokens

KINDS = {"ruling", "terminology", "comparison", "none"}
SOURCES = {"faq", "text", "termbase", "engine", None}


def check_card(card: dict[str, Any]) -> None:
    """The ``card`` object of the contract (README, «JSON contracts»)."""
    assert {"kind", "lang", "text", "edition", "per_edition", "source", "citations", "confidence"} <= set(card)
    assert card["kind"] in KINDS
    assert card["lang"] in {"ru", "en"}
    assert isinstance(card["text"], str) and card["text"].strip()
    assert card["edition"] in (None, "10", "6", "7", "kt")
    assert card["source"] in SOURCES
    assert 0.0 <= card["confidence"] <= 1.0
    for part in card["per_edition"]:
        assert {"edition", "text", "node_id", "lines"} <= set(part)
        assert part["edition"] in ("10", "6", "7", "kt")
        assert isinstance(part["text"], str) and part["text"].strip()
    for citation in card["citations"]:
        assert {"source_id", "lines", "quote"} <= set(citation)
        start, end = citation["lines"]
        assert 1 <= start <= end


@pytest.mark.parametrize(
    "question",
    ["можно ли стрелять после рывка", "дальность чарджа в 6ке", "How far can a unit pile in?",
     "Чем отличается консолидация в 6-й и 10-й?", "Как приготовить борщ со сметаной?"],
)
def test_every_answer_has_a_card(built: Path, question: str) -> None:
    check_card(ask(question, build_dir=built)["card"])


def test_a_question_the_rules_do_not_answer_gets_a_none_card(built: Path) -> None:
    card = ask("Какая завтра погода в Москве?", build_dir=built)["card"]
    assert card["kind"] == "none" and card["source"] is None and not card["citations"]


def test_a_comparison_gets_one_part_per_edition(built: Path) -> None:
    card = ask("Чем отличается консолидация в 6-й и 10-й?", build_dir=built)["card"]
    assert card["kind"] == "comparison" and card["edition"] is None
    assert {p["edition"] for p in card["per_edition"]} >= {"6", "10"}


def test_citations_point_at_lines_that_exist(built: Path) -> None:
    from rulekb.corpus.reader import read_lines

    card = ask("можно ли стрелять после рывка", build_dir=built)["card"]
    assert card["citations"]
    for citation in card["citations"]:
        assert citation["lines"][1] <= len(read_lines(citation["source_id"]))


def test_question_language() -> None:
    assert question_lang("Can I shoot after advancing?") == "en"
    assert question_lang("можно ли стрелять после рывка?") == "ru"
    assert question_lang("Как переведён Overwatch?") == "ru"


def test_batch_and_cli_json_carry_the_card(built: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulekb.webapp.cli import main

    batch = tmp_path / "q.jsonl"
    batch.write_text(json.dumps({"id": "a", "question": "дальность чарджа"}, ensure_ascii=False) + "\n", encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(main, ["ask", "--batch", str(batch), "--build-dir", str(built)])
    assert out.exit_code == 0, out.output
    check_card(json.loads(out.output.splitlines()[0])["card"])
    single = runner.invoke(main, ["ask", "--json", "дальность чарджа", "--build-dir", str(built)])
    assert single.exit_code == 0, single.output
    card = json.loads(single.output)["card"]
    check_card(card)
    assert re.search(r"\d", card["text"])


def test_terminology_card_lists_each_book_s_renderings(built: Path) -> None:
    card = ask("Как в этом переводе назван pile in?", build_dir=built)["card"]
    check_card(card)
    assert card["kind"] == "terminology" and card["source"] == "termbase"
    assert {p["edition"] for p in card["per_edition"]} >= {"10", "6"}
    assert "«" in card["text"] and ("последовательно" in card["text"])
    english = ask("How is Pile In rendered in the 6th-edition text?", build_dir=built)["card"]
    assert english["lang"] == "en" and "renderings" in english["text"]
    assert {p["edition"] for p in english["per_edition"]} == {"6"}


def test_comparison_card_says_what_changed_and_the_engine_computes_it(built: Path) -> None:
    card = ask("Чем отличается чардж в 6-й и 10-й редакции?", build_dir=built)["card"]
    assert card["kind"] == "comparison"
    assert "Что изменилось" in card["text"]
    assert card.get("engine") and "%" in card["engine"]


def test_unmarked_question_gets_the_played_edition_first(built: Path) -> None:
    tenth = ask("дальность чарджа", build_dir=built)["card"]
    sixth = ask("дальность чарджа", build_dir=built, played="6")["card"]
    assert tenth["per_edition"][0]["edition"] == "10"
    assert sixth["per_edition"][0]["edition"] == "6" and sixth["played"] == "6"
    labelled = [line for line in sixth["text"].splitlines() if line.startswith(("6-я редакция:", "7-я редакция:", "10-я редакция:", "Kill Team:"))]
    assert len(labelled) == len(sixth["per_edition"]) >= 2


def test_named_edition_is_never_answered_by_another(built: Path) -> None:
    for question in ["дальность чарджа в 6ке", "овервотч в кт", "в 7-ке отступление из боя"]:
        card = ask(question, build_dir=built)["card"]
        editions = {card["edition"]} if card["edition"] else {p["edition"] for p in card["per_edition"]}
        assert editions == {ask(question, build_dir=built)["edition"]}, (question, editions)


def test_environment_sets_the_played_edition(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekb.corpus.errors import QueryError

    monkeypatch.setenv("RULEKB_EDITION", "6")
    assert ask("дальность чарджа", build_dir=built)["card"]["played"] == "6"
    monkeypatch.setenv("RULEKB_EDITION", "11")
    with pytest.raises(QueryError, match="RULEKB_EDITION"):
        ask("дальность чарджа", build_dir=built)


class _Hit:
    def __init__(self, node_id: str, edition: str, score: float) -> None:
        self.node_id, self.edition, self.score = node_id, edition, score


def test_the_played_edition_does_not_lead_when_its_rule_is_far_behind() -> None:
    from rulekb.kb.ask.card_editions import unmarked_editions

    hits = [_Hit("6-a", "6", 10.0), _Hit("6-b", "6", 9.0), _Hit("10-a", "10", 4.0)]
    by_edition: dict[str, list[Any]] = {}
    for hit in hits:
        by_edition.setdefault(hit.edition, []).append(hit)
    # the 6th has the mechanic; the 10th's nearest rule scores 0.4 of it: it follows, it does not lead
    assert unmarked_editions(hits, by_edition, None) == ["6", "10"]
    close = [_Hit("6-a", "6", 10.0), _Hit("10-a", "10", 8.0)]
    assert unmarked_editions(close, {"6": close[:1], "10": close[1:]}, None) == ["10", "6"]
    assert unmarked_editions(close, {"6": close[:1], "10": close[1:]}, "6") == ["6", "10"]


def test_an_older_book_s_wording_implies_its_edition_only_when_retrieval_agrees() -> None:
    from rulekb.kb.ask.card_editions import confirmed_editions

    assert confirmed_editions(["7"], ["10", "10", "10"]) == []
    assert confirmed_editions(["7", "kt"], ["10", "kt", "10"]) == ["kt", "7"]
    assert confirmed_editions(["6"], []) == ["6"]


def test_an_english_card_names_the_ruling_s_terms_in_english(built: Path) -> None:
    from rulekb.kb.ask.card_english import english_line, ruling_concepts

    ruling = "Каждая модель должна пройти проверку «Отчаянный побег», а стрелять можно только навскидку."
    assert {"desperate-escape", "snap-shots"} <= set(ruling_concepts(built, ruling))
    line = english_line(built, "10", [], ruling, None)
    assert "desperate escape" in line.lower()
    assert not re.search(r"[А-Яа-яЁё]", line.split("The ruling")[0])
    # each term on the line of an edition whose books print it: «навскидку» is the older books' word
    assert "snap shot" not in line.lower() and "snap shot" in english_line(built, "7", [], ruling, None).lower()


def test_a_comparison_naming_no_edition_sets_every_defining_edition_side_by_side(built: Path) -> None:
    from rulekb.kb.ask.card import MAX_PARTS
    from rulekb.kb.ask.card_editions import defining_editions
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    question = "как изменилась консолидация от редакции к редакции?"
    having = defining_editions(index, index.parse(question).concepts)
    assert len(having) >= 2
    card = ask(question, build_dir=built)["card"]
    check_card(card)
    assert card["kind"] == "comparison"
    editions = [p["edition"] for p in card["per_edition"]]
    assert editions[0] == "10"
    assert set(editions) <= set(having) and len(editions) == min(len(having), MAX_PARTS)


def test_a_terminology_question_naming_two_terms_lists_both(built: Path) -> None:
    from rulekb.kb.ask.card_terms import pick_concepts

    question = "Как в тексте переведены Pile In и Consolidate?"
    assert pick_concepts(built, question, []) == ["pile-in", "consolidate"]
    # a book's name is the edition asked, not a term
    assert "kill-team" not in pick_concepts(built, "How are Pile In and Consolidate rendered in Kill Team?", [])
    card = ask(question, build_dir=built)["card"]
    check_card(card)
    assert card["kind"] == "terminology" and card["concepts"] == ["pile-in", "consolidate"]
    assert card["text"].count("как передан в текстах") == 2


def test_a_comparison_part_adds_the_ruling_of_the_edition_s_next_passage(built: Path) -> None:
    from rulekb.kb.ask.card_compare import MAX_PART

    card = ask("Чем отличается отступление в 7-й и 10-й?", build_dir=built)["card"]
    check_card(card)
    assert card["kind"] == "comparison"
    for part in card["per_edition"]:
        cited = [c for c in card["citations"] if c["quote"] and c["quote"][:60] in part["text"]]
        assert len(cited) >= 1 and len(part["text"]) <= MAX_PART + 300  # the English line sits above
    # at least one edition's part reads a second passage of its book, cited with its own lines
    by_source: dict[str, set[tuple[int, int]]] = {}
    for citation in card["citations"]:
        by_source.setdefault(citation["source_id"], set()).add(tuple(citation["lines"]))
    assert any(len(lines) >= 2 for lines in by_source.values())


def test_a_terminology_question_gets_every_concept_its_english_name_names(built: Path) -> None:
    from rulekb.kb.ask.card_terms import pick_concepts, records

    known = records(built)
    sharing = [c for c, r in known.items() if "overwatch" in {str(a).lower() for a in r.get("aliases", [])}
               | {str(r.get("english", "")).lower()}]
    assert len(sharing) >= 2  # the older books' action and the 10th edition's stratagem
    assert set(pick_concepts(built, "How is Overwatch rendered in the books?", [])) == set(sharing)
    # the longer name is one concept only
    assert pick_concepts(built, "How is Fire Overwatch rendered?", []) == ["fire-overwatch"]
    card = ask("Как в разных книгах переведён Overwatch?", build_dir=built)["card"]
    assert card["kind"] == "terminology" and set(card["concepts"]) == set(sharing)
    assert {p["edition"] for p in card["per_edition"]} >= {"10", "6", "kt"}


def test_a_book_s_name_is_never_the_term_asked(built: Path) -> None:
    from rulekb.kb.ask.card_terms import pick_concept

    assert pick_concept(built, "Как в Kill Team называется charge?", ["kill-team", "charge"]) == "charge"


def test_terms_named_in_russian_and_joined_each_get_a_block(built: Path) -> None:
    from rulekb.kb.ask.card_terms import pick_concepts
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    question = "Как в тексте переведены зона поражения и отступление?"
    parsed = index.parse(question)
    picked = pick_concepts(built, question, parsed.concepts, parsed.concept_phrases)
    # «отступление» names two concepts (the 10th's Fall Back, the older books' Falling back): each
    # gets its block, as when the word is asked alone
    assert picked == ["engagement-range", "fall-back", "falling-back"]
    alone = "Как переведена зона поражения?"
    assert pick_concepts(built, alone, index.parse(alone).concepts) == ["engagement-range"]


def test_older_books_asked_are_every_edition_but_the_newest(built: Path) -> None:
    from rulekb.corpus.editions import default_edition, display_order
    from rulekb.kb.ask.form import older_editions_asked

    older = older_editions_asked("Как в старых книгах называется charge?")
    assert older == [e for e in display_order() if e != default_edition()]
    assert older_editions_asked("Как в разных старых переводах назван Overwatch?") == older
    assert older_editions_asked("How is charge rendered in the older editions?") == older
    assert older_editions_asked("Как переведён charge?") == []
    card = ask("Как в старых книгах (Kill Team и другие) называется charge?", build_dir=built)["card"]
    assert card["kind"] == "terminology" and {p["edition"] for p in card["per_edition"]} == set(older)


def test_an_edition_among_the_first_hits_gets_a_part_after_the_close_ones() -> None:
    from rulekb.kb.ask.card_editions import unmarked_editions

    hits = [_Hit("10-a", "10", 10.0), _Hit("10-b", "10", 8.0), _Hit("6-a", "6", 6.0), _Hit("7-a", "7", 5.0)]
    by_edition: dict[str, list[Any]] = {}
    for hit in hits:
        by_edition.setdefault(hit.edition, []).append(hit)
    # the 6th scores 0.6 of the first hit but is third: retrieval found the mechanic there; the 7th, fourth, is not
    assert unmarked_editions(hits, by_edition, None) == ["10", "6"]


def test_a_concept_one_book_prints_outweighs_another_book_s_wording_when_retrieval_ranks_it_first(
        built: Path) -> None:
    from rulekb.kb.ask.card import _implied
    from rulekb.kb.ask.form import concept_editions, edition_vocabulary, vocabulary_editions
    from rulekb.kb.search.searcher import get_index, search_parsed
    from rulekb.kb.text.analysis import lemmas

    index = get_index(built)
    question = "что даёт знамя в результате боя"
    parsed = index.parse(question)
    hits = search_parsed(index, parsed, 10, snippets=False)
    worded = vocabulary_editions(lemmas(parsed.cleaned), edition_vocabulary(built))
    banner = concept_editions(built)["banner"]
    assert len(banner) == 1 and not set(worded) & banner  # the words say one book, the banner another
    assert hits[0].edition in banner
    assert _implied(built, parsed, hits) == sorted(banner)
    card = ask(question, build_dir=built)["card"]
    assert {p["edition"] for p in card["per_edition"]} == set(banner)


def test_an_english_line_glosses_the_ruling_s_rule_words_word_for_word(built: Path) -> None:
    from rulekb.kb.ask.card_english import MAX_RULE_WORDS, english_line, rule_words
    from rulekb.kb.text.vocabulary import load_english

    ruling = "В конце хода модель в зоне поражения бросает кубик за каждую рану."
    words = rule_words(ruling)
    english = load_english()
    assert words and len(words) <= MAX_RULE_WORDS
    for en, printed in words:
        assert printed in ruling  # the text's own word, as printed
        # English words of the vocabulary English questions are searched with («каждый»: each/every)
        assert all(part in english for part in en.split("/")), en
    # short function words are never glossed («до» is "before" in the vocabulary, and «до 3 дюймов» too)
    assert all(len(printed) >= 3 for _, printed in words)
    assert not [w for w, printed in rule_words("до того как") if printed in ("до", "того")]
    # an adjective listed beside its phrase's noun is half a phrase: «боевой» of «боевой дух» is no "morale"
    assert "morale" in english and "боевой" in english["morale"]
    assert "morale" not in dict(rule_words("Боевые зоны — это наборы ландшафта."))
    # a word the vocabulary gives for two English words is glossed by both, not left out
    assert "каждый" in english["each"] and "каждый" in english["every"]
    assert ("each/every", "каждую") in words
    line = english_line(built, "10", [], ruling, None)
    head = line.split("The ruling")[0]
    assert "Rule words:" in head and "end" in head.split("Rule words:")[1]
    assert not re.search(r"[А-Яа-яЁё]", head)  # the lead line is English


def test_an_english_line_names_the_specific_concepts_first(built: Path) -> None:
    from rulekb.kb.ask.card_english import _specific_first
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    ordered = _specific_first(built, ["model", "unit", "charge", "snap-shots"])
    assert "model" not in ordered and "unit" not in ordered  # half the rules mention them
    weights = [index.concept_weight(c) for c in ordered]
    assert weights == sorted(weights, reverse=True) and ordered[0] == "snap-shots"


def test_every_edition_of_a_list_before_the_word_edition_is_named(built: Path) -> None:
    from rulekb.kb.ask.form import listed_editions
    from rulekb.kb.search.searcher import get_index

    assert listed_editions("что говорят книги 6-й и 10-й редакции?") == ["6", "10"]
    assert listed_editions("в 6-й, 7-й и 10-й редакциях") == ["6", "7", "10"]
    assert listed_editions("in the 6th and 10th editions") == ["6", "10"]
    assert listed_editions("на 6 и 10 дюймов") == [] and listed_editions("бросьте 2 и 3 кубика") == []
    assert listed_editions("в 10-й редакции") == []  # one edition is the search's to find
    question = "Что говорят о перебросе книги 6-й и 10-й редакции?"
    assert len(get_index(built).parse(question).editions) < 2  # the search reads only the last one
    card = ask(question, build_dir=built)["card"]
    assert card["kind"] == "comparison" and {p["edition"] for p in card["per_edition"]} == {"6", "10"}


def test_an_edition_named_by_a_bare_ordinal_gets_its_part(built: Path) -> None:
    from rulekb.kb.ask.card_editions import ordinal_editions
    from rulekb.kb.search.searcher import get_index

    assert ordinal_editions("Как бросать на попадание: 6-я против 10-й?") == ["6", "10"]
    assert ordinal_editions("в 10-й, а в 6-й?") == ["10", "6"]
    assert ordinal_editions("6th vs 10th") == ["6", "10"]
    # a noun after the ordinal, a number without an ordinal ending, a die face: no edition
    assert ordinal_editions("на 6-й ход") == [] and ordinal_editions("2-я модель отряда") == []
    assert ordinal_editions("попадаю на 6") == [] and ordinal_editions("выпала 6-я?") == []
    assert ordinal_editions("в 3-й?") == []  # not an edition the manifest has
    question = "Как бросать на попадание в ближнем бою: 6-я против 10-й?"
    assert get_index(built).parse(question).editions == []  # the query parser reads neither
    card = ask(question, build_dir=built)["card"]
    assert card["kind"] == "comparison" and [p["edition"] for p in card["per_edition"]] == ["6", "10"]
    # an edition filter reads no edition word of the question, the ordinals neither
    filtered = ask(question, edition="10", build_dir=built)["card"]
    assert filtered["kind"] == "ruling" and [p["edition"] for p in filtered["per_edition"]] == ["10"]


def test_a_comparison_s_guessed_other_edition_gives_way_to_the_one_named(built: Path) -> None:
    from rulekb.kb.search.searcher import get_index

    question = "Дальность нападения в Kill Team по сравнению с обычной 6-й?"
    # the parser reads Kill Team only and adds the newest edition as the comparison's other side
    assert get_index(built).parse(question).editions == ["kt", "10"]
    card = ask(question, build_dir=built)["card"]
    assert card["kind"] == "comparison" and [p["edition"] for p in card["per_edition"]] == ["kt", "6"]


def test_a_comparison_s_edition_and_comparing_words_are_not_what_its_sentence_must_carry(built: Path) -> None:
    from rulekb.kb.ask.card import _weights
    from rulekb.kb.ask.card_compare import compared_terms, marker_words
    from rulekb.kb.search.searcher import get_index

    assert {"чем", "отличается", "6", "10", "редакции"} <= marker_words("Чем отличается укрытие в 6-й и в 10-й редакции?")
    assert "укрытие" not in marker_words("Чем отличается укрытие в 6-й и в 10-й редакции?")
    # «против» before an edition compares; «против ударов» is the mechanic's own word
    assert "против" in marker_words("укрытие: 6-я против 10-й?")
    assert "против" not in marker_words("Помогает ли укрытие против ударов в 6-й и в 10-й?")
    assert marker_words("Какой спасбросок за укрытие?") == set()
    index = get_index(built)
    question = "Чем отличается спасбросок за укрытие: 6-я против 10-й?"
    parsed = index.parse(question)
    weights, numbers = _weights(index, parsed), set(parsed.numbers)
    assert "6" in numbers and "отличаться" in weights  # the question's words as the parser reads them
    kept, kept_numbers = compared_terms(parsed, question, weights, numbers)
    assert "6" not in kept_numbers and "10" not in kept_numbers and "отличаться" not in kept
    assert "укрытие" in kept and kept["укрытие"] == weights["укрытие"]


def test_what_changed_names_the_terms_only_one_edition_s_ruling_has(built: Path) -> None:
    from rulekb.kb.ask.card_compare import what_changed
    from rulekb.kb.ask.card_parts import Part

    parts = [Part("7", "Модели, которые отступают, могут свободно двигаться через вражеские модели.", None, None, "text"),
             Part("10", "Модели отступают сквозь врагов, но проходят проверку «Отчаянный побег».", None, None, "text")]
    line = what_changed(parts, "ru", built)
    assert line.startswith("Что изменилось:") and "только в 10-й редакции: «Отчаянный побег»" in line
    assert "только в 7-й" not in line  # the 7th's ruling names nothing the 10th's does not
    english = what_changed(parts, "en", built)
    assert "only the 10th edition names Desperate Escape" in english
    assert not re.search(r"[А-Яа-яЁё]", english)
    assert what_changed(parts, "ru").startswith("Что изменилось: правило")  # no build: no terms line


def test_the_engine_line_computes_only_the_card_s_own_editions() -> None:
    from rulekb.kb.ask.card_compare import engine_line

    both = engine_line(["overwatch"], ["10", "6"], "", "ru")
    assert both is not None and "10-я редакция" in both and "6-я редакция" in both
    only_older = engine_line(["overwatch"], ["kt", "6"], "", "ru")
    assert only_older is not None and "6-я редакция" in only_older and "10-я" not in only_older
    assert engine_line(["overwatch"], ["kt"], "", "ru") is None  # the engine has no Kill Team overwatch
    seventh = engine_line(["leadership"], ["7", "10"], "", "en")
    assert seventh is not None and "7th edition" in seventh and "6th" not in seventh

def test_a_passage_announcing_a_list_is_followed_by_the_list_leaf(built: Path) -> None:
    from rulekb.kb.ask.card_parts import announced_list, with_list
    from rulekb.kb.search.searcher import get_index
    from rulekb.kb.text.sentences import load_marked

    index = get_index(built)
    marked = load_marked(built)
    ids = list(index.features)
    pairs = [(a, b) for a, b in pairwise(ids)
             if index.features[a].text.rstrip().endswith(":") and index.features[b].text.lstrip().startswith("•")
             and index.features[a].source_id == index.features[b].source_id]
    assert pairs  # the parser cuts a rule's bullets into a leaf of their own
    for before, after in pairs:
        following = announced_list(index, marked, before)
        assert following is not None and following.id == after
        sentences, leaf = with_list(index, marked, before)
        assert leaf is following and sentences[-1].text in index.features[after].text
    # a passage that announces nothing has no list, even when bullets follow it
    plain = next(a for a, b in pairwise(ids) if not index.features[a].text.rstrip().endswith(":")
                 and index.features[b].text.lstrip().startswith("•"))
    assert announced_list(index, marked, plain) is None


def test_a_concept_named_in_transliteration_counts_by_its_renderings_not_its_false_friends(built: Path) -> None:
    from rulekb.kb.ask.card import _weights
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    parsed = index.parse("как работают летал хитс при стрельбе", None)
    assert "lethal-hits" in parsed.concepts
    assert any(w.lemma == "летать" for w in parsed.words)  # «летал» read as the verb to fly …
    weights = _weights(index, parsed)
    assert "летать" not in weights and "полет" not in weights  # … which the card's sentences must not chase
    assert "смертельный" in weights and "стрельба" in weights  # the concept's rendering, the other words
    # a concept named in the texts' own words keeps them
    plain = index.parse("как проходит проверка боевого шока", None)
    assert {"боевой", "шок"} <= set(_weights(index, plain))


def test_an_english_question_s_russian_words_weigh_as_the_words_it_typed(built: Path) -> None:
    from rulekb.kb.ask.card import _weights
    from rulekb.kb.ask.card_english import english_groups, english_weights
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    parsed = index.parse("does the charge target need to be visible to the charging unit?")
    raw = _weights(index, parsed)
    weights = english_weights(index, parsed, raw)
    assert weights and all(t in index.vocabulary for t in weights)  # words the texts never print are left out
    assert set(raw) - set(weights)  # "need", "unit" … the question's English words
    groups = english_groups(index, parsed)
    charge = index.matcher.concepts["charge"]
    one_word = [t.text for text, origin, _ in charge.phrases if origin == "rendering"
                for t in tokens(text) if len(list(tokens(text))) == 1]
    keys = {groups[t] for t in one_word if t in groups}
    assert len(keys) == 1  # every one-word rendering of *charge* is one word of the question
    rendered = [weights[t] for t in one_word if t in weights]
    assert max(rendered) < max(raw[t] for t in one_word if t in raw)  # the rarest rendering no longer leads


def test_a_part_is_labelled_with_its_edition_once() -> None:
    from rulekb.kb.ask.card import _labelled
    from rulekb.kb.ask.card_parts import Part

    english = Part("10", "10th edition — Charge: 2D6. The ruling, as the Russian text prints it:\n…", "n", [1, 2], "text")
    russian = Part("6", "Нет. Отряд не может…", "m", [3, 4], "text")
    assert _labelled(english, "en").count("10th edition") == 1
    assert _labelled(russian, "ru") == "6-я редакция: Нет. Отряд не может…"


def test_a_list_leaf_is_read_after_the_passage_announcing_it(built: Path) -> None:
    from rulekb.kb.ask.card_parts import LEAD_GAP, list_lead, with_list
    from rulekb.kb.search.searcher import get_index
    from rulekb.kb.text.sentences import load_marked

    index = get_index(built)
    marked = load_marked(built)
    ids = list(index.features)
    found = 0
    for before, after in pairwise(ids):
        lead = list_lead(index, marked, after)
        if lead is None:
            continue
        found += 1
        assert lead.id == before and index.features[after].text.lstrip()[0] in "•-–—"
        assert lead.lines[1] + LEAD_GAP >= index.features[after].lines[0]
        sentences, leaf = with_list(index, marked, after)
        assert leaf is lead and sentences[0].text in lead.text  # the lead-in first, then the items
    assert found
    # a list announced by a sentence that does not end on «:» («… за каждое из следующих условий, …»)
    unannounced = [b for a, b in pairwise(ids) if list_lead(index, marked, b) is not None
                   and not index.features[a].text.rstrip().endswith(":")]
    assert unannounced
    # a leaf that is no list has no lead-in, nor does a list after a list
    assert all(list_lead(index, marked, a) is None for a in ids if not index.features[a].text.lstrip().startswith(("•", "-")))
    assert all(list_lead(index, marked, b) is None for a, b in pairwise(ids)
               if index.features[a].text.lstrip().startswith("•") and index.features[b].text.lstrip().startswith("•"))


def test_a_ruling_brings_its_section_s_summary_items_that_carry_the_question(built: Path) -> None:
    from rulekb.kb.ask.card_parts import section_summary
    from rulekb.kb.search.searcher import get_index
    from rulekb.kb.text.choice import Choice
    from rulekb.kb.text.sentences import NON_RULING, load_marked

    index = get_index(built)
    marked = load_marked(built)
    summaries = [n for n, f in index.features.items() if f.kind == "summary"]
    assert summaries
    tried = 0
    for summary_id in summaries:
        section = summary_id.rsplit("/", 1)[0]
        rules = [n for n, f in index.features.items() if n.rsplit("/", 1)[0] == section and f.kind == "rule"]
        items = [s for s in marked.get(summary_id, ()) if s.mark not in NON_RULING]
        if not rules or not items:
            continue
        rule = rules[0]
        best = next((s.text for s in marked.get(rule, ()) if s.mark not in NON_RULING), None)
        if best is None:
            continue
        item = items[0]
        own = [t.text for t in tokens(best) if len(t.text) > 3]
        weights = {t: 1.0 for t in item.lemmas if len(t) > 3} | ({own[0]: 1.0} if own else {})
        found = section_summary(index, marked, Choice(rule, best, 1.0, 0, best), weights)
        assert found is not None and found[0].id.rsplit("/", 1)[0] == section
        assert all(text in " ".join(s.text for s in marked[found[0].id]) for text in found[1])
        # words no summary item prints bring none, nor does a summary chosen itself
        assert section_summary(index, marked, Choice(rule, best, 1.0, 0, best), {"борщ": 1.0}) is None
        assert section_summary(index, marked, Choice(summary_id, item.text, 1.0, 0, item.text), weights) is None
        tried += 1
    assert tried >= 10


def test_a_concept_the_parser_gave_no_rendering_is_weighed_by_its_printed_renderings(built: Path) -> None:
    from rulekb.kb.ask.card import _weights
    from rulekb.kb.search.searcher import get_index

    index = get_index(built)
    for question in ("что даёт твин-линк", "как работает овервотч", "what does twin-linked do"):
        parsed = index.parse(question, None)
        weights = _weights(index, parsed)
        for concept in parsed.concepts:
            printed = index.matcher.rendering_lemmas(concept)
            assert not printed or printed & set(weights), (question, concept)  # some rendering always weighs
    # a question naming the rule in the texts' words keeps the weights the parser gave
    plain = index.parse("как работает парное орудие", None)
    assert _weights(index, plain)["парный"] == max(t.weight * index.idf(t.text) for t in plain.terms if t.text == "парный")


def test_a_long_passage_shows_the_chosen_sentence_s_paragraph_whole() -> None:
    from rulekb.kb.ask.card_parts import with_paragraph
    from rulekb.kb.text.choice import Choice
    from rulekb.kb.text.sentences import Sentence

    first = ("Если на персонажа распределена рана и рядом есть другая модель в 6\", она может попытаться "
             "использовать правило. Для этого киньте D6. При броске 3 и меньше попытка провалилась. "
             "На 4+ попытка успешна.")
    second = "Прочее правило о персонажах. " * 30
    text = f"{first}\n{second.strip()}"
    sentences = [Sentence(x, "rule", ()) for x in re.split(r"(?<=[.!?])\s+", text.replace("\n", " ")) if x]
    best = sentences[0].text
    chosen = f"{best} {sentences[2].text}"
    widened = with_paragraph(text, sentences, Choice("n", chosen, 1.0, 0, best))
    assert "На 4+ попытка успешна." in widened.text and "Для этого киньте D6." in widened.text
    assert widened.text.index("Для этого") < widened.text.index("При броске")  # in the text's order
    assert "Прочее правило" not in widened.text  # the other paragraph stays out
    # what the choice took from another passage stays after the paragraph
    other = with_paragraph(text, sentences, Choice("n", f"{chosen} Чужое правило.", 1.0, 0, best))
    assert other.text.endswith("Чужое правило.")
    # a paragraph too long to show whole leaves the choice as it was
    long_best = next(s.text for s in sentences if s.text.startswith("Прочее"))
    kept = Choice("n", long_best, 1.0, 0, long_best)
    assert with_paragraph(text, sentences, kept) is kept


def test_words_of_one_book_and_a_concept_of_another_get_both_books(built: Path) -> None:
    """«Огонь на упреждение» is Kill Team's wording, a stratagem is printed in the 10th edition only:
    the question is neither book's alone, so neither answers it silently for the other."""
    card = ask("Сколько CP стоит стратагема Огонь на упреждение?", build_dir=built)["card"]
    assert {p["edition"] for p in card["per_edition"]} == {"10", "kt"}
    assert card["edition"] is None


def test_a_number_question_naming_its_unit_is_led_by_that_unit_only() -> None:
    ruling = "если этот отряд находится в пределах 12 дюймов от этой модели, увеличьте стоимость на 1 CP"
    assert number_lead(ruling, "сколько CP стоит?") == "1 CP"
    assert number_lead(ruling, "на сколько дюймов?") == "12″"
    assert number_lead(ruling) == "12″, 1 CP"
    assert number_lead("увеличьте стоимость на 1 CP", "на каком расстоянии?") is None


def test_a_procedure_reads_on_into_the_next_leaves_of_its_section(built: Path) -> None:
    from rulekb.kb.ask.card_parts import (
        CONTINUING_LEAVES,
        PROCEDURE_TEXT,
        marked_sentences,
        procedure_continuation,
    )
    from rulekb.kb.search.searcher import get_index
    from rulekb.kb.text.sentences import NON_RULING, load_marked

    index = get_index(built)
    marked = load_marked(built)
    ids = list(index.features)

    def section(node_id: str) -> str:
        return node_id.rsplit("/", 1)[0]

    def ruling(node_id: str) -> list[str]:
        return [x.text for x in marked_sentences(marked, index.features[node_id]) if x.mark not in NON_RULING]

    # a short rule leaf followed, in its own section, by a rule leaf printing short sentences of its own
    pairs = [(a, b) for a, b in pairwise(ids) if section(a) == section(b)
             and index.features[a].kind == index.features[b].kind == "rule"
             and len(index.features[a].text) < PROCEDURE_TEXT // 2
             and ruling(b) and len(ruling(b)[0]) < PROCEDURE_TEXT // 4
             and ruling(b)[0] not in index.features[a].text]
    assert len(pairs) > 10
    for before, after in pairs:
        shown = index.features[before].text
        found = procedure_continuation(index, marked, before, shown)
        assert 0 < len(found) <= CONTINUING_LEAVES
        leaf, added = found[0]
        assert leaf.id == after and added.startswith(ruling(after)[0])
        # the passage's own section and its subsections (a procedure's steps under their headings)
        assert all(x.id.startswith(section(before) + "/") for x, _ in found)
        assert len(shown) + sum(len(t) + 1 for _, t in found) <= PROCEDURE_TEXT
        assert not any(t in shown for _, t in found)
    # a section's last leaf has nothing after it in its section or its subsections
    last = next(a for a, b in pairwise(ids) if not b.startswith(section(a) + "/"))
    assert procedure_continuation(index, marked, last, index.features[last].text) == []
    # nothing is added past the length a procedure's card may take
    assert procedure_continuation(index, marked, pairs[0][0], "x" * PROCEDURE_TEXT) == []


def test_a_comparison_part_s_second_ruling_passes_over_the_leaf_it_quotes(built: Path) -> None:
    from types import SimpleNamespace

    from rulekb.kb.ask.card_compare import with_second_ruling
    from rulekb.kb.ask.card_parts import Part, marked_sentences
    from rulekb.kb.search.searcher import get_index
    from rulekb.kb.text.analysis import tokens as lemmas
    from rulekb.kb.text.sentences import NON_RULING, load_marked

    index = get_index(built)
    marked = load_marked(built)
    ids = [n for n, f in index.features.items() if f.kind == "rule" and len(f.text) < 600]
    first, quoted, other = ids[10], ids[11], ids[12]

    def ruling(node_id: str) -> list[str]:
        return [x.text for x in marked_sentences(marked, index.features[node_id]) if x.mark not in NON_RULING]

    # every word of the quoted leaf and of the other weighs the same: the quoted leaf ranks first
    weights = {t.text: 1.0 for t in lemmas(" ".join(ruling(quoted) + ruling(other)))}
    hits = [SimpleNamespace(node_id=n, kind="rule") for n in (first, quoted, other)]

    def part(citations: list[dict[str, Any]]) -> Part:
        node = index.features[first]
        return Part("10", " ".join(ruling(first)), first, list(node.lines), "text", citations)

    quoting = part([{"source_id": index.features[quoted].source_id, "lines": list(index.features[quoted].lines)}])
    added = with_second_ruling(index, marked, quoting, hits, weights, set(), "comparison")
    new = [c for c in added.citations if c not in quoting.citations]
    assert new and all(c["lines"] != list(index.features[quoted].lines) for c in new)
    assert tuple(new[0]["lines"]) == tuple(index.features[other].lines)
    # not quoted, the leaf ranked first gives the second ruling
    plain = part([])
    first_new = [c for c in with_second_ruling(index, marked, plain, hits, weights, set(), "comparison").citations]
    assert first_new and tuple(first_new[0]["lines"]) == tuple(index.features[quoted].lines)


def test_a_comparison_part_adds_the_section_whose_heading_names_the_mechanic(built: Path) -> None:
    from types import SimpleNamespace

    from rulekb.kb.ask.card_compare import HEADING_DEPTH, with_second_ruling
    from rulekb.kb.ask.card_parts import Part, marked_sentences
    from rulekb.kb.search.searcher import get_index
    from rulekb.kb.text.sentences import NON_RULING, load_marked

    index = get_index(built)
    marked = load_marked(built)

    def ruling(node_id: str) -> list[str]:
        return [x.text for x in marked_sentences(marked, index.features[node_id]) if x.mark not in NON_RULING]

    leaves = [n for n, f in index.features.items()
              if f.kind == "rule" and f.edition == "10" and f.heading and len(f.text) < 500 and ruling(n)]
    first = leaves[0]
    headed = next(n for n in leaves[1:] if not set(index.lemmas_of(index.features[n].heading or ""))
                  & set(index.lemmas_of(index.features[first].heading or "")))
    fillers = [n for n in leaves[1:] if n != headed][:HEADING_DEPTH]
    # the question's words are the headed leaf's heading: that leaf's section is what is compared
    weights = {t: 1.0 for t in index.lemmas_of(index.features[headed].heading or "")}
    assert weights
    node = index.features[first]
    part = Part("10", " ".join(ruling(first)), first, list(node.lines), "text", [])
    hits = [SimpleNamespace(node_id=n, kind="rule") for n in (first, fillers[0], fillers[1], headed)]
    added = with_second_ruling(index, marked, part, hits, weights, set(), "comparison")
    assert any(tuple(c["lines"]) == tuple(index.features[headed].lines) for c in added.citations)
    assert ruling(headed)[0] in added.text
    # beyond the edition's first passages the heading is not read
    far = [SimpleNamespace(node_id=n, kind="rule") for n in (first, *fillers, headed)]
    assert len(far) > HEADING_DEPTH + 1
    kept = with_second_ruling(index, marked, part, far, weights, set(), "comparison")
    assert all(tuple(c["lines"]) != tuple(index.features[headed].lines) for c in kept.citations)

def test_the_words_describing_a_book_are_not_the_term_asked(built: Path) -> None:
    from rulekb.kb.ask.card_terms import book_words_removed, pick_concepts

    assert book_words_removed("How is Pile In rendered in the 6th-edition assault text?") == (
        "How is Pile In rendered in the 6th-edition text?")
    assert book_words_removed("the 10th-edition core rules") == "the 10th-edition rules"
    assert book_words_removed("How is Assault rendered?") == "How is Assault rendered?"  # no book named
    question = "How is Pile In rendered in the 6th-edition assault text and the 10th-edition core rules?"
    assert pick_concepts(built, question, []) == ["pile-in"]
    card = ask(question, build_dir=built)["card"]
    check_card(card)
    assert card["kind"] == "terminology" and card["concept"] == "pile-in" and "concepts" not in card
    assert {p["edition"] for p in card["per_edition"]} == {"6", "10"}


def test_a_terminology_question_reads_every_edition_ordinal_it_lists(built: Path) -> None:
    from rulekb.kb.ask.card_terms import asked_editions

    question = "Как переведён consolidate в 6-й редакции и в тексте 10-й?"
    assert asked_editions(question, ["6"]) == ["6", "10"]
    assert asked_editions("Как переведён 1-й шаг в 6-й редакции?", ["6"]) == ["6"]  # no edition numbered 1
    assert asked_editions("Как переведён consolidate?", []) == []  # naming none asks every book
    card = ask(question, build_dir=built)["card"]
    assert card["kind"] == "terminology"
    assert {p["edition"] for p in card["per_edition"]} == {"6", "10"}


def test_an_english_line_gives_ranges_of_results_in_the_rulebooks_notation() -> None:
    from rulekb.kb.ask.card_english import measures, result_ranges

    ruling = "бросок на попадание без модификаторов от 1 до 3 всегда проваливается"
    assert result_ranges(ruling) == ["1-3"]
    assert "1-3" in measures(ruling, ranges=True) and "1-3" not in measures(ruling)
    assert result_ranges("При выпадении 1-2 одна модель уничтожается") == ["1-2"]
    assert result_ranges("в пределах 1-3 дюймов") == []  # a distance, not results
    assert result_ranges('от 1 до 6"') == []
    assert result_ranges("стр. 12-14") == []


def test_an_english_line_names_a_characteristic_with_its_abbreviation(built: Path) -> None:
    from rulekb.kb.ask.card_english import line_name

    assert line_name(built, "armour-penetration") == "Armour Penetration (AP)"
    assert line_name(built, "objective-control") == "Objective Control (OC)"
    assert line_name(built, "move") == "Move"  # one letter says nothing alone
    card = ask("What does AP do to my armour save in 10th?", build_dir=built, use_faq=False)["card"]
    assert card["lang"] == "en" and "Armour Penetration (AP)" in card["text"]


def test_a_terminology_question_finds_an_inflected_or_misspelt_english_name(built: Path) -> None:
    from rulekb.kb.ask.card_terms import pick_concepts, records

    known = records(built)
    assert str(known["devastating-wounds"]["english"]).endswith("Wounds")
    # the singular of a plural name, a plural of a singular one, a hyphen typed or not
    assert pick_concepts(built, "How is Devastating Wound translated?", []) == ["devastating-wounds"]
    assert pick_concepts(built, "How are Deep Strikes rendered?", []) == ["deep-strike"]
    assert pick_concepts(built, "How is Pile-In rendered?", []) == ["pile-in"]
    # one edit off the name: every concept under that name, as for the name spelt right
    spelt = set(pick_concepts(built, "How is Overwatch translated?", []))
    assert len(spelt) >= 2 and set(pick_concepts(built, "How is Overwach translated?", [])) == spelt
    assert pick_concepts(built, "How is Consolidaton rendered?", []) == ["consolidate"]
    card = ask("How is Overwach translated in Kill Team?", build_dir=built)["card"]
    assert card["kind"] == "terminology" and {p["edition"] for p in card["per_edition"]} == {"kt"}
