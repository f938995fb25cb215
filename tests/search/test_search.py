"""Search over a real build: morphology, notation, editions, citations, hostile input, caching."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekb.corpus.errors import IndexMissingError, QueryError
from rulekb.corpus.models import NON_RULE_KINDS
from rulekb.corpus.parser import ParsedCorpus
from rulekb.corpus.reader import find_source, read_lines
from rulekb.kb.faq.entries import entry_node_ids, load_built_faq
from rulekb.kb.search.index import faq_questions
from rulekb.kb.search.searcher import Hit, get_index, search, search_parsed


def leaf_at(built: Path, source_id: str, line: int) -> str:
    """The id of the indexed leaf of ``source_id`` whose span holds ``line``."""
    index = get_index(built)
    for features in index.by_source[source_id]:
        if features.lines[0] <= line <= features.lines[1]:
            return features.id
    raise AssertionError(f"no indexed leaf holds {source_id} line {line}")


def ids(hits: list[Hit]) -> list[str]:
    return [hit.node_id for hit in hits]


def test_index_holds_every_rule_leaf_and_nothing_else(built: Path) -> None:
    nodes = json.loads((built / "nodes.json").read_text(encoding="utf-8"))
    expected = {
        n["id"]
        for n in nodes
        if n["kind"] in {"rule", "summary", "list", "example", "table"} and n["text_clean"].strip()
    }
    index = get_index(built)
    assert set(index.features) == expected
    assert index.ix.doc_count() == len(expected)
    assert not {f.kind for f in index.features.values()} & {k.value for k in NON_RULE_KINDS}
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["index_documents"] == len(expected)


def test_the_index_is_opened_once_per_process(built: Path) -> None:
    assert get_index(built) is get_index(built)


def test_a_missing_build_says_how_to_make_it(tmp_path: Path) -> None:
    with pytest.raises(IndexMissingError, match="rulekb build"):
        get_index(tmp_path)


def test_inflected_forms_find_the_same_rules(built: Path) -> None:
    first = ids(search("бросок на ранение", build_dir=built, limit=5).hits)
    assert ids(search("броски на ранение", build_dir=built, limit=5).hits) == first
    assert ids(search("броска на ранения", build_dir=built, limit=5).hits) == first
    assert leaf_at(built, "6e-assault", 172) in first


def test_yo_and_ye_are_the_same_letter(built: Path) -> None:
    assert ids(search("самолёт", build_dir=built).hits) == ids(search("самолет", build_dir=built).hits)


def test_dice_notation_is_searchable(built: Path) -> None:
    hits = search("2D6", build_dir=built, limit=5).hits
    assert hits
    for hit in hits:
        assert "2d6" in get_index(built).features[hit.node_id].text.lower().replace("д", "d")


def test_numbers_with_units_are_searchable(built: Path) -> None:
    hits = search('48х48"', build_dir=built, limit=3).hits + search("48 дюймов", build_dir=built, limit=3).hits
    assert any(h.source_id == "kt" for h in hits)


def test_explicit_edition_filters(built: Path) -> None:
    for edition in ("6", "10", "7", "kt"):
        hits = search("модели", edition=edition, build_dir=built, limit=20).hits
        assert hits and {h.edition for h in hits} == {edition}


@pytest.mark.parametrize(("question", "edition"), [("консолидация в 6-й", "6"), ("консолидация в 10-ке", "10")])
def test_an_edition_named_in_the_question_is_preferred(built: Path, question: str, edition: str) -> None:
    result = search(question, build_dir=built, limit=3)
    assert result.parsed.editions == [edition]
    assert result.hits[0].edition == edition


def test_hits_cite_the_raw_text(built: Path) -> None:
    import html
    import re

    from rulekb.kb.search.searcher import get_index

    def flat(text: str) -> str:
        return re.sub(r"\s+", " ", text.replace("\u00a0", " "))

    index = get_index(built)
    for hit in search("проверка лидерства", build_dir=built, limit=10).hits:
        source = find_source(hit.source_id)
        assert hit.source_sha256 == source.sha256
        lines = read_lines(hit.source_id)
        start, end = hit.lines
        assert 1 <= start <= end <= len(lines)
        assert end - start < 70
        raw = " ".join(lines[start - 1 : end])
        # every highlighted word of the snippet is printed in the cited lines (or in their clean text,
        # where glued words are split)
        clean = index.features[hit.node_id].text
        marked = hit.snippet.split("<b>")[1:]
        assert marked, hit.snippet
        for word in marked:
            shown = flat(html.unescape(word.split("</b>")[0]))
            assert shown and (shown in flat(raw) or shown in flat(clean)), (shown, hit.node_id)
        assert hit.breadcrumb and hit.heading == hit.breadcrumb[-1]


def test_heading_matches_rank_the_rule_under_it(built: Path) -> None:
    hits = search("согласованность модулей", build_dir=built, limit=5).hits
    assert leaf_at(built, "10e-core", 169) in ids(hits)


def test_snippet_highlights_query_lemmas(built: Path) -> None:
    hit = search("броски на ранение", build_dir=built, limit=1).hits[0]
    assert "<b>" in hit.snippet
    assert any(word.lower().startswith("ранени") for word in hit.snippet.replace("</b>", "<b>").split("<b>")[1::2])


@pytest.mark.parametrize(
    "query",
    ["", "   ", "*", '"', "(((", "title:x AND (", "NOT", "a OR b AND", "🎲🔥", "\x00\x1b[31m", "?", "бро\x00сок", "'; DROP TABLE"],
)
def test_hostile_queries_give_a_clean_result(built: Path, query: str) -> None:
    result = search(query, build_dir=built, limit=5)
    assert isinstance(result.hits, list)
    for hit in result.hits:
        assert hit.node_id in get_index(built).features


def test_ten_kilobytes_is_a_clear_error(built: Path) -> None:
    with pytest.raises(QueryError, match="characters long"):
        search("бросок " * 1500, build_dir=built)


def test_limit_is_checked(built: Path) -> None:
    with pytest.raises(QueryError, match="--limit"):
        search("бросок", build_dir=built, limit=0)
    assert len(search("отряд", build_dir=built, limit=3).hits) == 3


def test_typo_is_corrected_and_offered(built: Path) -> None:
    result = search("перемещенеи транспорта", build_dir=built, limit=5)
    assert result.did_you_mean is not None and "перемещени" in result.did_you_mean
    assert result.hits


@pytest.mark.parametrize(
    "question",
    [
        "Как проходится проверка боевого шока?",
        "overwatch in 6th edition",
        "консолидация в 6-й",
        "реролл до модификаторов или после?",
        "сколько дюймов рывок у прыжковой пехоты",
    ],
)
@pytest.mark.parametrize("edition", [None, "10"])
def test_fast_scores_equal_whoosh_bm25f(built: Path, question: str, edition: str | None) -> None:
    """The in-memory scorer is an optimisation: Whoosh's own searcher is its oracle."""
    from rulekb.kb.search.searcher import bm25_scores, whoosh_scores

    index = get_index(built)
    parsed = index.parse(question, edition)
    fast = {docnum: score for score, docnum in bm25_scores(index, parsed)}
    slow = {docnum: score for score, docnum in whoosh_scores(index, parsed)}
    assert fast and set(fast) == set(slow)
    for docnum, score in slow.items():
        assert fast[docnum] == pytest.approx(score, rel=1e-6)
    assert ids(search_parsed(index, parsed, 10)) == ids(search_parsed(index, parsed, 10, use_whoosh=True))


def test_every_faq_phrasing_is_indexed_with_the_leaves_it_cites(built: Path, corpus: ParsedCorpus) -> None:
    index = get_index(built)
    leaves = [node for node in corpus.nodes if node.id in index.features]
    questions = faq_questions(built, leaves)
    entries = load_built_faq(built)
    assert entries and questions
    for entry in entries:
        for node_id in entry_node_ids(entry, leaves):
            assert entry.question in questions[node_id], (entry.id, node_id)


def test_a_word_only_players_use_finds_the_rule_through_its_faq_phrasings(built: Path) -> None:
    index = get_index(built)
    reader = index.searcher.reader()
    own_words = index.field_terms["text"] | index.field_terms["title"] | index.field_terms["aliases"]
    only_asked = sorted(
        (term for term in index.field_terms["questions"] if term not in own_words and term.isalpha() and len(term) > 4),
        key=lambda term: (reader.doc_frequency("questions", term), term),
    )
    assert only_asked, "the FAQ phrasings add no word of their own"
    term = only_asked[0]
    holders = {index.by_docnum[docnum].id for docnum in reader.postings("questions", term).all_ids()}
    hits = search(term, build_dir=built).hits
    assert hits and hits[0].node_id in holders, (term, holders)
