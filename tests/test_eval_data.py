"""Validate the evaluation set ``tests/data/eval.jsonl`` against the source texts.

The set is what search quality is measured on, so a broken row would silently distort every figure:
each row must cite lines that exist and say something, its expected keywords must really be in the
cited passage (or in the reference answer), and the set must keep its size and its spread over the
five texts and over English questions. ``tests/data/EVAL.md`` describes how it was written.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulekb.corpus.models import Source
from rulekb.corpus.reader import load_manifest, read_lines
from rulekb.kb.evaluation.answers import fold_answer

DATA = Path(__file__).resolve().parent / "data"
EVAL = DATA / "eval.jsonl"
DEV = DATA / "dev.jsonl"

FIELDS = ("id", "lang", "question", "kind", "edition", "gold", "answer", "answer_keywords")
OPTIONAL = ("note", "style", "removed")
LANGS = {"ru", "en"}
KINDS = {"lookup", "numeric", "procedure", "terminology", "compare"}
#: Kinds answer-card batches may also use (yes/no questions).
CARD_KINDS = KINDS | {"yesno"}
#: How a question is written (optional): a terse phone query, typos, English, a table situation, a
#: translator's question, an older edition left unnamed, plain.
STYLES = {"terse", "typo", "english", "situation", "translator", "older-unnamed", "plain"}
#: Answer-card batches (``rulekb eval --answers``), first measured held out, then development data.
#: Batches of one writer's half (40 rows) rather than two halves of 40.
HALF_BATCHES = frozenset({"hj.jsonl"})
CARD_SETS = ("ha.jsonl", "hb.jsonl", "hc.jsonl", "hd.jsonl", "he.jsonl", "hf.jsonl", "hg.jsonl", "hh.jsonl", "hi.jsonl", "hj.jsonl", "hk.jsonl")
#: Keywords of the batches (copied as written) that restate the text in notation: ha-017's «+1» is
#: the text's «добавьте 1 к броску на ранение».
RESTATED_KEYWORDS = {("ha-017", "+1")}
EDITIONS = {"10", "6", "7", "kt"}
MAX_NEW_RANGE = 15  # lines per gold range in rows added after dev.jsonl

Row = dict[str, Any]


def load_rows(path: Path) -> list[Row]:
    rows: list[Row] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:  # pragma: no cover - reported as a failure
            pytest.fail(f"{path.name}:{number}: not valid JSON: {exc}")
        assert isinstance(row, dict), f"{path.name}:{number}: a row must be a JSON object"
        rows.append(row)
    return rows


@cache
def eval_rows() -> tuple[Row, ...]:
    return tuple(load_rows(EVAL))


@cache
def dev_count() -> int:
    return len(load_rows(DEV))


@cache
def upstream_sources() -> dict[str, Source]:
    """``upstream_file`` (the name the sets cite) → the manifest entry."""
    return {source.upstream_file: source for source in load_manifest() if source.upstream_file}


def norm(text: str) -> str:
    """Case-insensitive, ё = е; runs of whitespace (the texts use no-break spaces) count as one space."""
    return re.sub(r"\s+", " ", text.casefold().replace("ё", "е"))


def gold_text(gold: dict[str, Any]) -> str:
    source = upstream_sources()[gold["source"]]
    start, end = gold["lines"]
    return "\n".join(read_lines(source.id)[start - 1 : end])


def edition_parts(edition: str) -> set[str]:
    return set(edition.split("+"))


def test_manifest_names_five_upstream_files() -> None:
    assert len(upstream_sources()) == 5, sorted(upstream_sources())


def test_dev_rows_come_first_unchanged() -> None:
    dev_lines = [line for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    eval_lines = [line for line in EVAL.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert eval_lines[: len(dev_lines)] == dev_lines


def test_every_row_has_the_fields_with_sane_values() -> None:
    errors: list[str] = []
    for row in eval_rows():
        label = row.get("id", "?")
        missing = [name for name in FIELDS if name not in row]
        extra = sorted(set(row) - set(FIELDS) - set(OPTIONAL))
        if missing or extra:
            errors.append(f"{label}: missing {missing}, unexpected {extra}")
            continue
        if not isinstance(row["id"], str) or not row["id"]:
            errors.append(f"{label}: id must be a non-empty string")
        if row["lang"] not in LANGS:
            errors.append(f"{label}: lang {row['lang']!r} not in {sorted(LANGS)}")
        if row["kind"] not in KINDS:
            errors.append(f"{label}: kind {row['kind']!r} not in {sorted(KINDS)}")
        if not isinstance(row["edition"], str) or not edition_parts(row["edition"]) <= EDITIONS:
            errors.append(f"{label}: edition {row['edition']!r} is not like '10', 'kt' or '6+10'")
        for name in ("question", "answer"):
            if not isinstance(row[name], str) or not row[name].strip():
                errors.append(f"{label}: {name} must be a non-empty string")
        keywords = row["answer_keywords"]
        if not isinstance(keywords, list) or not keywords:
            errors.append(f"{label}: answer_keywords must be a non-empty list")
        elif not all(isinstance(k, str) and k.strip() for k in keywords):
            errors.append(f"{label}: every answer keyword must be a non-empty string")
        if not isinstance(row["gold"], list) or not row["gold"]:
            errors.append(f"{label}: gold must be a non-empty list")
    assert not errors, "\n".join(errors)


def test_ids_and_questions_are_unique() -> None:
    ids = Counter(row["id"] for row in eval_rows())
    assert not [i for i, n in ids.items() if n > 1], "duplicate ids"
    questions = Counter(norm(row["question"]).strip(" ?.!") for row in eval_rows())
    assert not [q for q, n in questions.items() if n > 1], "duplicate questions"


def test_gold_ranges_exist_and_say_something() -> None:
    errors: list[str] = []
    for row in eval_rows():
        for gold in row["gold"]:
            where = f"{row['id']} {gold!r}"
            if set(gold) != {"source", "lines"}:
                errors.append(f"{where}: a gold item has exactly 'source' and 'lines'")
                continue
            source = upstream_sources().get(gold["source"])
            if source is None:
                errors.append(f"{where}: source is not one of {sorted(upstream_sources())}")
                continue
            lines = gold["lines"]
            if not (isinstance(lines, list) and len(lines) == 2 and all(type(n) is int for n in lines)):
                errors.append(f"{where}: lines must be [start, end]")
                continue
            start, end = lines
            total = len(read_lines(source.id))
            if not 1 <= start <= end <= total:
                errors.append(f"{where}: outside 1..{total} of {source.file} or reversed")
                continue
            if not gold_text(gold).strip():
                errors.append(f"{where}: the range holds only blank lines")
    assert not errors, "\n".join(errors)


def test_answer_keywords_occur_in_gold_text_or_answer() -> None:
    errors: list[str] = []
    for row in eval_rows():
        passages = [norm(gold_text(gold)) for gold in row["gold"]]
        answer = norm(row["answer"])
        for keyword in row["answer_keywords"]:
            needle = norm(keyword)
            if not any(needle in passage for passage in passages) and needle not in answer:
                errors.append(
                    f"{row['id']}: keyword {keyword!r} is neither in its gold lines nor in the answer"
                )
    assert not errors, "\n".join(errors)


def test_new_rows_have_tight_ranges_and_the_editions_they_cite() -> None:
    """Rows written after dev.jsonl cite 1–15 lines per range, and their edition names the cited books."""
    errors: list[str] = []
    for row in eval_rows()[dev_count() :]:
        cited = {upstream_sources()[gold["source"]].edition for gold in row["gold"]}
        if edition_parts(row["edition"]) != cited:
            errors.append(f"{row['id']}: edition {row['edition']!r} but gold cites editions {sorted(cited)}")
        for gold in row["gold"]:
            start, end = gold["lines"]
            if end - start + 1 > MAX_NEW_RANGE:
                errors.append(f"{row['id']}: range {start}-{end} is longer than {MAX_NEW_RANGE} lines")
            if not gold_text(gold).splitlines()[0].strip() or not gold_text(gold).splitlines()[-1].strip():
                errors.append(f"{row['id']}: range {start}-{end} starts or ends on a blank line")
    assert not errors, "\n".join(errors)


def test_comparisons_cite_every_edition_they_compare() -> None:
    compares = [row for row in eval_rows() if row["kind"] == "compare"]
    errors = []
    for row in compares:
        cited = {upstream_sources()[gold["source"]].edition for gold in row["gold"]}
        if len(edition_parts(row["edition"])) < 2 or len(cited) < 2:
            errors.append(
                f"{row['id']}: a comparison needs gold in at least two editions, has {sorted(cited)}"
            )
    assert not errors, "\n".join(errors)
    assert len(compares) >= 15


def test_size_and_spread() -> None:
    rows = eval_rows()
    assert len(rows) >= 240
    per_source: Counter[str] = Counter()
    for row in rows:
        for name in {gold["source"] for gold in row["gold"]}:
            per_source[name] += 1
    thin = {name: per_source[name] for name in upstream_sources() if per_source[name] < 15}
    assert not thin, f"sources with fewer than 15 questions: {thin}"
    assert sum(row["lang"] == "en" for row in rows) >= 40
    assert {row["kind"] for row in rows} == KINDS


@pytest.mark.parametrize("name", CARD_SETS)
def test_answer_card_batches(name: str) -> None:
    """The answer-card batches: the same fields (``style`` optional, ``yesno`` a kind), ranges that
    exist, every keyword in a gold range or the reference answer."""
    rows = load_rows(DATA / name)
    assert len(rows) >= (40 if name in HALF_BATCHES else 60)
    errors: list[str] = []
    for row in rows:
        label = row.get("id", "?")
        missing = [f for f in FIELDS if f not in row]
        extra = sorted(set(row) - set(FIELDS) - set(OPTIONAL))
        if missing or extra:
            errors.append(f"{label}: missing {missing}, unexpected {extra}")
            continue
        if row["kind"] not in CARD_KINDS:
            errors.append(f"{label}: kind {row['kind']!r} not in {sorted(CARD_KINDS)}")
        if "style" in row and row["style"] not in STYLES:
            errors.append(f"{label}: style {row['style']!r} not in {sorted(STYLES)}")
        if row["lang"] not in LANGS or not edition_parts(row["edition"]) <= EDITIONS:
            errors.append(f"{label}: lang or edition out of range")
        by_id = {source.id: source for source in load_manifest()}
        passages = []
        for gold in row["gold"]:  # cited by upstream file name or by source id
            source = upstream_sources().get(gold["source"]) or by_id.get(gold["source"])
            start, end = gold["lines"]
            if source is None or not 1 <= start <= end <= len(read_lines(source.id)):
                errors.append(f"{label}: bad gold {gold!r}")
                continue
            passages.append(norm("\n".join(read_lines(source.id)[start - 1 : end])))
        for keyword in row["answer_keywords"]:
            needle = fold_answer(keyword)  # folded as the card is scored: case, ё, quotes, dashes
            if (label, keyword) in RESTATED_KEYWORDS:
                continue
            if not any(needle in fold_answer(p) for p in passages) and needle not in fold_answer(row["answer"]):
                errors.append(f"{label}: keyword {keyword!r} is neither in its gold lines nor in the answer")
    assert not errors, "\n".join(errors)
    ids = Counter(row["id"] for row in rows)
    assert not [i for i, n in ids.items() if n > 1]
