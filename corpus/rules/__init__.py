"""The parser's rules: one module per text construct, run as an ordered, named chain.

At each unclaimed non-blank line the parser tries the rules in :data:`RULES` order; the first
that recognises a construct returns a :class:`Block` (its kind and line span) and the parser
moves past it. A source can switch rules off by name (``disabled_rules`` in ``sources.toml``).
Like markdown-it-py's block ruler, each rule is small and knows only its own construct.
"""

from __future__ import annotations

from collections.abc import Callable

from rulekb.corpus.rules.base import Block, BlockKind, Context
from rulekb.corpus.rules.box import box_field, box_start
from rulekb.corpus.rules.credits import credits, preface
from rulekb.corpus.rules.example import example
from rulekb.corpus.rules.heading import caps_heading, step_heading, title_heading
from rulekb.corpus.rules.lists import bullet, list_item
from rulekb.corpus.rules.markers import page_marker
from rulekb.corpus.rules.paragraph import continuation, paragraph
from rulekb.corpus.rules.table import table
from rulekb.corpus.rules.toc import toc

__all__ = ["RULES", "Block", "BlockKind", "Context", "Rule"]

Rule = Callable[[Context, int], Block | None]

#: The chain, in the order the rules are tried. Order matters: a page marker or a table row
#: must be seen before a heading rule mistakes it for a short title.
RULES: tuple[tuple[str, Rule], ...] = (
    ("page_marker", page_marker),
    ("credits", credits),
    ("preface", preface),
    ("toc", toc),
    ("table", table),
    ("box_start", box_start),
    ("box_field", box_field),
    ("bullet", bullet),
    ("example", example),
    ("step_heading", step_heading),
    ("list_item", list_item),
    ("caps_heading", caps_heading),
    ("title_heading", title_heading),
    ("continuation", continuation),
    ("paragraph", paragraph),
)
