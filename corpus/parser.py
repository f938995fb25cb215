"""Source text → tree of :class:`RuleNode` (+ :class:`ParseIssue` list).

Two passes: the rule chain (:mod:`rulekb.corpus.rules`) cuts the lines into blocks, then
:class:`TreeBuilder` turns blocks into headings and leaves. Every non-blank line ends up in
exactly one node (a heading owns its title line, a leaf its body), in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulekb.corpus.ids import IdAllocator, slugify
from rulekb.corpus.models import HeadingPattern, NodeKind, ParseIssue, RuleNode, Source
from rulekb.corpus.normalize import clean_line, join_paragraph
from rulekb.corpus.reader import RawText, load_manifest, read_source
from rulekb.corpus.rules import RULES, Block, BlockKind, Context
from rulekb.corpus.rules.base import HEADING_BLOCKS
from rulekb.corpus.rules.labels import label_runs

__all__ = ["MAX_LEAF_LINES", "ParsedCorpus", "ParsedSource", "parse_corpus", "parse_source", "scan"]

#: A leaf grows paragraph by paragraph up to this many raw lines, then a new leaf starts.
TARGET_LEAF_LINES = 15
#: Longer leaves are reported (tables, contents and credits excepted).
MAX_LEAF_LINES = 25

#: Passes over the whole block list after the chain, in order (switchable by name like the rules).
POST_RULES: tuple[tuple[str, Callable[[Context, list[Block]], list[Block]]], ...] = (("label_runs", label_runs),)

_LONG_KINDS = frozenset({NodeKind.TOC, NodeKind.TABLE, NodeKind.CREDITS})
_BLOCK_LEAF_KIND = {
    BlockKind.PAGE: NodeKind.PAGE,
    BlockKind.TOC: NodeKind.TOC,
    BlockKind.PREFACE: NodeKind.PREFACE,
    BlockKind.CREDITS: NodeKind.CREDITS,
    BlockKind.TABLE: NodeKind.TABLE,
    BlockKind.EXAMPLE: NodeKind.EXAMPLE,
}
_FIXED_TITLES = {
    NodeKind.TOC: "Содержание",
    NodeKind.CREDITS: "Переводчики",
    NodeKind.PREFACE: "От переводчика",
}


@dataclass
class ParsedSource:
    """One source's nodes in document order (the root first) and its issues."""

    source: Source
    sha256: str
    nodes: list[RuleNode]
    issues: list[ParseIssue]


@dataclass
class ParsedCorpus:
    sources: list[ParsedSource]

    @property
    def nodes(self) -> list[RuleNode]:
        return [node for parsed in self.sources for node in parsed.nodes]

    @property
    def issues(self) -> list[ParseIssue]:
        return [issue for parsed in self.sources for issue in parsed.issues]


def scan(ctx: Context) -> list[Block]:
    """Run the rule chain over the lines: the first rule that recognises a line wins."""
    disabled = set(ctx.source.parser.disabled_rules)
    rules = [(name, rule) for name, rule in RULES if name not in disabled]
    blocks: list[Block] = []
    i = 0
    while i < len(ctx.raw):
        if ctx.blank(i):
            i += 1
            continue
        for name, rule in rules:
            block = rule(ctx, i)
            if block is not None:
                blocks.append(replace(block, rule=name))
                ctx.last_kind = block.kind
                i = block.end + 1
                break
        else:  # pragma: no cover - the paragraph rule always matches
            raise AssertionError(f"no rule matched line {i + 1}")
    return blocks


@dataclass
class _Leaf:
    kind: NodeKind
    start: int
    end: int
    page: int | None
    limit: int = TARGET_LEAF_LINES
    title: str = ""


@dataclass
class _Heading:
    node_id: str
    level: int
    kind: BlockKind
    children: int = 0
    continues: bool = False
    """For a numbered step: the next step printed is the next number, so the sequence goes on and
    a sub-heading before it belongs to this step."""


@dataclass
class TreeBuilder:
    """Turns blocks into nodes, keeping a stack of open headings."""

    ctx: Context
    sha256: str
    nodes: list[RuleNode] = field(default_factory=list)
    ids: IdAllocator = field(default_factory=IdAllocator)
    stack: list[_Heading] = field(default_factory=list)
    leaf: _Leaf | None = None
    page: int | None = None
    steps_continue: dict[int, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        source = self.ctx.source
        self._chapters = [_pattern(p) for p in source.parser.chapters]
        self._sections = [_pattern(p) for p in source.parser.sections]
        self._unprinted = {spec.line: spec for spec in source.parser.unprinted_headings}
        self.root = RuleNode(
            id=self.ids.allocate(source.id),
            source_id=source.id,
            edition=source.edition,
            kind=NodeKind.SOURCE,
            title=source.title,
            title_clean=source.title,
            lines=(1, len(self.ctx.raw)),
        )
        self.nodes.append(self.root)
        self.stack.append(_Heading(self.root.id, 0, BlockKind.TITLE))

    # -- helpers -------------------------------------------------------------------------
    @property
    def source(self) -> Source:
        return self.ctx.source

    def _clean(self, start: int, end: int) -> str:
        settings = self.source.parser
        parts = [
            clean_line(line, settings.glued_keywords, settings.glued_words) for line in self.ctx.raw[start : end + 1]
        ]
        return join_paragraph(parts)

    def _add(
        self, kind: NodeKind, start: int, end: int, title: str, slug_from: str, page: int | None, unprinted: bool = False
    ) -> str:
        parent = self.stack[-1]
        node_id = self.ids.allocate(f"{parent.node_id}/{slugify(slug_from, max_words=6)}")
        leaf = kind not in (NodeKind.CHAPTER, NodeKind.SECTION, NodeKind.STEP)
        text = "\n".join(self.ctx.raw[start : end + 1]) if leaf else ""
        self.nodes.append(
            RuleNode(
                id=node_id,
                source_id=self.source.id,
                edition=self.source.edition,
                kind=kind,
                title=title,
                title_clean=clean_line(title, self.source.parser.glued_keywords, self.source.parser.glued_words),
                parent_id=parent.node_id,
                order=parent.children,
                lines=(start + 1, end + 1),
                page=page,
                text=text,
                text_clean=self._clean(start, end) if leaf else "",
                unprinted=unprinted,
            )
        )
        parent.children += 1
        return node_id

    # -- leaves --------------------------------------------------------------------------
    def flush(self) -> None:
        leaf, self.leaf = self.leaf, None
        if leaf is None:
            return
        clean = self._clean(leaf.start, leaf.end)
        title = leaf.title or _FIXED_TITLES.get(leaf.kind) or _label(clean)
        slug_from = title if leaf.kind in _FIXED_TITLES or leaf.title else clean
        if leaf.kind in (NodeKind.SUMMARY, NodeKind.EXAMPLE):
            slug_from = f"{leaf.kind.value} {clean.lstrip('•● ')}"
        self._add(leaf.kind, leaf.start, leaf.end, title, slug_from, leaf.page)
        span = leaf.end - leaf.start + 1
        if span > MAX_LEAF_LINES and leaf.kind not in _LONG_KINDS:
            self.ctx.warn(leaf.start, f"{leaf.kind.value} leaf spans {span} lines (over {MAX_LEAF_LINES})")

    def open_leaf(self, kind: NodeKind, block: Block) -> None:
        self.flush()
        self.leaf = _Leaf(kind, block.start, block.end, self.page)

    def extend(self, block: Block) -> None:
        assert self.leaf is not None
        self.leaf.end = block.end

    def _box_title(self, start: int) -> str:
        pattern = self.source.parser.box_title
        prev = self.ctx.prev_nonblank(start)
        if not pattern or prev is None:
            return ""
        found = re.findall(pattern, self.ctx.stripped[prev])
        return " ".join(str(found[-1]).split()) if found else ""

    # -- headings ------------------------------------------------------------------------
    def level_of(self, block: Block, title: str) -> int:
        line = block.start + 1
        if any(p.matches(title, line) for p in self._chapters):
            return 1
        if any(p.matches(title, line) for p in self._sections):
            return 2
        settings = self.source.parser
        if block.kind is BlockKind.STEP:
            return settings.step_level
        level = settings.caps_level if block.kind is BlockKind.CAPS else settings.title_level
        step = next((h for h in reversed(self.stack) if h.kind is BlockKind.STEP), None)
        if step is not None and step.continues and level <= step.level:
            return step.level + 1  # a sub-heading inside a numbered step whose sequence goes on
        return level

    def _close_to(self, level: int) -> None:
        """Close the open headings a new heading of ``level`` ends (its level or deeper)."""
        while len(self.stack) > 1 and self.stack[-1].level >= level:
            self.stack.pop()

    def heading(self, block: Block) -> None:
        self.flush()
        title = " ".join(self.ctx.stripped[block.start : block.end + 1])
        level = self.level_of(block, title)
        self._close_to(level)
        kind = {BlockKind.STEP: NodeKind.STEP}.get(block.kind, NodeKind.CHAPTER if level == 1 else NodeKind.SECTION)
        node_id = self._add(kind, block.start, block.end, title, title, self.page)
        self.stack.append(_Heading(node_id, level, block.kind, continues=self.steps_continue.get(block.start, False)))

    def unprinted_heading(self, block: Block) -> None:
        """Open the section the text lost before ``block`` (``[source.parser] unprinted_headings``)."""
        spec = self._unprinted.pop(block.start + 1, None)
        if spec is None:
            return
        self.flush()
        self._close_to(spec.level)
        node_id = self._add(NodeKind.SECTION, block.start, block.start, spec.title, spec.title, self.page, unprinted=True)
        self.stack.append(_Heading(node_id, spec.level, BlockKind.CAPS))

    # -- the walk ------------------------------------------------------------------------
    def feed(self, block: Block) -> None:
        if self._unprinted:
            self.unprinted_heading(block)
        kind = block.kind
        leaf = self.leaf
        adjacent = leaf is not None and block.start == leaf.end + 1
        if kind is BlockKind.PAGE:
            self.page = block.page
            if self.root.page is None and len(self.nodes) == 1:
                self.nodes[0] = self.root = self.root.model_copy(update={"page": block.page})
            self.open_leaf(NodeKind.PAGE, block)
            self.leaf = replace(self.leaf, page=block.page) if self.leaf else None
            self.flush()
        elif kind in HEADING_BLOCKS:
            self.heading(block)
        elif kind in _BLOCK_LEAF_KIND:
            if kind is BlockKind.TABLE and leaf is not None and leaf.kind is NodeKind.TABLE:
                self.extend(block)
            else:
                self.open_leaf(_BLOCK_LEAF_KIND[kind], block)
        elif kind is BlockKind.BULLETS and self.source.parser.bullets == "summary":
            if leaf is not None and leaf.kind is NodeKind.SUMMARY:
                self.extend(block)
            else:
                self.open_leaf(NodeKind.SUMMARY, block)
        elif kind is BlockKind.LABELS:
            self.open_leaf(NodeKind.LIST, block)
        elif kind is BlockKind.BOX:
            self.flush()
            level = self.source.parser.box_parent_level
            while level is not None and len(self.stack) > 1 and self.stack[-1].level > level:
                self.stack.pop()  # a box belongs to its chapter, not to the passage before it
            self.open_leaf(NodeKind.RULE, block)
            assert self.leaf is not None
            self.leaf.limit = MAX_LEAF_LINES
            self.leaf.title = self._box_title(block.start)
        elif kind is BlockKind.BOX_FIELD and leaf is not None and leaf.title and leaf.limit == MAX_LEAF_LINES:
            if block.end - leaf.start + 1 > TARGET_LEAF_LINES:
                name = leaf.title.split(" — ")[0]
                label = self.ctx.stripped[block.start].lstrip(". ").split(":")[0].strip()
                self.open_leaf(NodeKind.RULE, block)
                self.leaf = replace(self.leaf, limit=MAX_LEAF_LINES, title=f"{name} — {label}") if self.leaf else None
            else:
                self.extend(block)
        elif kind is BlockKind.CONTINUATION:
            if leaf is None:
                self.ctx.warn(block.start, "text continues a sentence but follows a heading")
                self.open_leaf(NodeKind.RULE, block)
            elif block.end - leaf.start + 1 > MAX_LEAF_LINES:
                self.open_leaf(NodeKind.RULE, block)  # a long run of fragments: cut at the limit
            else:
                self.extend(block)
        elif kind in (BlockKind.BULLETS, BlockKind.LIST):
            if leaf is not None and leaf.kind in (NodeKind.RULE, NodeKind.LIST, NodeKind.EXAMPLE):
                self.extend(block)
            else:
                self.open_leaf(NodeKind.LIST, block)
        else:  # a paragraph
            if leaf is not None and leaf.kind is NodeKind.EXAMPLE and adjacent:
                self.extend(block)
            elif (
                leaf is not None
                and leaf.kind in (NodeKind.RULE, NodeKind.LIST)
                and block.end - leaf.start + 1 <= leaf.limit
            ):
                self.extend(block)
                leaf.kind = NodeKind.RULE
            else:
                self.open_leaf(NodeKind.RULE, block)

    def finish(self) -> list[RuleNode]:
        self.flush()
        for line in sorted(self._unprinted):  # a lost heading's line must open a block of the text
            self.ctx.warn(line - 1, f"unprinted heading «{self._unprinted[line].title}» heads no block at line {line}")
        return self.nodes


def _pattern(spec: str | HeadingPattern) -> HeadingPattern:
    return HeadingPattern(pattern=spec) if isinstance(spec, str) else spec


def _label(text: str, words: int = 8) -> str:
    parts = text.replace("\n", " ").split()
    label = " ".join(parts[:words])
    return label + ("…" if len(parts) > words else "")


def _step_number(ctx: Context, block: Block) -> int:
    return int(re.match(r"\d+", ctx.stripped[block.start]).group(0))  # type: ignore[union-attr]


def _steps_continue(ctx: Context, blocks: list[Block]) -> dict[int, bool]:
    """For each numbered step (by its line): is the next step printed its successor (N → N+1)?"""
    steps = [b for b in blocks if b.kind is BlockKind.STEP]
    if not steps:
        return {}
    return {
        step.start: nxt is not None and _step_number(ctx, nxt) == _step_number(ctx, step) + 1
        for step, nxt in zip(steps, [*steps[1:], None], strict=True)
    }


def parse_source(raw: RawText) -> ParsedSource:
    """Parse one verified text."""
    ctx = Context(source=raw.source, raw=raw.lines)
    blocks = scan(ctx)
    for name, post in POST_RULES:
        if name not in ctx.source.parser.disabled_rules:
            blocks = post(ctx, blocks)
    builder = TreeBuilder(ctx, raw.sha256, steps_continue=_steps_continue(ctx, blocks))
    for block in blocks:
        builder.feed(block)
    return ParsedSource(source=raw.source, sha256=raw.sha256, nodes=builder.finish(), issues=ctx.issues)


def parse_corpus(sources: list[Source] | None = None, directory: Path | None = None) -> ParsedCorpus:
    """Parse every source of the manifest (or the given ones)."""
    sources = load_manifest() if sources is None else sources
    return ParsedCorpus([parse_source(read_source(source, directory)) for source in sources])
