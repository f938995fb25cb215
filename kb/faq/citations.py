"""FAQ citations against the texts: every quote must be in its cited lines (:func:`check_citations`),
and a citation maps to the rule nodes it overlaps (:func:`citation_node_ids`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rulekb.corpus.citations import NodeLike, missing_quotes, overlapping_nodes
from rulekb.corpus.errors import RulebaseError
from rulekb.corpus.reader import read_lines
from rulekb.kb.faq.model import FaqCitation, FaqEntry

__all__ = ["CitationProblem", "check_citations", "citation_node_ids", "entry_node_ids"]



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
