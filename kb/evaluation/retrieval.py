"""Retrieval evaluation: R@1, R@3, R@5 and MRR@10 against gold line ranges, beside a BM25 baseline.

An evaluation file has one JSON object per line: ``id``, ``question``, optionally ``lang`` and
``kind``, and ``gold``: a list of ``{"source": "<upstream file name>", "lines": [a, b]}``. The
upstream name maps to a source through ``upstream_file`` in ``corpus/sources.toml`` (so the
citation is still the file's sha256). A hit is *relevant* when it comes from a gold source,
overlaps a gold line range and spans at most :data:`MAX_HIT_LINES` lines (a chapter that
contains the answer does not count). A row with ``removed`` (the reason, e.g. it copies a FAQ
phrasing that search indexes) is skipped.

The baseline (``--baseline``) ranks raw lines: every non-empty line of every source is a
document, scored by plain BM25 over a lower-cased word tokenizer (Whoosh, in memory), the
question's words OR-ed. It shows what the analyzer, the termbase and the ranking add.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from whoosh import query as wq
from whoosh.analysis import LowercaseFilter, RegexTokenizer
from whoosh.fields import ID, NUMERIC, TEXT, Schema
from whoosh.filedb.filestore import RamStorage
from whoosh.scoring import BM25F

from rulekb.corpus.errors import QueryError, RulebaseError
from rulekb.corpus.reader import load_manifest, read_lines
from rulekb.kb.ask.answer import ask

__all__ = [
    "CUTOFFS",
    "MAX_HIT_LINES",
    "Gold",
    "Question",
    "Ranked",
    "Report",
    "baseline_ranker",
    "evaluate",
    "evaluate_file",
    "load_questions",
    "ours_ranker",
    "rank_of_first_relevant",
    "read_eval_file",
]

MAX_HIT_LINES = 40
CUTOFFS = (1, 3, 5)
MRR_DEPTH = 10


@dataclass(frozen=True)
class Gold:
    source_id: str
    lines: tuple[int, int]


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    gold: tuple[Gold, ...]
    lang: str = "ru"
    kind: str = ""
    edition: str | None = None


@dataclass(frozen=True)
class Ranked:
    """A ranked hit as the metrics see it."""

    source_id: str
    lines: tuple[int, int]


Row = dict[str, Any]
T = TypeVar("T")


def read_eval_file(path: Path, build: Callable[[Row, Callable[[Row], list[tuple[str, int, int]]]], T | None]) -> list[T]:
    """Every row of an evaluation JSONL file through ``build`` (which may skip a row with ``None``).

    Blank lines and rows marked ``removed`` (e.g. a copy of a FAQ phrasing: it would measure nothing)
    are skipped. ``build`` gets the row and a function giving its gold spans as ``(source id, start,
    end)``, gold sources cited by upstream file name or by source id. A malformed line raises
    :class:`QueryError` naming the file and the line."""
    if not path.is_file():
        raise QueryError(f"Evaluation file {str(path)!r} not found.")
    sources = load_manifest()
    upstream = {s.upstream_file: s.id for s in sources if s.upstream_file}
    known = {s.id for s in sources}

    def gold_spans(row: Row) -> list[tuple[str, int, int]]:
        spans = []
        for item in row.get("gold") or []:
            source = upstream.get(item["source"], item["source"] if item["source"] in known else None)
            if source is None:
                raise ValueError(f"unknown gold source {item['source']!r}")
            spans.append((source, int(item["lines"][0]), int(item["lines"][1])))
        return spans

    out: list[T] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if row.get("removed"):
                continue
            built = build(row, gold_spans)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise QueryError(f"{path.name}:{number}: not an evaluation question ({exc}).") from exc
        if built is not None:
            out.append(built)
    return out


def load_questions(path: Path) -> list[Question]:
    """Read an evaluation JSONL file; a malformed line raises :class:`QueryError` naming it."""

    def question(row: Row, gold_spans: Callable[[Row], list[tuple[str, int, int]]]) -> Question:
        if "gold" not in row:  # required here; the answer-card batches may leave it out
            raise KeyError("gold")
        return Question(
            id=str(row["id"]),
            question=str(row["question"]),
            gold=tuple(Gold(source, (start, end)) for source, start, end in gold_spans(row)),
            lang=str(row.get("lang", "ru")),
            kind=str(row.get("kind", "")),
            edition=row.get("edition"),
        )

    return read_eval_file(path, question)


def is_relevant(hit: Ranked, gold: Sequence[Gold]) -> bool:
    start, end = hit.lines
    if end - start + 1 > MAX_HIT_LINES:
        return False
    return any(g.source_id == hit.source_id and start <= g.lines[1] and end >= g.lines[0] for g in gold)


def rank_of_first_relevant(hits: Sequence[Ranked], gold: Sequence[Gold], depth: int = MRR_DEPTH) -> int | None:
    """1-based rank of the first relevant hit within ``depth``, or ``None``."""
    for rank, hit in enumerate(hits[:depth], start=1):
        if is_relevant(hit, gold):
            return rank
    return None


@dataclass
class Scores:
    """Metrics over a group of questions."""

    count: int = 0
    found: dict[int, int] = field(default_factory=lambda: {k: 0 for k in CUTOFFS})
    reciprocal: float = 0.0

    def add(self, rank: int | None) -> None:
        self.count += 1
        if rank is not None:
            for cutoff in CUTOFFS:
                if rank <= cutoff:
                    self.found[cutoff] += 1
            self.reciprocal += 1.0 / rank

    def as_dict(self) -> dict[str, float | int]:
        n = self.count or 1
        data: dict[str, float | int] = {"n": self.count}
        for cutoff in CUTOFFS:
            data[f"R@{cutoff}"] = round(self.found[cutoff] / n, 4)
        data[f"MRR@{MRR_DEPTH}"] = round(self.reciprocal / n, 4)
        return data


@dataclass
class Report:
    """Per-system metrics overall and by kind, language and source, plus each question's rank."""

    systems: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return self.systems


Ranker = Callable[[Question], Sequence[Ranked]]


def _source_label(question: Question) -> str:
    return "+".join(sorted({g.source_id for g in question.gold}))


def evaluate(questions: Sequence[Question], rankers: dict[str, Ranker], depth: int = MRR_DEPTH) -> Report:
    """Run every ranker on every question; metrics overall, by kind, by language and by source."""
    report = Report()
    for name, ranker in rankers.items():
        overall = Scores()
        groups: dict[str, dict[str, Scores]] = {"kind": defaultdict(Scores), "lang": defaultdict(Scores),
                                                "source": defaultdict(Scores)}
        ranks: dict[str, int | None] = {}
        for question in questions:
            try:
                hits = ranker(question)
            except RulebaseError:
                hits = []
            rank = rank_of_first_relevant(hits, question.gold, depth)
            ranks[question.id] = rank
            overall.add(rank)
            groups["kind"][question.kind or "-"].add(rank)
            groups["lang"][question.lang].add(rank)
            groups["source"][_source_label(question)].add(rank)
        report.systems[name] = {
            "overall": overall.as_dict(),
            **{
                group: {label: scores.as_dict() for label, scores in sorted(values.items())}
                for group, values in groups.items()
            },
            "ranks": ranks,
        }
    return report


# --- the baseline -------------------------------------------------------------------------------


def baseline_ranker(limit: int = MRR_DEPTH) -> Ranker:
    """Plain BM25 over raw lines (each non-empty line a document), lower-case words, in memory."""
    analyzer = RegexTokenizer(r"\w+(?:[.,]\w+)*") | LowercaseFilter()
    schema = Schema(source=ID(stored=True), line=NUMERIC(stored=True), text=TEXT(analyzer=analyzer))
    ix = RamStorage().create_index(schema)
    writer = ix.writer()
    for source in load_manifest():
        for number, line in enumerate(read_lines(source.id), start=1):
            if line.strip():
                writer.add_document(source=source.id, line=number, text=line)
    writer.commit()
    searcher = ix.searcher(weighting=BM25F())

    def rank(question: Question) -> list[Ranked]:
        words = list(dict.fromkeys(t.text for t in analyzer(question.question)))
        if not words:
            return []
        results = searcher.search(wq.Or([wq.Term("text", w) for w in words]), limit=limit)
        return [Ranked(r["source"], (r["line"], r["line"])) for r in results]

    return rank


# --- ours ---------------------------------------------------------------------------------------


def ours_ranker(limit: int = MRR_DEPTH, build_dir: Path | None = None, use_faq: bool = True) -> Ranker:
    """The hits of :func:`rulekb.kb.ask.answer.ask` (the question only: no gold edition, no id)."""
    def rank(question: Question) -> list[Ranked]:
        result = ask(question.question, limit=limit, build_dir=build_dir, use_faq=use_faq)
        return [Ranked(hit["source_id"], (hit["lines"][0], hit["lines"][1])) for hit in result["hits"]]

    return rank


def evaluate_file(
    path: Path,
    *,
    limit: int = MRR_DEPTH,
    build_dir: Path | None = None,
    use_faq: bool = True,
    baseline: Callable[[int], Ranker] | None = None,
    only: str | None = None,
) -> Report:
    """Evaluate ``path`` with our ranker (and the baseline, if given) — what ``rulekb eval`` prints."""
    questions = load_questions(path)
    if only is not None:
        questions = [q for q in questions if q.id.startswith(only)]
        if not questions:
            raise QueryError(f"No question id in {path.name} starts with {only!r}.")
    rankers: dict[str, Ranker] = {"ours": ours_ranker(limit, build_dir, use_faq)}
    if baseline is not None:
        rankers["baseline"] = baseline(limit)
    return evaluate(questions, rankers, depth=limit)
