"""Each edition's defining passage of a concept defines it: the concept's rendering (in the
passage or the heading it opens) in a sentence that is neither a pointer to another page nor
an exception, and the passages the texts spread over several places are all there."""

from __future__ import annotations

import re

import pytest

from rulekb.corpus.models import RuleNode
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.graph.linker import Definition, Links, link
from rulekb.kb.termbase import Termbase, default_termbase
from rulekb.kb.termbase.sense import SenseResolver

_POINTER = re.compile(r"\bсм\.|\bстр\.|страниц|описан\w* в разделе", re.IGNORECASE)
_NEGATED = re.compile(r"(?<![\w-])(?:не|нельзя|ни)(?![\w-])", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s*|\n+|\s•\s*")


@pytest.fixture(scope="module")
def termbase() -> Termbase:
    return default_termbase()


@pytest.fixture(scope="module")
def links(corpus: ParsedCorpus, termbase: Termbase) -> Links:
    return link(corpus, termbase)


def _passage(definition: Definition, node: RuleNode) -> str:
    return definition.excerpt or node.text_clean or node.text


def _defining_sentences(definition: Definition, corpus: ParsedCorpus, termbase: Termbase) -> list[str]:
    """Sentences of the passage that define the concept: not a pointer («см. стр. 29»), and
    not an exception — no negation before the concept's rendering («Модели не получают
    спасбросков за укрытие…»), or, when only the heading names the concept, none in the
    sentence's first clause."""
    by_id = {n.id: n for n in corpus.nodes}
    node = by_id[definition.node_id]
    resolver = SenseResolver(termbase, node.source_id)
    parent = by_id.get(node.parent_id or "")
    titles = [node.title_clean or node.title] if node.kind.value == "rule" and node.title else []
    if parent is not None and parent.parent_id is not None:
        titles.append(parent.title_clean or parent.title)
    titled = any(definition.concept_id in {a.concept_id for a in resolver.find(t, heading=True)} for t in titles)
    english = termbase[definition.concept_id].english.casefold()
    # the concept, or a narrower one named after it («истинная линия обзора» for line of sight)
    ours = {c.id for c in termbase if c.id == definition.concept_id or english in c.english.casefold()}
    out = []
    for sentence in _SENTENCE.split(_passage(definition, node)):
        if not sentence.strip() or _POINTER.search(sentence):
            continue
        own = [a.match.start for a in resolver.find(sentence) if a.concept_id in ours]
        named_here = bool(own) and not _NEGATED.search(sentence[: min(own)] if own else "")
        if named_here or (titled and not _NEGATED.search(sentence.split(",")[0])):
            out.append(sentence)
    return out


def test_every_defining_passage_has_a_defining_sentence(links: Links, corpus: ParsedCorpus, termbase: Termbase) -> None:
    by_id = {n.id: n for n in corpus.nodes}
    bad: list[str] = []
    for concept in {d.concept_id for d in links.definitions}:
        for source in {by_id[d.node_id].source_id for d in links.definitions if d.concept_id == concept}:
            passages = [d for d in links.definitions if d.concept_id == concept and by_id[d.node_id].source_id == source]
            if not any(_defining_sentences(d, corpus, termbase) for d in passages):
                shown = ", ".join(f"{by_id[d.node_id].lines[0]}–{by_id[d.node_id].lines[1]}" for d in passages)
                bad.append(f"{concept} in {source} ({shown})")
    assert not bad, "defining passages with no defining sentence: " + "; ".join(sorted(bad))


def _lines(links: Links, corpus: ParsedCorpus, concept: str, source: str) -> set[int]:
    by_id = {n.id: n for n in corpus.nodes}
    out: set[int] = set()
    for d in links.definitions:
        node = by_id[d.node_id]
        if d.concept_id == concept and node.source_id == source:
            a, b = d.lines or node.lines
            out |= set(range(a, b + 1))
    return out


def test_the_passages_the_reading_found_wrong_are_right(links: Links, corpus: ParsedCorpus) -> None:
    locked = _lines(links, corpus, "locked-in-combat", "6e-assault")
    assert 129 in locked and not locked & {304, 305, 306}
    assert not _lines(links, corpus, "falling-back", "6e-assault")  # 226 only points to page 29
    assert not _lines(links, corpus, "reserves", "kt")  # 123 lists the missions' rules
    assert not _lines(links, corpus, "deep-strike", "kt")
    # exceptions, not definitions: artillery going to ground, Non-flammable passing Initiative tests
    assert not _lines(links, corpus, "go-to-ground", "7e-pp58-67")
    assert not _lines(links, corpus, "initiative-test", "kt")
    assert 195 not in _lines(links, corpus, "cover-save", "6e-assault")
    overwatch = [d for d in links.definitions if d.concept_id == "fire-overwatch"]
    text = " ".join(d.excerpt or "" for d in overwatch)
    assert "1CP" in text and "СПУСТИТЬСЯ НА ЗЕМЛЮ" not in text and "В поисках спасения" not in text
    ingress = " ".join(d.excerpt for d in links.definitions if d.concept_id == "rapid-ingress")
    assert ingress and "КОНТРОЛЬ ЗА ПОЖАРОМ" not in ingress


def test_no_stratagem_passage_runs_into_the_next_stratagem(links: Links, corpus: ParsedCorpus) -> None:
    """The 10th-edition stratagems run into each other («…за ход.СПУСТИТЬСЯ НА ЗЕМЛЮ1CP…»): a
    defining passage holds at most its own title and cost."""
    by_id = {n.id: n for n in corpus.nodes}
    for d in links.definitions:
        node = by_id[d.node_id]
        text = d.excerpt or node.text
        titles = re.findall(r"[А-ЯЁ][А-ЯЁ ,\-]{3,}\dCP", text)
        assert len(titles) <= 1 and (not titles or text.lstrip().startswith(titles[0])), f"{d.concept_id} {node.lines}: {titles}"


@pytest.mark.parametrize(
    ("concept", "source", "lines"),
    [
        ("leadership-test", "6e-rules", {315}),  # the automatic pass on a double 1 (313–315)
        ("fall-back", "10e-core", {430, 432, 436}),  # Desperate Escape
        ("fights-first", "10e-core", {1031}),  # players alternate selecting units to fight
    ],
)
def test_the_omitted_parts_are_defining(links: Links, corpus: ParsedCorpus, concept: str, source: str, lines: set[int]) -> None:
    assert lines <= _lines(links, corpus, concept, source)
