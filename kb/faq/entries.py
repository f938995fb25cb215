"""The FAQ: questions players actually ask at the table, answered in our words with cited quotes.

``kb/data/faq.toml`` holds one ``[[faq]]`` table per question: the question as a player would ask
it, a few other phrasings (slang, English, casual), the edition, the concepts it is about, a short
answer in Russian and one or more citations — a source id, a tight line span and exact quotes from
those raw lines. This module loads and validates the file (:func:`load_faq`), checks every quote
against the raw text (:func:`check_citations`), finds the entry a user's question asks
(:func:`match_faq`) and maps a citation to the rule nodes it overlaps (:func:`citation_node_ids`).

The matcher is deliberately small: lemma sets (:func:`rulekb.kb.text.analysis.lemmas`) of the question and of
each variant, weighted by inverse entry frequency, compared by cosine. Only for this matching a
short list of function words is ignored; game words such as «не» or «только» are kept.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rulekb.corpus.citations import NodeLike, missing_quotes, normalise_space, overlapping_nodes
from rulekb.corpus.editions import display_rank, editions
from rulekb.corpus.errors import RulebaseError, TermbaseError
from rulekb.corpus.reader import load_manifest, read_lines
from rulekb.kb.paths import DATA_DIR
from rulekb.kb.text.analysis import fold, lemma, lemmas

__all__ = [
    "DEFAULT_THRESHOLD",
    "FAQ_PATH",
    "MAX_CITED_LINES",
    "CitationProblem",
    "FaqCitation",
    "FaqEntry",
    "FaqError",
    "FaqMatcher",
    "NodeLike",
    "check_citations",
    "citation_node_ids",
    "entry_node_ids",
    "faq_matcher",
    "load_built_faq",
    "load_faq",
    "match_faq",
    "normalise_space",
    "stage_faq",
]

FAQ_PATH = DATA_DIR / "faq.toml"
#: A citation points a player to the lines that rule, not to a chapter.
MAX_CITED_LINES = 25
#: Scores at or above this mean «this FAQ entry answers the question» (see ``tests/faq``).
DEFAULT_THRESHOLD = 0.3
#: Every id starts with its edition's prefix, so ids stay readable and never clash across editions.
EDITION_PREFIX: dict[str, str] = {e.id: e.faq_prefix for e in sorted(editions(), key=lambda e: display_rank(e.id))}
_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class FaqError(TermbaseError):
    """``kb/data/faq.toml`` is missing, not TOML, or has an invalid entry."""


def _non_blank(values: Iterable[str], what: str) -> None:
    for value in values:
        if not value.strip():
            raise ValueError(f"{what} must not be blank")


class FaqCitation(BaseModel):
    """Where the rule that answers a question is printed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = Field(pattern=_SLUG)
    """Id of the cited text in ``corpus/sources.toml``, e.g. ``10e-core``."""
    lines: tuple[int, int]
    """1-based inclusive line span in the raw file; tight (the lines that rule), at most 25 lines."""
    quotes: tuple[str, ...] = Field(min_length=1, max_length=3)
    """1–3 exact substrings of the cited raw lines (compared with whitespace runs collapsed)."""

    @field_validator("lines")
    @classmethod
    def _span(cls, value: tuple[int, int]) -> tuple[int, int]:
        start, end = value
        if start < 1 or end < start:
            raise ValueError(f"expected [start, end] with 1 <= start <= end, got [{start}, {end}]")
        if end - start + 1 > MAX_CITED_LINES:
            raise ValueError(
                f"span [{start}, {end}] covers {end - start + 1} lines; cite at most {MAX_CITED_LINES} "
                "(split it into several citations)"
            )
        return value

    @field_validator("quotes")
    @classmethod
    def _quotes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        _non_blank(value, "a quote")
        return value


class FaqEntry(BaseModel):
    """One question players ask, answered in our own words and cited."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    id: str = Field(pattern=_SLUG)
    """Stable readable slug starting with the edition prefix, e.g. ``10e-charge-distance``."""
    question: str = Field(min_length=5)
    """The question as a player would ask it, in Russian."""
    variants: tuple[str, ...] = Field(min_length=2, max_length=6)
    """2–6 other phrasings (situations, slang, English); the matcher uses them with the question."""
    edition: str
    """``"10"``, ``"6"``, ``"7"`` or ``"kt"`` (see :data:`rulekb.corpus.models.EDITIONS`)."""
    concepts: tuple[str, ...] = Field(min_length=1)
    """English concept ids (``charge``, ``overwatch``, ``re-roll``…), shared with the termbase."""
    answer: str = Field(min_length=10, max_length=700)
    """1–3 sentences in Russian, our own words, numbers explicit."""
    answer_en: str | None = Field(default=None, min_length=10, max_length=900)
    """The same ruling in English (1–3 sentences, the official English rule names, the same numbers),
    written from the text for English questions; the quotes stay Russian. ``None`` only in older data."""
    citations: tuple[FaqCitation, ...] = Field(alias="citation", min_length=1)
    """The passages that rule (``[[faq.citation]]`` in the TOML)."""

    @field_validator("edition")
    @classmethod
    def _edition(cls, value: str) -> str:
        if value not in EDITION_PREFIX:
            raise ValueError(f"unknown edition {value!r}; use one of {', '.join(map(repr, EDITION_PREFIX))}")
        return value

    @field_validator("question", "answer")
    @classmethod
    def _text(cls, value: str) -> str:
        _non_blank([value], "the text")
        return value

    @field_validator("answer_en")
    @classmethod
    def _english(cls, value: str | None) -> str | None:
        if value is not None:
            _non_blank([value], "the English answer")
        return value

    @field_validator("concepts")
    @classmethod
    def _concepts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for concept in value:
            if not concept or concept != concept.strip().lower() or " " in concept or "_" in concept:
                raise ValueError(f"concept {concept!r} is not an English slug like 'engagement-range'")
        if len(set(value)) != len(value):
            raise ValueError("concepts repeat")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> FaqEntry:
        prefix = EDITION_PREFIX[self.edition]
        if not self.id.startswith(prefix):
            raise ValueError(f"id {self.id!r} must start with {prefix!r} for edition {self.edition!r}")
        _non_blank(self.variants, "a variant")
        seen = {fold(normalise_space(self.question))}
        for variant in self.variants:
            key = fold(normalise_space(variant))
            if key in seen:
                raise ValueError(f"variant {variant!r} repeats the question or another variant")
            seen.add(key)
        return self


def _one_line(text: str) -> str:
    return normalise_space(text)


def load_built_faq(build_dir: Path) -> list[FaqEntry]:
    """The FAQ as the last build checked and wrote it (``build/faq.json``); empty for a build
    made before the FAQ stage existed."""
    path = build_dir / "faq.json"
    if not path.is_file():
        return []
    import json

    return [FaqEntry.model_validate(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]


def stage_faq(ctx: Any) -> None:
    """Build stage: validate ``faq.toml``, check every quote against its lines, write ``faq.json``.

    A quote that is not in its cited lines fails the build (the last good build stays): an FAQ
    answer must never cite text that is not there."""
    entries = load_faq(FAQ_PATH)
    problems = check_citations(entries)
    if problems:
        raise FaqError(f"{FAQ_PATH.name}: {len(problems)} citation(s) do not hold, first: {problems[0]}")
    import json

    (ctx.out / "faq.json").write_text(
        json.dumps([e.model_dump(mode="json") for e in entries], ensure_ascii=False, sort_keys=True, indent=1) + "\n",
        encoding="utf-8",
    )
    ctx.counts["faq"] = len(entries)


def load_faq(path: Path = FAQ_PATH) -> list[FaqEntry]:
    """Read and validate ``faq.toml``; any problem raises one-line :class:`FaqError`."""
    if not path.is_file():
        raise FaqError(f"FAQ file {str(path)!r} not found: restore kb/data/faq.toml from git.")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise FaqError(f"{path.name}: not valid TOML: {_one_line(str(exc))}. Fix the syntax.") from exc
    raw_entries = data.get("faq")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise FaqError(f"{path.name}: no [[faq]] entries; add at least one.")
    editions = {source.id: source.edition for source in load_manifest()}
    entries: list[FaqEntry] = []
    seen: set[str] = set()
    for number, raw in enumerate(raw_entries, start=1):
        if not isinstance(raw, dict):
            raise FaqError(f"{path.name}: faq #{number} is {raw!r}, not a table; write it as [[faq]].")
        label = f"{path.name} [[faq]] #{number} ({raw.get('id', '?')!r})"
        entry = _validate(raw, label)
        if entry.id in seen:
            raise FaqError(f"{label}: field 'id': duplicate id {entry.id!r}; ids must be unique.")
        seen.add(entry.id)
        for index, citation in enumerate(entry.citations):
            if citation.source not in editions:
                raise FaqError(
                    f"{label}: field 'citation.{index}.source': unknown source {citation.source!r}; "
                    f"known sources: {', '.join(sorted(editions))}."
                )
        if all(editions[c.source] != entry.edition for c in entry.citations):
            raise FaqError(
                f"{label}: field 'citation': no citation is from an edition-{entry.edition} source; "
                "cite the rule of the edition the question is about."
            )
        entries.append(entry)
    return entries


def _validate(raw: dict[str, Any], label: str) -> FaqEntry:
    try:
        return FaqEntry.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "entry"
        message = _one_line(str(first["msg"])).removeprefix("Value error, ")
        value = first.get("input")
        shown = "" if isinstance(value, dict) else f" (got {_one_line(repr(value))[:80]})"
        raise FaqError(f"{label}: field {where!r}: {message}{shown}.") from exc


# --- citations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CitationProblem:
    """A citation that does not hold: a quote missing from its lines, or a span outside the text."""

    entry_id: str
    source: str
    lines: tuple[int, int]
    quote: str | None
    reason: str

    def __str__(self) -> str:
        start, end = self.lines
        quote = f" quote {self.quote!r}" if self.quote is not None else ""
        return f"{self.entry_id}: {self.source} lines {start}-{end}:{quote} {self.reason}"


def check_citations(
    entries: Iterable[FaqEntry],
    read: Callable[[str], Sequence[str]] = read_lines,
) -> list[CitationProblem]:
    """Every quote must occur in its cited raw lines; every span must lie inside its text.

    Lines are joined with a space and whitespace runs (no-break spaces included) are collapsed on
    both sides before comparing, so a quote may wrap across the cited lines. Case is kept.
    """
    problems: list[CitationProblem] = []
    for entry in entries:
        for citation in entry.citations:
            end = citation.lines[1]
            try:
                text = read(citation.source)
            except RulebaseError as exc:  # an unknown or unreadable source is a problem of this citation
                problems.append(CitationProblem(entry.id, citation.source, citation.lines, None, str(exc)))
                continue
            if end > len(text):
                problems.append(
                    CitationProblem(
                        entry.id,
                        citation.source,
                        citation.lines,
                        None,
                        f"span ends after the last line ({len(text)})",
                    )
                )
                continue
            problems += [
                CitationProblem(entry.id, citation.source, citation.lines, quote, "not found in the cited lines")
                for quote in missing_quotes(citation.source, citation.lines, citation.quotes, read)
            ]
    return problems


def citation_node_ids(
    citation: FaqCitation, nodes: Iterable[NodeLike], *, leaves_only: bool = True
) -> list[str]:
    """Ids of the nodes of the cited source whose line span overlaps the citation, in text order."""
    return overlapping_nodes(citation.source, citation.lines, nodes, leaves_only=leaves_only)


def entry_node_ids(entry: FaqEntry, nodes: Sequence[NodeLike], *, leaves_only: bool = True) -> list[str]:
    """The node ids every citation of ``entry`` overlaps, without repeats, citation order kept."""
    result: dict[str, None] = {}
    for citation in entry.citations:
        for node_id in citation_node_ids(citation, nodes, leaves_only=leaves_only):
            result.setdefault(node_id, None)
    return list(result)


# --- matching ----------------------------------------------------------------------------------

#: Function words ignored only when matching questions (lemmatised below, so any form matches).
_STOP_WORDS = """
а и или но да же ли бы вот ну то это этот тот такой так как какой каков что кто чей где куда когда
там тут здесь ещё уже вообще просто вдруг очень тоже также ведь лишь
в во на с со к ко по о об обо от до из у за для при про над под через без между перед
я ты он она оно мы вы они мой твой свой наш ваш его её их меня мне нас нам вас вам себя
быть есть был было будет являться
the a an is are was be been of to in on at for and or by with from as it its this that
i you we they my your our do does did can could should would how what which who when where
if then than about into there here any some me us
"""
#: Edition markers («в 6-й редакции», «в десятке», «в КТ», «kill team»): the edition is a filter
#: (``edition=``), so these words would only make every entry of an edition look alike.
_EDITION_WORDS = """
редакция edition th й ке ка ку ки кт килл килла тим kill team
шестой шестая шестёрка седьмой седьмая семёрка десятый десятая десятка
"""
_IGNORED: frozenset[str] = frozenset(lemma(word) for word in (_STOP_WORDS + _EDITION_WORDS).split())
#: Russian slang and inflection defeat the lemmatiser now and then («овервотчем» → «овервотчий»,
#: «инвулю» → «инвуля»), so every longer word also yields its first letters as an extra feature.
_STEM = 5


def _terms(text: str) -> frozenset[str]:
    terms: set[str] = set()
    for term in lemmas(text):
        if term in _IGNORED:
            continue
        terms.add(term)
        if len(term) >= _STEM and term.isalpha():
            terms.add("~" + term[:_STEM])
    return frozenset(terms)


class FaqMatcher:
    """Cosine over lemma sets weighted by inverse entry frequency, precomputed once per entry list.

    Each entry has its phrasings (the question and each variant) and a profile (all phrasings plus
    the answer). Its score blends the cosine with the closest phrasing (weight 0.7) and with the
    profile (0.3), so a question in words of its own still reaches the entry whose answer uses
    them. Words no entry uses count against the question with the highest weight. Scores lie in
    [0, 1]; the same lemmas as a phrasing score at least 0.7.
    """

    PHRASING_WEIGHT = 0.7

    def __init__(self, entries: Sequence[FaqEntry]) -> None:
        self.entries: tuple[FaqEntry, ...] = tuple(entries)
        phrasings = [[_terms(e.question), *(_terms(v) for v in e.variants)] for e in self.entries]
        profiles = [
            frozenset().union(*docs, _terms(e.answer))
            for docs, e in zip(phrasings, self.entries, strict=True)
        ]
        self._profiles: list[frozenset[str]] = profiles
        self._positions: dict[str, int] = {e.id: i for i, e in enumerate(self.entries)}
        count = len(self.entries)
        frequency: dict[str, int] = {}
        for profile in profiles:
            for term in profile:
                frequency[term] = frequency.get(term, 0) + 1
        #: squared inverse entry frequency of each term
        self._weight: dict[str, float] = {t: math.log(1 + count / n) ** 2 for t, n in frequency.items()}
        self._unknown = math.log(1 + count) ** 2
        self._phrasing_norms: list[list[float]] = []
        self._profile_norms: list[float] = []
        self._phrasing_postings: dict[str, list[tuple[int, int]]] = {}
        self._profile_postings: dict[str, list[int]] = {}
        for index, (docs, profile) in enumerate(zip(phrasings, profiles, strict=True)):
            self._phrasing_norms.append([self._norm(doc) for doc in docs])
            self._profile_norms.append(self._norm(profile))
            for position, doc in enumerate(docs):
                for term in doc:
                    self._phrasing_postings.setdefault(term, []).append((index, position))
            for term in profile:
                self._profile_postings.setdefault(term, []).append(index)

    def uncovered(self, question: str, entry: FaqEntry) -> float:
        """Share of ``question``'s term weight that ``entry``'s phrasings and answer never use (0 when
        the entry covers every word of the question; words no entry uses weigh the most)."""
        terms = _terms(question)
        if not terms:
            return 1.0
        index = self._positions.get(entry.id)
        if index is None:
            return 1.0
        profile = self._profiles[index]
        total = sum(self._weight.get(t, self._unknown) for t in terms)
        missing = sum(self._weight.get(t, self._unknown) for t in terms if t not in profile)
        return missing / total if total else 1.0

    def _norm(self, terms: Iterable[str]) -> float:
        return math.sqrt(sum(self._weight[t] for t in terms)) or 1.0

    def match(
        self, question: str, edition: str | None = None, limit: int | None = None
    ) -> list[tuple[FaqEntry, float]]:
        """Entries that share terms with ``question``, best first, as ``(entry, score)``."""
        terms = _terms(question)
        if not terms:
            return []
        query_norm = math.sqrt(sum(self._weight.get(t, self._unknown) for t in terms))
        phrasing_dots: dict[int, dict[int, float]] = {}
        profile_dots: dict[int, float] = {}
        for term in terms:
            weight = self._weight.get(term)
            if weight is None:
                continue
            for index in self._profile_postings[term]:
                profile_dots[index] = profile_dots.get(index, 0.0) + weight
            for index, position in self._phrasing_postings.get(term, ()):
                dots = phrasing_dots.setdefault(index, {})
                dots[position] = dots.get(position, 0.0) + weight
        results: list[tuple[float, int]] = []
        for index, profile_dot in profile_dots.items():
            if edition is not None and self.entries[index].edition != edition:
                continue
            norms = self._phrasing_norms[index]
            dots = phrasing_dots.get(index, {})
            closest = max((dot / norms[position] for position, dot in dots.items()), default=0.0)
            profile = profile_dot / self._profile_norms[index]
            score = (self.PHRASING_WEIGHT * closest + (1 - self.PHRASING_WEIGHT) * profile) / query_norm
            results.append((min(1.0, score), index))
        results.sort(key=lambda item: (-item[0], item[1]))
        if limit is not None:
            results = results[:limit]
        return [(self.entries[index], round(score, 6)) for score, index in results]


_MATCHERS: dict[tuple[int, ...], FaqMatcher] = {}


def faq_matcher(entries: Sequence[FaqEntry]) -> FaqMatcher:
    """The matcher over ``entries``, built once and reused while the same entry objects are passed."""
    key = tuple(id(entry) for entry in entries)
    matcher = _MATCHERS.get(key)
    if matcher is None:
        if len(_MATCHERS) >= 8:
            _MATCHERS.pop(next(iter(_MATCHERS)))
        matcher = _MATCHERS[key] = FaqMatcher(entries)
    return matcher


def match_faq(
    question: str, entries: Sequence[FaqEntry], edition: str | None = None, limit: int | None = None
) -> list[tuple[FaqEntry, float]]:
    """Find the FAQ entries ``question`` asks, best first, each with a score in [0, 1].

    ``edition`` keeps only entries of that edition. The index over ``entries`` is built once and
    reused while the same entry objects are passed (the cache keeps them alive, so their ids cannot
    be reused). A score at or above :data:`DEFAULT_THRESHOLD` means «this entry answers it».
    """
    key = tuple(id(entry) for entry in entries)
    matcher = _MATCHERS.get(key)
    if matcher is None:
        if len(_MATCHERS) >= 8:
            _MATCHERS.pop(next(iter(_MATCHERS)))
        matcher = _MATCHERS[key] = FaqMatcher(entries)
    return matcher.match(question, edition=edition, limit=limit)
