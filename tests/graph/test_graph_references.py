"""Cross-references: every printed form is found, page references resolve inside the book's own
pages and are reported (with the page and the reason) everywhere else."""

from __future__ import annotations

import re

import pytest

from rulekb.corpus.models import NodeKind, RuleNode
from rulekb.corpus.parser import ParsedCorpus
from rulekb.kb.graph.references import Reference, find_references
from rulekb.kb.graph.resolve import resolve_references


def _leaf(text: str, source_id: str = "6e-assault", start: int = 10, page: int | None = None) -> RuleNode:
    return RuleNode(
        id=f"{source_id}/x/leaf",
        source_id=source_id,
        edition="6",
        kind=NodeKind.RULE,
        parent_id=f"{source_id}/x",
        lines=(start, start + text.count("\n")),
        page=page,
        text=text,
        text_clean=" ".join(text.split()),
    )


@pytest.mark.parametrize(
    ("text", "kind", "page"),
    [
        ("пройти тест на Опасный ландшафт (см. стр.90).", "page", 90),
        ("Проведите тест (см. стр 90) если это необходимо", "page", 90),
        ("бросок не производится (страница 17).", "page", 17),
        ("последние два правила описаны на стр. 2).", "page", 2),
        ("включает независимого персонажа (с. 166)", "page", 166),
        ("as explained elsewhere (see page 27).", "page", 27),
        ("смотрите иллюстрацию на странице 28, для примера", "figure", 28),
        ("измеряются от ближайших моделей (см. рис. ниже).", "figure", None),
        ("должна пройти тест на перегруппировку (см. страницу напротив).", "facing-page", None),
        ("неуязвимые спасброски (см. ниже). Чтобы", "relative", None),
        ("как описано выше.", "relative", None),
        ("приведены в промежутке между страницами 10 и 31.", "page-range", 10),
        ("бросок на попадание (см. «Совершение атак» ).", "named", None),
        ("как описано в разделе «Крупные орудия никогда не устают» .", "named", None),
    ],
)
def test_each_printed_form_is_found(text: str, kind: str, page: int | None) -> None:
    refs = find_references([_leaf(text)])
    assert [(r.kind, r.page) for r in refs] == [(kind, page)], refs


def test_a_page_list_gives_one_reference_per_page_and_lines_count_from_the_leaf() -> None:
    refs = find_references([_leaf("Первая строка.\nОгонь только навскидку (см. с. 38 и 63).", start=12)])
    assert [(r.page, r.line, r.text) for r in refs] == [(38, 13, "см. с. 38 и 63"), (63, 13, "см. с. 38 и 63")]


@pytest.mark.parametrize(
    "text",
    [
        "(смещение мы обсудим чуть позже в этой главе)",  # «(см» inside a word
        "На этой странице вы найдете все, что нужно знать",
        "расстоянии более 2,5 см от всех непроходимых частей",
        "Иногда правило попросит (см. этот бросок) кинуть D6",  # not a direction, no section by that name
    ],
)
def test_words_that_only_look_like_references_are_not_found_or_do_not_resolve(text: str, corpus: ParsedCorpus) -> None:
    refs = find_references([_leaf(text)])
    assert all(r.kind == "named" for r in refs)
    node = next(n for n in corpus.nodes if n.source_id == "6e-assault" and n.is_leaf)
    moved = [Reference(**{**r.__dict__, "node_id": node.id}) for r in refs]
    assert not any(r.resolved for r in resolve_references(moved, corpus.nodes))


@pytest.fixture(scope="module")
def resolved(corpus: ParsedCorpus) -> list[Reference]:
    return resolve_references(find_references(corpus.nodes), corpus.nodes)


def _at(refs: list[Reference], source_id: str, line: int) -> list[Reference]:
    return [r for r in refs if r.source_id == source_id and r.line == line]


def test_a_page_inside_the_book_resolves_to_a_node_on_that_page(resolved: list[Reference], corpus: ParsedCorpus) -> None:
    nodes = {n.id: n for n in corpus.nodes}
    refs = {r.page: r for r in _at(resolved, "7e-pp58-67", 13)}
    assert set(refs) == {38, 63}
    (target,) = refs[63].targets
    assert nodes[target].page == 63
    assert "ТУРБОУСКОРЕНИЕ" in nodes[target].title  # «не может бегать и турбоускоряться (см. с. 38 и 63)»
    assert not refs[38].resolved
    assert "page 38" in refs[38].reason and "58–67" in refs[38].reason


def test_the_facing_page_of_58_is_59(resolved: list[Reference], corpus: ParsedCorpus) -> None:
    nodes = {n.id: n for n in corpus.nodes}
    (ref,) = _at(resolved, "7e-pp58-67", 21)
    assert ref.kind == "facing-page" and ref.page == 59
    assert [nodes[t].page for t in ref.targets] == [59]
    assert "ПЕРЕГРУППИРОВКА" in nodes[ref.targets[0]].title.upper()


def test_pages_of_books_without_page_markers_are_reported_with_page_and_reason(resolved: list[Reference]) -> None:
    hazardous = _at(resolved, "6e-assault", 95)
    assert [(r.page, r.resolved) for r in hazardous] == [(90, False)]
    assert "no page markers" in hazardous[0].reason
    kt = _at(resolved, "kt", 123)
    assert [(r.page, r.resolved) for r in kt] == [(2, False)]


def test_relative_references_point_at_the_named_heading_in_their_direction(
    resolved: list[Reference], corpus: ParsedCorpus
) -> None:
    nodes = {n.id: n for n in corpus.nodes}
    position = {n.id: i for i, n in enumerate(corpus.nodes)}
    (below,) = _at(resolved, "10e-core", 638)  # «неуязвимые спасброски … (см. ниже)»
    assert below.direction == "below" and below.method == "title"
    assert "Неуязвим" in nodes[below.targets[0]].title
    assert position[below.targets[0]] > position[below.node_id]
    consolidate = [r for r in _at(resolved, "6e-assault", 237) if r.kind == "relative"]
    assert [nodes[t].title for r in consolidate for t in r.targets] == ["Консолидация"]


def test_no_reference_points_at_its_own_section(resolved: list[Reference], corpus: ParsedCorpus) -> None:
    parent = {n.id: n.parent_id for n in corpus.nodes}
    for ref in resolved:
        ancestors = set()
        node: str | None = parent[ref.node_id]
        while node is not None:
            ancestors.add(node)
            node = parent[node]
        assert not ancestors & set(ref.targets), ref


_SEE = re.compile(r"\(\s*см\.|см\.\s*(?:стр|с\.|ниже|выше|рис|страниц)|\bна\s+стр(?:\.|аниц[еа])?\s*\d", re.IGNORECASE)


def test_every_printed_see_reference_is_found(resolved: list[Reference], corpus: ParsedCorpus) -> None:
    found = {(r.source_id, r.line) for r in resolved}
    missing = []
    for node in corpus.nodes:
        if node.kind is NodeKind.RULE or node.kind is NodeKind.SUMMARY:
            for offset, line in enumerate(node.text.split("\n")):
                if _SEE.search(line) and (node.source_id, node.lines[0] + offset) not in found:
                    missing.append((node.source_id, node.lines[0] + offset, line[:80]))
    assert not missing


def test_every_reference_is_either_resolved_or_says_why(resolved: list[Reference]) -> None:
    assert len(resolved) >= 50
    for ref in resolved:
        assert bool(ref.targets) != bool(ref.reason), ref
