"""The models of the JSON contracts the README lists (fields in the order they are printed)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rulekb.kb.contracts.base import Contract, Edition, Lines

__all__ = [
    "Answer", "AnswerPart", "Ask", "Card", "CardCitation", "CardPart", "Citation", "Concept", "ConceptNode",
    "Diagram", "Error", "Example", "ExampleCitation", "Faq", "Figure", "Hit", "Node", "NodeBrief",
    "NodeDetail", "OtherEdition", "Reference", "Rendering", "RulePage", "SameConcept", "SearchResult",
    "Sources", "Suggestion", "Term",
]

Sha256 = str


class Suggestion(Contract):
    """A rule or concept whose id or title is close to the one asked for."""

    href: str
    title: str
    id: str


class Error(Contract):
    """What every route answers on an error (4xx, 503)."""

    error: str
    status: int | None = None
    suggestions: list[Suggestion] | None = Field(default=None, description="404: close ids.")
    remedy: str | None = Field(default=None, description="503: the command that fixes it.")


# --- nodes -------------------------------------------------------------------------------------


class Node(Contract):
    """A rule node (``rulekb nodes --json``)."""

    id: str
    source_id: str
    source_sha256: Sha256 = Field(pattern="^[0-9a-f]{64}$", description="sha256 of the raw source file.")
    edition: Edition
    kind: str
    title: str
    parent_id: str | None
    lines: Lines
    page: int | None


class NodeDetail(Node):
    """A node as ``/api/rules/{node_id}`` serves it: the ``nodes`` fields plus its text and concepts."""

    title_clean: str | None = None
    text: str | None = None
    text_clean: str | None = None
    concepts: list[str] | None = None


class NodeBrief(Contract):
    """A neighbour of a node: enough to link and cite it."""

    id: str
    title: str
    kind: str
    edition: Edition
    lines: Lines


class SameConcept(NodeBrief):
    concept: str


class Reference(NodeBrief):
    text: str = Field(description="The reference as printed («см. стр. 27»).")


class Citation(Contract):
    """Book, edition, page and lines of a node, and its permalink."""

    book: str
    edition: Edition
    edition_label: str
    page: int | None
    lines: Lines
    text: str = Field(description="The citation label: book, page, lines.")
    short: str = Field(description="The label with the source id instead of the book's title.")
    sha256: Sha256
    permalink: str


class Figure(Contract):
    """A restored diagram's caption and where it is printed."""

    source: str
    source_sha256: Sha256
    lines: Lines
    caption: list[str]


class Diagram(Contract):
    example: str | None
    svg: str
    figure: Figure | None


class RulePage(Contract):
    """``/api/rules/{node_id}``: the node with its citation, breadcrumb, parent, children and neighbours."""

    node: NodeDetail
    citation: Citation
    breadcrumb: list[NodeBrief]
    parent: NodeBrief | None
    children: list[NodeBrief]
    previous: NodeBrief | None
    next: NodeBrief | None
    same_concept: list[SameConcept]
    refers_to: list[Reference]
    referred_by: list[NodeBrief]
    examples: list[str | None]
    diagrams: list[Diagram]


# --- terms and concepts ------------------------------------------------------------------------


class Rendering(Contract):
    """One Russian rendering of a concept in one book."""

    source_id: str
    source_sha256: Sha256
    text: str
    status: Literal["preferred", "admitted", "deprecated", "mistranslation"]
    count: int
    lines: list[int]
    note: str | None = None


class Term(Contract):
    """A termbase entry (``rulekb terms --json``)."""

    concept: str
    english: str
    abbreviation: str | None = None
    category: str
    keyword: bool | None = None
    definition: str
    aliases: list[str]
    related: list[str] | None = None
    preferred: str | None = None
    renderings: list[Rendering]


class ConceptNode(Contract):
    """A rule that defines or mentions a concept."""

    node_id: str
    source_id: str
    source_sha256: Sha256
    edition: Edition
    lines: Lines
    role: Literal["defines", "mentions"]


class Concept(Contract):
    """A concept with its rules (``rulekb concepts --json``; ``/api/concepts/{id}`` adds the
    termbase entry's fields and the engine's comparisons)."""

    concept: str
    english: str | None = None
    abbreviation: str | None = None
    category: str | None = None
    keyword: bool | None = None
    definition: str | None = None
    aliases: list[str] | None = None
    related: list[str] | None = None
    preferred: str | None = None
    renderings: list[Rendering] | None = None
    nodes: list[ConceptNode]
    comparisons: list[dict[str, Any]] | None = Field(
        default=None, description="The engine's tables comparing editions: `{title, header, rows, note}`."
    )


# --- examples ----------------------------------------------------------------------------------


class ExampleCitation(Contract):
    source: str
    source_sha256: Sha256 | None = None
    lines: Lines
    quotes: list[str] = Field(default_factory=list)


class Example(Contract):
    """A worked example run through the engine (``rulekb examples --json``)."""

    id: str
    title: str | None = None
    file: str | None = None
    run: str | None = None
    printed: bool | None = None
    rule_ids: list[str]
    concepts: list[str]
    citations: list[ExampleCitation]
    explanation: str | None = None
    inputs: dict[str, Any]
    expected: dict[str, Any]
    result: dict[str, Any]
    ok: bool
    problems: list[str] = Field(default_factory=list)
    positions: dict[str, Any] | None = None
    svg: str | None = None
    figure: Figure | None = None


# --- search and ask ----------------------------------------------------------------------------


class Hit(Contract):
    """One ranked rule passage with what a citation needs."""

    node_id: str
    title: str
    heading: str
    breadcrumb: list[str]
    edition: Edition
    source_id: str
    source_sha256: Sha256 = Field(pattern="^[0-9a-f]{64}$")
    lines: Lines
    page: int | None
    kind: str
    score: float
    snippet: str = Field(description="The best passage, matched words in `<b>…</b>` (HTML-escaped).")


class SearchResult(Contract):
    """``rulekb search --json`` and ``/api/search``: the same fields on both."""

    query: str = Field(description="The query as given.")
    question: str = Field(description="The same text (the name `/api/ask` uses).")
    edition: Edition | None
    concepts: list[str] = Field(description="Concepts recognised in the query.")
    did_you_mean: str | None
    hits: list[Hit]


class AnswerPart(Contract):
    edition: Edition
    node_id: str
    text: str
    html: str | None = None


class Answer(Contract):
    text: str
    node_id: str
    html: str | None = None
    parts: list[AnswerPart] | None = None


class CardPart(Contract):
    edition: Edition | None
    text: str
    node_id: str | None = None
    lines: Lines | None = None
    source: str | None = None


class CardCitation(Contract):
    source_id: str
    lines: Lines
    quote: str | None = None


class Card(Contract):
    """The answer card (the web's answer card renders exactly it)."""

    kind: Literal["ruling", "terminology", "comparison", "none"]
    lang: Literal["ru", "en"]
    text: str
    edition: Edition | None
    per_edition: list[CardPart]
    source: Literal["faq", "text", "termbase", "engine"] | None
    citations: list[CardCitation]
    confidence: float = Field(ge=0.0, le=1.0)
    concept: str | None = None
    engine: Any = None
    form: str | None = None
    played: Edition | None = None
    related_faq: list[Any] | None = None


class Faq(Contract):
    id: str
    question: str
    answer: str
    edition: Edition | None = None
    score: float | None = None
    citations: list[Any] | None = None


class OtherEdition(Contract):
    concept: str | None = None
    edition: Edition
    node_id: str
    title: str
    source_id: str
    lines: Lines


class Ask(Contract):
    """``rulekb ask --json``, one line of ``ask --batch``, and ``/api/ask``."""

    id: str | None
    question: str
    edition: Edition | None
    editions: list[Any] | None = None
    concepts: list[str]
    answer: Answer | None
    faq: Faq | None = None
    other_editions: list[OtherEdition] = Field(default_factory=list)
    did_you_mean: str | None = None
    confidence: float | None = None
    hits: list[Hit]
    card: Card | None = None


class Sources(Contract):
    """``/api/sources``: the manifest's books and the parse issues."""

    sources: list[dict[str, Any]]
    issues: list[dict[str, Any]]
