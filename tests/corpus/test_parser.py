"""The parser's promises: lossless, citation-exact, fine-grained, every printed heading a title."""

from __future__ import annotations

from collections import Counter

import pytest

from rulekb.corpus.models import HEADING_KINDS, NodeKind, UnprintedHeading
from rulekb.corpus.parser import MAX_LEAF_LINES, ParsedCorpus, parse_source
from rulekb.corpus.reader import load_manifest, read_lines, read_source

SOURCES = ["10e-core", "6e-rules", "6e-assault", "7e-pp58-67", "kt"]


@pytest.mark.parametrize("source_id", SOURCES)
def test_lossless_every_nonblank_line_once_in_order(corpus: ParsedCorpus, source_id: str) -> None:
    parsed = next(p for p in corpus.sources if p.source.id == source_id)
    raw = read_lines(source_id)
    owned: list[int] = []
    for node in parsed.nodes:
        if node.kind is NodeKind.SOURCE or node.unprinted:  # a lost heading prints no line of its own
            continue
        a, b = node.lines
        owned.extend(n for n in range(a, b + 1) if raw[n - 1].replace("\u00a0", " ").strip())
    expected = [n for n, line in enumerate(raw, 1) if line.replace("\u00a0", " ").strip()]
    assert owned == expected  # each non-blank line exactly once, in document order


@pytest.mark.parametrize("source_id", SOURCES)
def test_leaf_text_is_the_raw_lines(corpus: ParsedCorpus, source_id: str) -> None:
    raw = read_lines(source_id)
    for node in corpus.nodes:
        if node.source_id == source_id and node.is_leaf:
            a, b = node.lines
            assert node.text == "\n".join(raw[a - 1 : b])
            assert node.text_clean.strip(), node.id


def test_leaves_are_small(corpus: ParsedCorpus) -> None:
    long_kinds = {NodeKind.TOC, NodeKind.TABLE, NodeKind.CREDITS}
    too_long = [
        (n.id, n.lines)
        for n in corpus.nodes
        if n.is_leaf and n.kind not in long_kinds and n.lines[1] - n.lines[0] + 1 > MAX_LEAF_LINES
    ]
    assert too_long == []


def test_ids_are_unique_readable_and_parents_exist(corpus: ParsedCorpus) -> None:
    ids = [n.id for n in corpus.nodes]
    assert len(ids) == len(set(ids))
    known = set(ids)
    for node in corpus.nodes:
        assert node.id.startswith(node.source_id)
        assert node.id.isascii() and " " not in node.id
        assert node.parent_id is None or node.parent_id in known
        if node.parent_id is not None:
            assert node.id.startswith(node.parent_id + "/")


def test_only_headings_have_children(corpus: ParsedCorpus) -> None:
    by_id = {n.id: n for n in corpus.nodes}
    for node in corpus.nodes:
        if node.parent_id is not None:
            assert by_id[node.parent_id].kind in HEADING_KINDS


PRINTED_HEADINGS = {
    "10e-core": [
        "ФАЗА КОМАНДОВАНИЯ", "1. Команда", "2. Боевой шок", "Согласованность модулей",
        "Диапазон поражения", "Перебросы кубиков", "Начальная сила", "Пристроенные блоки",
        "ФАЗА ДВИЖЕНИЯ", "Продвинутые ходы", "Запасные ходы", "Транспорты", "Высадка",
        "Совершение нападений", "1. Ударная калитка", "2. БРОСОК НА РАНЕНИЯ", "4. Спасбросок",
        "Неуязвимые сохранения", "Смертельные раны", "5. Нанесение ущерба", "Способности оружия",
        "Быстрый огонь", "Мелта", "Взрыв", "Торрент", "Устойчивые хиты", "ФАЗА РЫВКА",
        "Бонус за рывок", "ФАЗА БОРЬБЫ", "3. Консолидация", "Стратегические резервы",
    ],
    "6e-rules": [
        "НАВЫК БЛИЖНЕГО БОЯ (WS)", "ЛИДЕРСТВО (Ld)", "БРОСОК D3", "КУБИК СМЕЩЕНИЯ", "ПЕРЕБРАСЫВАНИЕ",
        "СЛУЧАЙНЫЙ ВЫБОР", "Тест на лидерство", "Линия прямой видимости",
    ],
    "6e-assault": [
        "ШАГИ ИНИЦИАТИВЫ", "Берегитесь, сэр!", "БРОСОК НА ПОПАДАНИЕ", "Бросок на ранение",
        "Стремительное Продвижение", "Консолидация", "Тест на Мораль", "Срыв атаки.",
    ],
    "7e-pp58-67": [
        "Отступление из ближнего боя", "Зажаты!", "ПЕРЕГРУППИРОВКА", "ТУРБОУСКОРЕНИЕ",
        "ПРЫЖКОВЫЕ БОЕВЫЕ ЕДИНИЦЫ", "МОНСТРУОЗНЫЕ СОЗДАНИЯ",
    ],
    "kt": [
        "Огонь на упреждение ( overwatch)", "КОНТРНАСТУПЛЕНИЕ (COUNTER- CHARGE)", "ПОДДЕРЖИВАЮЩИЕ АТАКИ",
        "ВДОХНОВЛЯЮЩЕЕ ПРИСУТСТВИЕ (INSPIRING PRESENCE)", "МИССИИ КИЛЛТИМ",
    ],
}  # fmt: skip


def test_printed_headings_are_node_titles(corpus: ParsedCorpus) -> None:
    assert sum(len(v) for v in PRINTED_HEADINGS.values()) >= 40
    missing = []
    for source_id, titles in PRINTED_HEADINGS.items():
        have = {n.title for n in corpus.nodes if n.source_id == source_id and n.kind in HEADING_KINDS}
        missing += [(source_id, t) for t in titles if t not in have]
    assert missing == []


def test_repeated_subheadings_get_distinct_ids(corpus: ParsedCorpus) -> None:
    movement = [n for n in corpus.nodes if n.source_id == "7e-pp58-67" and n.title == "ДВИЖЕНИЕ"]
    assert len(movement) >= 3
    assert len({n.parent_id for n in movement}) == len(movement)


def test_every_node_of_the_paged_text_has_its_page(corpus: ParsedCorpus) -> None:
    nodes = [n for n in corpus.nodes if n.source_id == "7e-pp58-67"]
    assert all(n.page is not None for n in nodes)
    raw = read_lines("7e-pp58-67")
    # the page of a node is the last «С. N» marker at or above its first line
    for node in nodes:
        markers = [int(raw[i].split()[-1]) for i in range(node.lines[0]) if raw[i].startswith("С. ")]
        assert node.page == (markers[-1] if markers else 58)
    assert {n.page for n in nodes} == set(range(58, 68))


def test_toc_credits_preface_and_page_kinds(corpus: ParsedCorpus) -> None:
    kinds = {(n.source_id, n.kind) for n in corpus.nodes}
    assert ("10e-core", NodeKind.TOC) in kinds
    assert ("6e-assault", NodeKind.CREDITS) in kinds
    toc = next(n for n in corpus.nodes if n.kind is NodeKind.TOC)
    assert "1. Ударная калитка" in toc.text and toc.lines[0] < 10
    credits = next(n for n in corpus.nodes if n.kind is NodeKind.CREDITS)
    assert "BlackChaplain" in credits.text
    pages = [n for n in corpus.nodes if n.kind is NodeKind.PAGE]
    assert len(pages) == 10 and all(n.source_id == "7e-pp58-67" for n in pages)


def test_summaries_examples_and_tables_are_their_own_leaves(corpus: ParsedCorpus) -> None:
    counts = Counter((n.source_id, n.kind) for n in corpus.nodes)
    assert counts[("10e-core", NodeKind.SUMMARY)] >= 40
    assert counts[("10e-core", NodeKind.EXAMPLE)] >= 10
    assert counts[("6e-assault", NodeKind.EXAMPLE)] >= 4
    for node in corpus.nodes:
        if node.kind is NodeKind.SUMMARY:
            assert node.text.lstrip().startswith("•"), node.id
        if node.kind is NodeKind.EXAMPLE:
            assert node.text.lstrip().startswith(("Пример", "Например", "К пример", "Кпример")), node.id
    table = next(n for n in corpus.nodes if n.kind is NodeKind.TABLE and n.source_id == "7e-pp58-67")
    assert "WS BS S T W I A Ld Sv" in table.text


def test_glued_keywords_are_split_in_clean_text_only(corpus: ParsedCorpus) -> None:
    glued = [n for n in corpus.nodes if "ЭтотТРАНСПОРТНОЕ СРЕДСТВООбладает" in n.text]
    assert glued, "the 10th-edition text glues this keyword"
    for node in glued:
        assert "Этот ТРАНСПОРТНОЕ СРЕДСТВО Обладает" in node.text_clean


def test_sentences_split_by_links_are_joined(corpus: ParsedCorpus) -> None:
    # 10e-core prints «Пример: В» and the rest of the sentence after a blank line
    example = next(n for n in corpus.nodes if n.source_id == "10e-core" and n.text.startswith("Пример: В"))
    assert "Пример: В фазе перемещения" in example.text_clean
    assert example.lines[1] > example.lines[0]


def test_stratagems_are_leaves_named_by_their_printed_name(corpus: ParsedCorpus) -> None:
    boxes = {n.title: n for n in corpus.nodes if n.source_id == "10e-core" and n.kind is NodeKind.RULE}
    for name in ("ПЕРЕБРОС КОМАНДЫ", "КОНТРНАСТУПЛЕНИЕ", "ТАНКОВЫЙ ШОК", "КОНТРОЛЬ ЗА ПОЖАРОМ", "ГЕРОИЧЕСКОЕ ВМЕШАТЕЛЬСТВО"):
        assert name in boxes, name
        assert boxes[name].text.lstrip().startswith("КОГДА")
    # a long box is cut at a field and keeps its name: the overwatch effect is findable by name
    effect = boxes["КОНТРОЛЬ ЗА ПОЖАРОМ — ЭФФЕКТ"]
    assert "6" in effect.text_clean and effect.lines[0] > boxes["КОНТРОЛЬ ЗА ПОЖАРОМ"].lines[1]


def test_glued_lowercase_words_are_split_where_the_source_asks(corpus: ParsedCorpus) -> None:
    rules = " ".join(n.text_clean for n in corpus.nodes if n.source_id == "6e-rules")
    assert "Боевая единица сражается неплотной группой с промежутками" in rules
    assert "в игре" in rules and "вигре" not in rules
    assert "спасбросок" in rules.lower()  # a dictionary-unknown game word stays whole
    raw = " ".join(n.text for n in corpus.nodes if n.source_id == "6e-rules")
    assert "вигре" in raw  # the raw text is never changed


def test_figure_labels_are_one_list_not_headings(corpus: ParsedCorpus) -> None:
    titles = {n.title for n in corpus.nodes if n.kind in HEADING_KINDS}
    assert "Шаблон" not in titles and "СОВЕРШАЙТЕ ХУДШИЕ АТАКИ" not in titles
    labels = next(n for n in corpus.nodes if n.source_id == "6e-rules" and n.text.startswith("Маркер большого"))
    assert labels.kind is NodeKind.LIST and "Малый маркер взрыва" in labels.text


def test_a_step_holds_its_sub_headings_while_the_numbering_goes_on(corpus: ParsedCorpus) -> None:
    by_title = {(n.source_id, n.title): n for n in corpus.nodes}
    save = by_title[("10e-core", "4. Спасбросок")]
    assert by_title[("10e-core", "Неуязвимые сохранения")].parent_id == save.id  # 5. follows 4.
    damage = by_title[("10e-core", "5. Нанесение ущерба")]
    assert damage.parent_id == save.parent_id  # the next step is a sibling, not a child
    # after the last step of a sequence the next section is the step's sibling again
    transports = by_title[("10e-core", "Транспорты")]
    assert by_title[("10e-core", "2. Подкрепления")].id not in (transports.parent_id or "")


def test_a_lost_heading_opens_its_section_where_its_rules_begin(corpus: ParsedCorpus) -> None:
    """``unprinted_headings``: the 10th edition's Leader rules follow «ИНФИЛЬТРАТОРЫ» without their own
    heading; the section the parser opens there holds them, and the Infiltrators keep only their own."""
    source = next(s for s in load_manifest() if s.id == "10e-core")
    lost = {h.line: h.title for h in source.parser.unprinted_headings}
    assert lost
    by_id = {n.id: n for n in corpus.nodes}
    for node in corpus.nodes:
        if node.source_id != "10e-core" or not node.unprinted:
            continue
        assert lost.pop(node.lines[0]) == node.title and node.kind is NodeKind.SECTION
        children = [n for n in corpus.nodes if n.parent_id == node.id]
        assert children and children[0].lines[0] == node.lines[0]  # it heads the block at its line
        before = [n for n in corpus.nodes if n.parent_id == node.parent_id and n.order == node.order - 1]
        assert before and before[0].kind in HEADING_KINDS
        assert all(leaf.lines[1] < node.lines[0] for leaf in corpus.nodes if leaf.parent_id == before[0].id)
        assert by_id[node.parent_id or ""].kind in HEADING_KINDS
    assert lost == {}


def test_a_lost_heading_on_a_line_that_opens_no_block_is_reported() -> None:
    source = next(s for s in load_manifest() if s.id == "kt")
    wrong = source.model_copy(update={"parser": source.parser.model_copy(
        update={"unprinted_headings": (UnprintedHeading(line=2, title="[Нет]"),)})})
    raw = read_source(wrong)
    lines = raw.text.splitlines()
    assert not lines[1].strip() or lines[0].strip()  # line 2 is blank or continues line 1's block
    parsed = parse_source(raw)
    assert any("unprinted heading «[Нет]» heads no block at line 2" in i.reason for i in parsed.issues)
    assert not any(n.unprinted for n in parsed.nodes)
