"""The words of the text under a FAQ answer: quotes widened to their sentences, what is asked first."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.ask.card_faq import _plain, ruling_quote
from rulekb.kb.ask.part import MAX_QUOTE, marked_sentences
from rulekb.kb.search.knowledge_index import get_index
from rulekb.kb.text.analysis import tokens
from rulekb.kb.text.sentences import Sentence, load_marked


def _weights(text: str) -> dict[str, float]:
    return {t.text: 1.0 for t in tokens(text)}


def test_a_quote_that_stops_before_its_verdict_is_widened_to_its_sentence() -> None:
    sentence = Sentence.read("Эта модель проходит все тесты на Инициативу и никогда не получает маркер «Огонь».")
    ruling = ruling_quote(["проходит все тесты на Инициативу"], [sentence], "", {})
    assert ruling == sentence.text


def test_the_quote_that_carries_what_is_asked_comes_first() -> None:
    first = Sentence.read("Отряд выбирает цели до первой атаки.")
    second = Sentence.read("Отряд не может стрелять после отступления.")
    ruling = ruling_quote([first.text, second.text], [first, second], "", _weights("стрелять отступления"))
    assert ruling.startswith(second.text)
    assert first.text in ruling


def test_equal_pieces_keep_the_entry_order_and_a_repeat_is_shown_once() -> None:
    one, two = Sentence.read("Первое правило."), Sentence.read("Второе правило.")
    ruling = ruling_quote(["Первое", "Второе", "Первое правило"], [one, two], "", {})
    assert ruling == "Первое правило. … Второе правило."


def test_the_chosen_sentence_is_added_where_no_quote_holds_it() -> None:
    quoted = Sentence.read("Бросок делают оба игрока.")
    chosen = "При равенстве кубики перебрасывают."
    assert ruling_quote([quoted.text], [quoted], chosen, {}).endswith(chosen)
    assert ruling_quote([quoted.text], [quoted], quoted.text, {}) == quoted.text
    assert ruling_quote([], [], chosen, {}) == chosen


def test_a_sentence_too_long_to_show_stays_as_quoted() -> None:
    long = Sentence.read("Слово " * (MAX_QUOTE // 6 + 10) + "конец.")
    assert ruling_quote(["Слово Слово"], [long], "", {}) == "Слово Слово"


def test_every_built_entry_quote_is_shown_within_its_widened_ruling(built: Path) -> None:
    index = get_index(built)
    marked = load_marked(built)
    checked = 0
    for entry in index.faq:
        quotes = [q for c in entry.citations for q in c.quotes]
        cited = [n for n in index.faq_leaves.get(entry.id, []) if n in index.features]
        sentences = [s for n in cited for s in marked_sentences(marked, index.features[n])]
        ruling = ruling_quote(quotes, sentences, "", {})
        assert len(ruling) <= MAX_QUOTE + 1
        if quotes and len(ruling) < MAX_QUOTE and not ruling.endswith("…"):
            for quote in quotes:  # nothing the entry quotes is lost by the widening
                assert _plain(quote) in _plain(ruling), (entry.id, quote)
            checked += 1
    assert checked > 20


def test_a_text_part_beside_a_faq_part_reads_the_passage_of_the_entry_s_concept(built: Path) -> None:
    """Asked each entry's own question: where the card has the entry's FAQ part and a text part of
    another edition, and that edition has a passage for a concept both the question and the entry's
    cited passages carry, the text part quotes such a passage."""
    from rulekb.kb.ask.answer import ask
    from rulekb.kb.ask.card_editions import OTHER_EDITIONS_MIN_WEIGHT

    index = get_index(built)
    checked = 0
    for entry in index.faq:
        card = ask(entry.question, build_dir=built)["card"]
        parts = card.get("per_edition") or []
        if card.get("kind") != "ruling" or not any(p["source"] == "faq" and p["edition"] == entry.edition
                                                   for p in parts):
            continue
        parsed = index.parse(entry.question)
        cited = [index.features[n] for n in index.faq_leaves.get(entry.id, []) if n in index.features]
        carried = {c for f in cited for c in (*f.defines, *f.concepts)}
        aspect = [c for c in parsed.concepts if c in carried and index.concept_weight(c) >= OTHER_EDITIONS_MIN_WEIGHT]
        for part in parts:
            nodes = {n for c in aspect for n in index.concept_nodes.get(c, {}).get(part["edition"], [])[:1]}
            if part["source"] == "text" and nodes:
                # the part's passage rules on the aspect: the concept's first passage, or one carrying the concept
                own = index.features[part["node_id"]]
                carries = set(aspect) & {*own.defines, *own.concepts}
                assert part["node_id"] in nodes or carries, (entry.id, part["edition"], part["node_id"])
                checked += 1
    assert checked > 0


def test_a_part_beside_a_faq_part_whose_passage_rules_on_the_aspect_is_kept(built: Path) -> None:
    """A text part whose passage already carries the concept the entry answers is not swapped for that
    concept's first passage (the 7th edition's «отступающая … только навскидку» for a question on
    shooting after falling back, not the passage on moving through enemy models)."""
    from rulekb.kb.ask.answer import ask

    card = ask("Может ли отряд стрелять после отступления?", build_dir=built)["card"]
    parts = {p["edition"]: p for p in card.get("per_edition") or []}
    assert any(p["source"] == "faq" for p in parts.values())
    seventh = parts.get("7")
    assert seventh is not None and seventh["source"] == "text"
    assert "навскидку" in seventh["text"]


def test_every_faq_card_reads_the_same_in_processes_of_different_hash_seeds(built: Path) -> None:
    """A card is the same in every worker: nothing in it depends on the order of a set, which the
    hash seed of each process changes (equal pieces of a FAQ quote once swapped places)."""
    import os
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from rulekb.kb.ask.answer import ask\n"
        "from rulekb.kb.search.knowledge_index import get_index\n"
        "build = Path(sys.argv[1])\n"
        "for entry in get_index(build).faq:\n"
        "    print(json.dumps(ask(entry.question, build_dir=build)['card']['text'], ensure_ascii=False))\n"
    )
    texts = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script, str(built)], env=env, capture_output=True, text=True,
                              check=True)
        texts.append(done.stdout.splitlines())
    assert len(texts[0]) == len(get_index(built).faq) > 0
    assert texts[0] == texts[1]
