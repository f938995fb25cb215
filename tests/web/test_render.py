"""Rendering: accidental Markdown neutralised, lists kept, no raw HTML, terms and references linked,
and the SVG distribution chart."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from rulekb.webapp.render import (
    MD,
    RenderContext,
    TermMatcher,
    TermSense,
    bar_chart_svg,
    number,
    percent,
    render_text,
)


def test_there_is_one_commonmark_instance_with_html_off() -> None:
    assert MD.options["html"] is False
    assert "<b>" not in MD.render("<b>x</b>")


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        ("есть знамя* (banner)\n* Знамя — любое снаряжение", "знамя*", "<em>"),
        ("**не жирный** и _не курсив_", "**не жирный** и _не курсив_", "<strong>"),
        ("[ОДИН ВЫПУСК](http://evil.example) оружие", "[ОДИН ВЫПУСК](http://evil.example)", "<a "),
        ("# не заголовок", "# не заголовок", "<h1>"),
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;", "<script>"),
        ("AT&amp;T и &copy;", "&amp;amp;T и &amp;copy;", "©"),
        ("    отступ не код", "отступ не код", "<code>"),
        ("`не код`", "`не код`", "<code>"),
        ("---", "---", "<hr"),
        ("2000. год не список", "2000. год не список", "<ol"),
        ("> не цитата", "&gt; не цитата", "<blockquote>"),
        ("+ не пункт", "+ не пункт", "<ul>"),
    ],
)
def test_accidental_markup_stays_text(text: str, wanted: str, unwanted: str) -> None:
    html = str(render_text(text))
    assert wanted in html
    assert unwanted not in html


def test_bullets_dashes_and_numbers_are_lists() -> None:
    html = str(render_text("Вступление.\n• первый\n• второй\n- третий\n1.Выберете бой\n2. Проведите атаки"))
    assert html.count("<li>") == 5
    assert "<ul>" in html and "<ol>" in html
    assert "<p>Вступление.</p>" in html


def test_an_ordered_list_keeps_its_first_number() -> None:
    assert '<ol start="2">' in str(render_text("2. Совершайте атаки ближнего боя."))


def test_each_line_is_its_own_paragraph() -> None:
    assert str(render_text("Первое.\nВторое.")).count("<p>") == 2


def _context(**overrides: object) -> RenderContext:
    senses = {
        "hit-roll": TermSense(
            "hit-roll", "Hit roll", "Бросок на попадание", {"10e-core": [("Ударная калитка", "mistranslation")]}
        )
    }
    ctx = RenderContext(
        source_id="10e-core",
        senses=senses,
        matcher=TermMatcher([("бросок на попадание", "hit-roll"), ("ударная калитка", "hit-roll")]),
        concept_url="/concepts/",
    )
    for key, value in overrides.items():
        setattr(ctx, key, value)
    return ctx


def test_terms_are_linked_in_any_inflection_with_an_explanation() -> None:
    text = "Сделайте броски на попадание. Затем «ударной калитки» нет."
    html = str(render_text(text, _context(link_every=True)))
    assert html.count('class="term-link" href="/concepts/hit-roll"') == 2
    assert ">броски на попадание</a>" in html and ">ударной калитки</a>" in html
    first_only = str(render_text(text, _context()))
    assert first_only.count("term-link") == 1
    tip = re.search(r'<span class="term-tip" role="tooltip" id="(tip-\d+)">(.*?)</span></span>', html)
    assert tip is not None
    assert f'aria-describedby="{tip.group(1)}"' in html
    assert "Бросок на попадание" in tip.group(2)  # the definition
    assert "«Ударная калитка» <em>(ошибка перевода)</em>" in tip.group(2)  # this book's rendering and status


def test_term_tooltips_escape_their_data() -> None:
    ctx = _context(senses={"hit-roll": TermSense("hit-roll", "<img src=x>", "a & b <script>", {})})
    html = str(render_text("бросок на попадание", ctx))
    assert "<img" not in html and "<script>" not in html
    assert "&lt;img src=x&gt;" in html and "a &amp; b &lt;script&gt;" in html


def test_references_become_links_and_beat_terms() -> None:
    ctx = _context(xrefs={"см. стр. 27": "/rules/6e-assault/mnogostoronniy-boy"})
    html = str(render_text("описывается на (см.  стр. 27) ниже", ctx))
    assert '<a class="xref" href="/rules/6e-assault/mnogostoronniy-boy">см.  стр. 27</a>' in html


def test_a_term_inside_a_reference_is_not_linked_twice() -> None:
    ctx = _context(xrefs={"см. «Бросок на попадание»": "/rules/x"})
    html = str(render_text("(см. «Бросок на попадание») и бросок на попадание", ctx))
    assert html.count('class="xref"') == 1
    assert html.count("term-link") == 1  # only the second, free-standing mention
    assert "<a" not in html.split('class="xref"')[1].split("</a>")[0]


def test_chart_is_valid_svg_with_one_bar_per_value_and_exact_titles() -> None:
    dist = [[0, "1/36"], [1, "10/36"], [2, "25/36"]]
    svg = str(bar_chart_svg(dist, "Попадания <2D6>", x_label="попадания"))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    rects = root.findall(f".//{ns}rect")
    assert len(rects) == 3
    heights = [float(r.get("height", "0")) for r in rects]
    assert heights[2] > heights[1] > heights[0]  # drawn to scale
    assert heights[1] / heights[2] == pytest.approx(10 / 25, rel=0.02)
    titles = [t.text or "" for t in root.iter(f"{ns}title")]
    assert "Попадания <2D6>" in titles  # escaped in the markup, intact in the tree
    assert any("25/36" in t and "69,4" in t for t in titles)
    assert root.get("role") == "img"
    assert "style=" not in svg and "<script" not in svg


def test_chart_folds_a_long_tail_and_handles_empty_input() -> None:
    dist = [[k, str(Fraction(1, 60))] for k in range(60)]
    root = ET.fromstring(str(bar_chart_svg(dist, "tail")))
    assert len(root.findall(".//{http://www.w3.org/2000/svg}rect")) == 40
    assert str(bar_chart_svg([], "empty")) == ""


def test_numbers_and_percentages_are_russian_formatted() -> None:
    assert percent("1/6") == "16,7\u00a0%"
    assert percent("1/60466176") == "<\u00a00,1\u00a0%"
    assert percent("0") == "0,0\u00a0%" and percent(1) == "100,0\u00a0%"
    assert percent("9999/10000") == ">\u00a099,9\u00a0%"
    assert number("7/3") == "2,33"
    assert number(2.5) == "2,5"
    assert number("4") == "4"


def test_chart_titles_with_tiny_probabilities_stay_well_formed() -> None:
    svg = str(bar_chart_svg([[0, "1/100000"], [1, "99999/100000"]], "tiny"))
    titles = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}title")]
    assert "0: 1/100000 ≈ <\u00a00,1\u00a0%" in titles


def test_kb_snippets_are_parsed_not_trusted() -> None:
    from rulekb.webapp.views.search import marked_snippet

    html = str(marked_snippet('…в 12&quot; от <b>нападающего</b> <i>x</i> <b>&lt;script&gt;</b>…'))
    assert html == "…в 12&#34; от <mark>нападающего</mark> &lt;i&gt;x&lt;/i&gt; <mark>&lt;script&gt;</mark>…"
