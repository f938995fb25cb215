"""Rendering for the pages: rule text through markdown-it-py, terms and references as links, SVG charts.

One :class:`markdown_it.MarkdownIt` instance (CommonMark, raw HTML off) renders every rule. The
texts are not Markdown, so :func:`to_markdown` first neutralises what would be read as markup by
accident — footnote stars («знамя*»), brackets around keywords («[ОДИН ВЫПУСК]»), ``#``, ``&``,
``<`` — while keeping what reads as lists: «•», «- » and «1.» at the start of a line. Each line of
the cleaned text becomes its own paragraph (the parser already joined wrapped sentences).

A core rule (``rulekb_terms``, after ``text_join``) walks the inline text tokens and wraps the
spans that the termbase recognises (by lemma, so any inflection) in ``term_open``/``term_close``
tokens, and «см. стр. 27»-style references in ``xref_open``/``xref_close``; their render rules
emit a link to the concept with a tooltip (definition, this book's renderings) and a link to the
referenced rule. Everything from the text is escaped by the renderer.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup

from rulekb.kb.text.matcher import Matcher, Pattern

__all__ = [
    "MD",
    "STATUS_LABELS",
    "RenderContext",
    "TermMatcher",
    "TermSense",
    "bar_chart_svg",
    "flat",
    "fraction",
    "number",
    "percent",
    "render_text",
    "to_markdown",
]

_ESCAPE = re.compile(r"([\\`*_\[\]<>&#!|~])")
_BULLET = re.compile(r"^[•●▪◦]\s*(?P<rest>.*)$|^[-–—]\s+(?P<rest2>\S.*)$")
_ORDERED = re.compile(r"^(?P<n>\d{1,2})[.)]\s*(?P<rest>[^\d\s].*)$")
_LEADING = re.compile(r"^(\d+)([.)])|^([+=\-])")


def _escape_inline(text: str) -> str:
    text = _ESCAPE.sub(r"\\\1", text)
    return _LEADING.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1) else f"\\{m.group(3)}", text)


def to_markdown(text: str) -> str:
    """The cleaned rule text as CommonMark with every accidental markup neutralised."""
    blocks: list[tuple[str, list[str]]] = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        bullet = _BULLET.match(line)
        ordered = _ORDERED.match(line)
        if bullet:
            kind, item = "ul", "- " + _escape_inline((bullet.group("rest") or bullet.group("rest2") or "").strip())
        elif ordered:
            kind, item = "ol", f"{ordered.group('n')}. " + _escape_inline(ordered.group("rest").strip())
        else:
            kind, item = "p", _escape_inline(line)
        if kind != "p" and blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(item)
        else:
            blocks.append((kind, [item]))
    out = []
    for kind, items in blocks:
        if kind == "p":
            out.extend(items)
        else:
            out.append("\n".join(i if i.strip() not in ("-", "- ") else "- \u00a0" for i in items))
    return "\n\n".join(out) + ("\n" if out else "")


# ---- terms ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TermSense:
    """What a tooltip says about one concept."""

    id: str
    english: str
    definition: str
    #: source id -> [(rendering, status)]
    renderings: Mapping[str, Sequence[tuple[str, str]]]


class TermMatcher:
    """Finds termbase phrases in text with the termbase's own matcher (``rulekb.kb.text.matcher.Matcher``:
    lemma sequences, longest first; keyword forms in capitals match only capitals, glued words are
    split)."""

    def __init__(self, phrases: Iterable[tuple[str, str]]) -> None:
        self._kb = Matcher(Pattern(concept, phrase) for phrase, concept in phrases if phrase.strip())

    def __bool__(self) -> bool:
        return len(self._kb) > 0

    def find(self, text: str, prefer: Collection[str] = ()) -> list[tuple[int, int, str]]:
        """Non-overlapping ``(start, end, concept)`` spans in ``text``. Where one span renders
        several concepts («атака»: an attack or a charge), the one in ``prefer`` (the concepts
        the build found the passage to mention, each occurrence counted for its sense) wins."""
        spans: list[tuple[int, int, str]] = []
        for match in self._kb.find(text):
            if not spans or match.start >= spans[-1][1]:
                spans.append((match.start, match.end, match.concept_id))
            elif (match.start, match.end) == spans[-1][:2] and match.concept_id in prefer and spans[-1][2] not in prefer:
                spans[-1] = (match.start, match.end, match.concept_id)
        return spans


@dataclass
class RenderContext:
    """What the render rules need for one text: term senses, the node's source, references."""

    source_id: str = ""
    senses: Mapping[str, TermSense] | None = None
    matcher: TermMatcher | None = None
    concept_url: str = "/concepts/"
    #: a reference as printed («см. стр. 27») -> URL of the rule it points to
    xrefs: Mapping[str, str] | None = None
    counter: int = 0
    #: link every mention, or (default) only the first mention of each concept in one text
    link_every: bool = False
    linked: set[str] = field(default_factory=set)
    #: concepts the build found the text to mention, each occurrence counted for its sense: when
    #: given, only these are glossed, and a string shared by several concepts is glossed as one
    #: of them
    prefer: Collection[str] = ()


def _split_text(token: Token, ctx: RenderContext) -> list[Token]:
    content = token.content
    spans: list[tuple[int, int, str, str]] = []  # start, end, kind, payload
    if ctx.xrefs:
        for printed, url in sorted(ctx.xrefs.items(), key=lambda kv: -len(kv[0])):
            pattern = r"\s+".join(re.escape(word) for word in printed.split())
            for m in re.finditer(pattern, content) if pattern else ():
                if not any(s < m.end() and m.start() < e for s, e, _, _ in spans):
                    spans.append((m.start(), m.end(), "xref", url))
    if ctx.matcher:
        for start, end, concept in ctx.matcher.find(content, ctx.prefer):
            if concept in ctx.linked and not ctx.link_every:
                continue
            if ctx.prefer and concept not in ctx.prefer:
                continue  # the build found no such mention here (another sense, or a heading's word)
            if not any(s < end and start < e for s, e, _, _ in spans):
                spans.append((start, end, "term", concept))
                ctx.linked.add(concept)
    if not spans:
        return [token]
    spans.sort()
    out: list[Token] = []
    pos = 0
    for start, end, kind, payload in spans:
        if start > pos:
            out.append(_text(content[pos:start]))
        opener = Token(f"{kind}_open", "a", 1)
        opener.meta = {"payload": payload}
        out.append(opener)
        out.append(_text(content[start:end]))
        closer = Token(f"{kind}_close", "a", -1)
        closer.meta = {"payload": payload}
        out.append(closer)
        pos = end
    if pos < len(content):
        out.append(_text(content[pos:]))
    return out


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _terms_rule(state: StateCore) -> None:
    ctx = state.env.get("rulekb") if isinstance(state.env, dict) else None
    if not isinstance(ctx, RenderContext) or not (ctx.matcher or ctx.xrefs):
        return
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        inside_link = 0
        for child in block.children:
            if child.type == "link_open":
                inside_link += 1
            elif child.type == "link_close":
                inside_link -= 1
            if child.type == "text" and not inside_link:
                children.extend(_split_text(child, ctx))
            else:
                children.append(child)
        block.children = children


def _attr(value: str) -> str:
    return escapeHtml(value)


def _render_term_open(self: Any, tokens_: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    ctx: RenderContext = env["rulekb"]
    concept = str(tokens_[idx].meta["payload"])
    ctx.counter += 1
    tip = f"tip-{ctx.counter}"
    tokens_[idx].meta["tip"] = tip
    href = ctx.concept_url + concept
    return (
        f'<span class="term"><a class="term-link" href="{_attr(href)}" data-concept="{_attr(concept)}"'
        f' aria-describedby="{tip}">'
    )


def _render_term_close(self: Any, tokens_: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    ctx: RenderContext = env["rulekb"]
    concept = str(tokens_[idx].meta["payload"])
    opener = next(t for t in reversed(tokens_[:idx]) if t.type == "term_open")
    tip = opener.meta.get("tip", "")
    sense = (ctx.senses or {}).get(concept)
    parts = [f'</a><span class="term-tip" role="tooltip" id="{_attr(tip)}">']
    if sense is not None:
        parts.append(f"<b>{escapeHtml(sense.english or concept)}</b>")
        if sense.definition:
            parts.append(f" — {escapeHtml(sense.definition)}")
        here = sense.renderings.get(ctx.source_id, ())
        if here:
            shown = ", ".join(
                f"«{escapeHtml(text)}»" + (f" <em>({escapeHtml(STATUS_LABELS.get(status, status))})</em>" if status else "")
                for text, status in here
            )
            parts.append(f'<span class="tip-renderings">В этой книге: {shown}</span>')
    else:
        parts.append(f"<b>{escapeHtml(concept)}</b>")
    parts.append(f'<a class="tip-more" href="{_attr(ctx.concept_url + concept)}">Понятие во всех редакциях →</a>')
    parts.append("</span></span>")
    return "".join(parts)


def _render_xref_open(self: Any, tokens_: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return f'<a class="xref" href="{_attr(str(tokens_[idx].meta["payload"]))}">'


def _render_xref_close(self: Any, tokens_: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return "</a>"


#: How a rendering's status reads in Russian (tooltips, the termbase pages, the status filter).
STATUS_LABELS = {
    "preferred": "основной",
    "admitted": "допустимый",
    "deprecated": "нежелательный",
    "mistranslation": "ошибка перевода",
}


def _make_md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})
    md.disable("image")
    md.core.ruler.after("text_join", "rulekb_terms", _terms_rule)
    md.add_render_rule("term_open", _render_term_open)
    md.add_render_rule("term_close", _render_term_close)
    md.add_render_rule("xref_open", _render_xref_open)
    md.add_render_rule("xref_close", _render_xref_close)
    return md


#: The one markdown-it-py instance of the app (raw HTML off).
MD = _make_md()


def render_text(text: str, ctx: RenderContext | None = None) -> Markup:
    """Rule text as safe HTML: lists kept, accidental markup neutralised, terms and references linked."""
    env: dict[str, Any] = {"rulekb": ctx or RenderContext()}
    return Markup(MD.render(to_markdown(text), env))  # safe: markdown-it escapes all text (html off)


# ---- numbers and charts ------------------------------------------------------------------------


def fraction(value: Any) -> Fraction:
    """A probability from the engine's JSON («1/6», «0.5», 1) as an exact fraction."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | float):
        return Fraction(value).limit_denominator(10**9)
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


def number(value: Any, digits: int = 2) -> str:
    """An expected value from the engine (a number or «7/3») as «2,33»."""
    if isinstance(value, str) and "/" not in value:
        try:
            value = float(value)
        except ValueError:
            return str(value)
    text = f"{float(fraction(value)):.{digits}f}".rstrip("0").rstrip(".")
    return text.replace(".", ",")


def percent(value: Any, digits: int = 1) -> str:
    """«16,7 %» for a probability; a tiny non-zero one reads «< 0,1 %», a near-certain one «> 99,9 %»."""
    exact = fraction(value)
    step = Fraction(1, 10**digits) / 100
    if 0 < exact < step:
        return "<\u00a0" + percent(step, digits)
    if 1 - step < exact < 1:
        return ">\u00a0" + percent(1 - step, digits)
    number = float(exact) * 100
    return f"{number:.{digits}f}".replace(".", ",") + "\u00a0%"


def bar_chart_svg(
    distribution: Sequence[Sequence[Any]],
    label: str,
    *,
    x_label: str = "",
    width: int = 320,
    height: int = 150,
) -> Markup:
    """An exact distribution ``[[k, p], …]`` as an accessible inline SVG bar chart (no script, no style)."""
    points = [(str(k), fraction(p)) for k, p in (tuple(item)[:2] for item in distribution if len(item) >= 2)]
    if not points:
        return Markup("")
    if len(points) > 40:  # keep bars tappable: fold the tail into the last bar
        head, tail = points[:39], points[39:]
        points = [*head, (f"{tail[0][0]}+", sum((p for _, p in tail), Fraction(0)))]
    top = max(p for _, p in points) or Fraction(1)
    left, bottom, pad_top = 4, 22, 14
    plot_h = height - bottom - pad_top
    step = (width - left * 2) / len(points)
    bar_w = max(step * 0.8, 1.0)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escapeHtml(label)}"'
        ' xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escapeHtml(label)}</title>",
        f'<line class="axis" x1="{left}" y1="{height - bottom}" x2="{width - left}" y2="{height - bottom}"/>',
    ]
    label_every = max(1, round(len(points) / 12))
    for i, (k, p) in enumerate(points):
        h = float(p / top) * plot_h
        x = left + i * step + (step - bar_w) / 2
        y = height - bottom - h
        pct = percent(p)
        parts.append(
            f'<g class="bar"><rect x="{x:.1f}" y="{y:.1f}" width="{bar_w:.1f}" height="{max(h, 0.5):.1f}">'
            f"<title>{escapeHtml(k)}: {escapeHtml(str(p))} ≈ {escapeHtml(pct)}</title></rect>"
        )
        if i % label_every == 0:
            parts.append(
                f'<text class="tick" x="{x + bar_w / 2:.1f}" y="{height - bottom + 14}"'
                f' text-anchor="middle">{escapeHtml(k)}</text>'
            )
        if p == top:
            parts.append(
                f'<text class="peak" x="{x + bar_w / 2:.1f}" y="{max(y - 3, 10):.1f}"'
                f' text-anchor="middle">{escapeHtml(pct)}</text>'
            )
        parts.append("</g>")
    if x_label:
        parts.append(
            f'<text class="xlabel" x="{width - left}" y="{pad_top - 3}" text-anchor="end">{escapeHtml(x_label)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))  # safe: every interpolated value is escaped above


def flat(data: Any, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """A nested JSON value as ``(dotted key, text)`` pairs for a definition list."""
    if isinstance(data, Mapping) and depth < 4:
        out: list[tuple[str, str]] = []
        for key, value in data.items():
            out.extend(flat(value, f"{prefix}.{key}" if prefix else str(key), depth + 1))
        return out
    if isinstance(data, list | tuple):
        if all(not isinstance(v, Mapping | list | tuple) for v in data):
            return [(prefix, ", ".join(str(v) for v in data))]
        return [(prefix, "; ".join(" ".join(str(x) for x in (v if isinstance(v, list | tuple) else [v])) for v in data))]
    if isinstance(data, bool):
        return [(prefix, "да" if data else "нет")]
    return [(prefix, "—" if data is None else str(data))]
