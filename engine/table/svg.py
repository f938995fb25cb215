"""SVG diagrams of a table state: bases to scale, ranges as rings, terrain footprints, moves as arrows.

Standard library only; the output is a self-contained ``<svg>`` element (no scripts, no external
references) that the web app embeds as it is. One inch is ``scale`` pixels; y grows down the page as
it does on the battlefield map.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from rulekb.engine.table.state import Table

__all__ = ["render_svg"]

_FILL = {"ruins": "#b9a58c", "woods": "#8fbf7f", "crater": "#c9b89a", "barricade": "#9a8a7a", "debris": "#aaa",
         "hill": "#d8c99b", "building": "#999", "area": "#ccc"}
_PLAYERS = ["#2f5fa8", "#b03a2e", "#3a8a3a", "#8a5a9a"]


def _n(v: Fraction | float) -> str:
    return f"{float(v):.3f}".rstrip("0").rstrip(".")


Box = tuple[Fraction, Fraction, Fraction, Fraction]


def render_svg(table: Table, title: str = "", slug: str = "table", scale: int = 24, caption: str = "") -> str:
    """The table as an SVG element, cropped to what is on it with a 2" margin."""
    box = _view_box(table)
    sid = "".join(c if c.isalnum() else "-" for c in slug)
    out = _frame(table, box, title or slug, sid, scale)
    out += _zones(table)
    out += _terrain(table)
    out += _objectives(table)
    out += _rings(table)
    out += _units(table)
    out += _moves(table, sid)
    out += _scale_bar(box)
    if caption:
        out.append(f"<desc>{escape(caption)}</desc>")
    out.append("</svg>")
    return "".join(out)


def _scale_bar(box: Box) -> list[str]:
    """A 1" bar in the bottom left corner."""
    x0, _y0, _x1, y1 = box
    return [f'<line x1="{_n(x0 + 1)}" y1="{_n(y1 - 1)}" x2="{_n(x0 + 2)}" y2="{_n(y1 - 1)}" stroke="#000" '
            'stroke-width="0.1"/>',
            f'<text x="{_n(x0 + 1)}" y="{_n(y1 - Fraction(13, 10))}" font-size="0.5">1″</text>']


def _view_box(table: Table) -> Box:
    """Everything drawn — bases, terrain, markers with their range, moves, rings — with a 2" margin (the whole
    battlefield when the table is empty): ``(x0, y0, x1, y1)``."""
    xs: list[Fraction] = []
    ys: list[Fraction] = []
    for u in table.units:
        for m in u.models:
            xs += [m.x - m.base.rx, m.x + m.base.rx]
            ys += [m.y - m.base.ry, m.y + m.base.ry]
    for t in table.terrain:
        xs += [p[0] for p in t.polygon]
        ys += [p[1] for p in t.polygon]
    for o in table.objectives:
        xs += [o.marker.x - 4, o.marker.x + 4]
        ys += [o.marker.y - 4, o.marker.y + 4]
    for path in table.moves.values():
        xs += [p[0] for p in path]
        ys += [p[1] for p in path]
    for around, radius in table.rings:
        m = table.model(around)
        xs += [m.x - m.base.rx - radius, m.x + m.base.rx + radius]
        ys += [m.y - m.base.ry - radius, m.y + m.base.ry + radius]
    if not xs:
        xs, ys = [Fraction(0), table.width], [Fraction(0), table.depth]
    return min(xs) - 2, min(ys) - 2, max(xs) + 2, max(ys) + 2


def _frame(table: Table, box: Box, label: str, sid: str, scale: int) -> list[str]:
    """The opening tag, title, arrow marker, background and the battlefield's edges."""
    x0, y0, x1, y1 = box
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="table-diagram" role="img" '
           f'viewBox="{_n(x0)} {_n(y0)} {_n(x1 - x0)} {_n(y1 - y0)}" width="{_n(w)}" height="{_n(h)}" '
           f'aria-label="{escape(label)}">']
    out.append(f"<title>{escape(label)}</title>")
    out.append(f'<defs><marker id="arrow-{sid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" '
               'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#222"/></marker></defs>')
    out.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" fill="#f4f1ea"/>')
    # battlefield edges that fall inside the view
    out.append(f'<rect x="0" y="0" width="{_n(table.width)}" height="{_n(table.depth)}" fill="none" '
               'stroke="#444" stroke-width="0.12" stroke-dasharray="0.5 0.3"/>')
    return out


def _zones(table: Table) -> list[str]:
    out = []
    for player, zone in table.zones.items():
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in zone)
        out.append(f'<polygon points="{pts}" fill="#ddd" fill-opacity="0.4" stroke="#888" stroke-width="0.05">'
                   f"<title>deployment zone {escape(player)}</title></polygon>")
    return out


def _terrain(table: Table) -> list[str]:
    out = []
    for t in table.terrain:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in t.polygon)
        cx = sum(p[0] for p in t.polygon) / len(t.polygon)
        cy = sum(p[1] for p in t.polygon) / len(t.polygon)
        out.append(f'<polygon points="{pts}" fill="{_FILL.get(t.kind, "#ccc")}" fill-opacity="0.7" stroke="#5a4a3a" '
                   f'stroke-width="0.08"><title>{escape(t.name)}: {escape(t.kind)}, {_n(t.height)}" high</title></polygon>')
        out.append(f'<text x="{_n(cx)}" y="{_n(cy)}" font-size="0.6" text-anchor="middle" fill="#3a2a1a">'
                   f'{escape(t.name)} {_n(t.height)}″</text>')
    return out


def _objectives(table: Table) -> list[str]:
    out = []
    for o in table.objectives:
        m = o.marker
        out.append(f'<circle cx="{_n(m.x)}" cy="{_n(m.y)}" r="{_n(m.base.rx + 3)}" fill="none" stroke="#c8a000" '
                   'stroke-width="0.06" stroke-dasharray="0.3 0.2"/>')
        out.append(f'<circle cx="{_n(m.x)}" cy="{_n(m.y)}" r="{_n(m.base.rx)}" fill="#f2d24b" stroke="#8a6d00" '
                   f'stroke-width="0.05"><title>{escape(o.name)} (40 mm marker, 3″ range)</title></circle>')
    return out


def _rings(table: Table) -> list[str]:
    out = []
    for around, radius in table.rings:
        m = table.model(around)
        out.append(f'<circle cx="{_n(m.x)}" cy="{_n(m.y)}" r="{_n(m.base.rx + radius)}" fill="none" stroke="#555" '
                   f'stroke-width="0.06" stroke-dasharray="0.4 0.25"><title>{_n(radius)}″ from {escape(around)}'
                   '</title></circle>')
        out.append(f'<text x="{_n(m.x)}" y="{_n(m.y - m.base.rx - radius - Fraction(1, 5))}" font-size="0.5" '
                   f'text-anchor="middle" fill="#555">{_n(radius)}″</text>')
    return out


def _units(table: Table) -> list[str]:
    """Each base in its player's colour (embarked units faint and dashed), the unit's name under its first model."""
    out = []
    players = sorted({u.player for u in table.units})
    for u in table.units:
        colour = _PLAYERS[players.index(u.player) % len(_PLAYERS)]
        dashed = ' stroke-dasharray="0.15 0.1"' if u.embarked_in else ""
        for m in u.models:
            label = f"{m.id} ({u.name}, base {m.base}" + (f", {_n(m.z)}″ up" if m.z else "") + ")"
            if m.base.round:
                shape = f'<circle cx="{_n(m.x)}" cy="{_n(m.y)}" r="{_n(m.base.rx)}"'
            else:
                shape = f'<ellipse cx="{_n(m.x)}" cy="{_n(m.y)}" rx="{_n(m.base.rx)}" ry="{_n(m.base.ry)}"'
            out.append(f'{shape} fill="{colour}" fill-opacity="{0.35 if u.embarked_in else 0.75}" stroke="#111" '
                       f'stroke-width="0.05"{dashed}><title>{escape(label)}</title></{shape.split()[0][1:]}>')
        first = u.models[0] if u.models else None
        if first is not None:
            out.append(f'<text x="{_n(first.x)}" y="{_n(first.y + first.base.ry + Fraction(3, 5))}" font-size="0.55" '
                       f'text-anchor="middle" fill="{colour}">{escape(u.name)}</text>')
    return out


def _moves(table: Table, sid: str) -> list[str]:
    """Each move as an arrow ending in a dashed outline of the base (when the mover is on the table)."""
    out = []
    for mid, path in table.moves.items():
        pts = " ".join(f"{_n(p[0])},{_n(p[1])}" for p in path)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#222" stroke-width="0.08" '
                   f'marker-end="url(#arrow-{sid})"><title>move of {escape(mid)}</title></polyline>')
        end = path[-1]
        try:
            base = table.model(mid).base
            out.append(f'<circle cx="{_n(end[0])}" cy="{_n(end[1])}" r="{_n(base.rx)}" fill="none" stroke="#222" '
                       'stroke-width="0.05" stroke-dasharray="0.2 0.12"/>')
        except Exception:
            pass
    return out
