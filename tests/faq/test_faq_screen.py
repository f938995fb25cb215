"""Screening the FAQ entries a card may be led by (:func:`rulekb.kb.ask.faq_pick.screen_matches`):
an entry whose cited passage retrieval does not rank first for its edition, an entry on the other
side of an aspect (melee or shooting, placing or ending on), an entry giving no number for a number
asked — each is kept as related with its reason and never leads."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.ask.faq_pick import (
    RETRIEVAL_DEPTH,
    answers_a_number,
    aspects_clash,
    retrieval_order,
    screen_matches,
)
from rulekb.kb.faq.entries import FaqCitation, FaqEntry, load_faq
from rulekb.kb.search.searcher import get_index, make_hit, search_parsed
from rulekb.kb.text.analysis import lemmas

BY_ID = {entry.id: entry for entry in load_faq()}


def entry(question: str, *variants: str, answer: str = "Ответ для проверки отбора записей.") -> FaqEntry:
    return FaqEntry(id="10e-screen-test", question=question, variants=variants, edition="10", concepts=("test",),
                    answer=answer, citation=(FaqCitation(source="10e-core", lines=(1, 2), quotes=("x",)),))


def test_an_entry_on_the_other_side_of_an_aspect_clashes() -> None:
    shooting = BY_ID["10e-split-fire"]  # the shooting split-fire entry
    assert aspects_clash(lemmas("Можно ли разделить атаки в рукопашной по разным отрядам?"), shooting)
    assert not aspects_clash(lemmas("Можно ли стрелять отрядом по двум целям?"), shooting)
    assert not aspects_clash(lemmas("Можно ли разделить атаки по разным целям?"), shooting)  # no side taken
    placing = BY_ID["10e-objective-placement"]  # placing markers, not ending a move on one
    assert aspects_clash(lemmas("можно ли закончить движение на маркере цели"), placing)
    assert not aspects_clash(lemmas("где ставить маркеры целей"), placing)
    # an entry speaking of both sides takes none: it may answer either
    both = entry("Можно ли стрелять или драться после отступления?", "стрельба и бой после фолбэка", "shoot or fight")
    assert not aspects_clash(lemmas("можно ли драться после отступления"), both)


def test_a_number_asked_needs_an_entry_that_gives_one() -> None:
    assert answers_a_number(entry("Можно ли высадиться после движения?", "высадка", "disembark",
                                  answer="Да, в пределах 3 дюймов от транспорта."))
    assert answers_a_number(entry("На сколько дюймов двигается отряд?", "движение", "move distance"))
    assert not answers_a_number(entry("Можно ли высадиться после движения?", "высадка после мува", "disembark",
                                      answer="Нет: транспорт, который двигался, не высаживает отряды."))


def test_retrieval_order_undoes_the_faq_lift(built: Path) -> None:
    index = get_index(built)
    hits = search_parsed(index, index.parse("можно ли стрелять после продвижения"), 6, snippets=False)
    assert len(hits) >= 3
    lifted = [hits[2], hits[0], hits[1], *hits[3:]]  # a FAQ match moved its cited leaf first, scores unchanged
    assert retrieval_order(lifted) == [h.node_id for h in sorted(hits, key=lambda h: -h.score)]
    # a cited leaf retrieval had not found carries the first hit's score, put before it: not first
    unfound = next(f for n, f in index.features.items() if n not in {h.node_id for h in hits})
    made_up = make_hit(unfound, hits[0].score)
    assert retrieval_order([made_up, *hits])[0] == hits[0].node_id


def test_an_entry_leads_only_from_the_edition_s_first_passage(built: Path) -> None:
    index = get_index(built)
    cited = {e.id: set(index.faq_leaves.get(e.id, [])) for e in index.faq}
    tenth = [e for e in index.faq if e.edition == "10" and cited[e.id]]
    first = index.features[next(iter(cited[tenth[0].id]))]
    other = next(e for e in tenth if not cited[e.id] & cited[tenth[0].id])
    hits = [make_hit(first, 10.0), *(make_hit(index.features[n], 5.0 - i) for i, n in enumerate(sorted(cited[other.id])))]
    question = tenth[0].question
    kept, rejected = screen_matches(index, question, "lookup", hits, [(tenth[0], 0.9), (other, 0.8)])
    assert [e.id for e, _ in kept] == [tenth[0].id]
    assert [(g.entry.id, g.reason, g.leads) for g in rejected] == [(other.id, "passages", False)]
    # lifted by the FAQ above the first passage, the other entry's leaf is still not retrieval's first
    lifted = [hits[1], hits[0], *hits[2:]]
    assert RETRIEVAL_DEPTH == 1
    assert [g.entry.id for g in screen_matches(index, question, "lookup", lifted, [(other, 0.9)])[1]] == [other.id]
    # an edition with no hit here is left to the card's own search for it
    sixth = next(e for e in index.faq if e.edition == "6" and cited[e.id])
    assert screen_matches(index, sixth.question, "lookup", hits, [(sixth, 0.9)])[0] == [(sixth, 0.9)]
    # at most two entries of an edition are tried, as the card's gate tries them
    many = [(e, 0.9 - i / 100) for i, e in enumerate(tenth[:4])]
    kept, rejected = screen_matches(index, question, "lookup", hits, many)
    assert len(kept) + len(rejected) == 2


def test_the_card_lists_a_screened_entry_as_related(built: Path) -> None:
    """Asked of the built knowledge base: the shooting split-fire entry never leads a melee question,
    the entry on placing markers never leads one on ending a move on a marker; what the card does
    not lead with is related, with its reason."""
    from rulekb.kb.ask.answer import ask

    index = get_index(built)

    def leading(card: dict[str, object]) -> str | None:
        if card["source"] != "faq":
            return None
        cited = [c["lines"] for c in card["citations"]]  # type: ignore[attr-defined]
        return next(e.id for e in index.faq if [list(c.lines) for c in e.citations] == cited)

    for question, neighbour in (("Можно ли разделить рукопашные атаки отряда по разным целям?", "10e-split-fire"),
                                ("можно ли закончить движение на маркере цели", "10e-objective-placement")):
        card = ask(question, build_dir=built, edition="10")["card"]
        assert leading(card) != neighbour, card["text"]
        for gate in card["related_faq"]:
            assert not gate["leads"] and gate["reason"] in ("edition", "score", "passages", "aspect", "opposite", "form")
    melee = ask("Можно ли разделить рукопашные атаки отряда по разным целям?", build_dir=built, edition="10")["card"]
    assert "10e-split-fire" in {g["id"] for g in melee["related_faq"]}
