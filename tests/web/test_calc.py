"""The calculator: GET form → rulekb.engine.calc, results table, SVG charts, two editions, errors, the API twin."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

from flask.testing import FlaskClient

from rulekb.webapp.views.calc import FIELDS, profile_from_args

SHARE = {
    "edition": "10", "compare": "6", "attackers": "5", "attacks": "2", "skill": "3", "skill_old": "4",
    "strength": "4", "ap": "-1", "ap_old": "4", "damage": "1", "models": "5", "toughness": "4", "save": "3",
    "wounds": "2",
}


def test_empty_form_shows_every_field_and_no_result(client: FlaskClient) -> None:
    html = client.get("/calc").get_data(as_text=True)
    assert '<form class="calc-form" action="/calc" method="get">' in html
    for field in FIELDS:
        assert f'name="{field.name}"' in html, field.name
    assert 'name="ability" value="lethal-hits"' in html
    assert "<svg" not in html


def test_result_is_engine_calc_on_the_profile_from_the_url(client: FlaskClient) -> None:
    from werkzeug.datastructures import MultiDict

    from rulekb.engine.calc import calculate

    args = MultiDict({**SHARE, "compare": ""})
    args.add("ability", "lethal-hits")
    expected = calculate(profile_from_args(args))
    html = client.get("/calc", query_string=args).get_data(as_text=True)
    exact = re.findall(r'<th scope="row">Попадания</th><td title="([^"]+)"', html)
    assert exact == [expected["expected_exact"]["hits"]]
    assert Fraction(expected["expected_exact"]["critical_hits"]) > 0
    assert 'value="lethal-hits" checked' in html  # the inputs survive in the form


def test_charts_draw_the_exact_distributions(client: FlaskClient) -> None:
    from rulekb.engine.calc import calculate

    expected = calculate(profile_from_args({**SHARE, "compare": ""}))
    html = client.get("/calc", query_string={**SHARE, "compare": ""}).get_data(as_text=True)
    svgs = re.findall(r"<svg.*?</svg>", html, flags=re.S)
    assert len(svgs) == 4  # hits, wounds, damage, models destroyed
    hits_svg = ET.fromstring(svgs[0])
    bars = hits_svg.findall(".//{http://www.w3.org/2000/svg}rect")
    assert len(bars) == len(expected["distributions"]["hits"])
    titles = [t.text for t in hits_svg.iter("{http://www.w3.org/2000/svg}title")][1:]
    for (k, p), title in zip(expected["distributions"]["hits"], titles, strict=True):
        assert title is not None and title.startswith(f"{k}: {p} ≈")


def test_two_editions_side_by_side(client: FlaskClient) -> None:
    html = client.get("/calc", query_string=SHARE).get_data(as_text=True)
    results = re.findall(r'<section class="card result" aria-label="([^"]+)">', html)
    assert results == ["10-я редакция", "6-я редакция"]
    assert 'class="calc-results two"' in html


def test_bad_input_is_a_400_with_the_field_named(client: FlaskClient) -> None:
    response = client.get("/calc", query_string={**SHARE, "attacks": "lots"})
    assert response.status_code == 400
    assert "Атаки (A)" in response.get_data(as_text=True)
    engine_says = client.get("/calc", query_string={**SHARE, "compare": "", "edition": "6", "melee": "1", "defender_ws": ""})
    assert engine_says.status_code in (200, 400)  # a default WS fills in; never a server error


def test_api_calc_get_and_post_agree(client: FlaskClient) -> None:
    got = client.get("/api/calc", query_string={**SHARE, "compare": ""}).get_json()
    posted = client.post("/api/calc", json=profile_from_args({**SHARE, "compare": ""})).get_json()
    assert got == posted
    assert set(got["expected"]) >= {
        "attacks", "hits", "critical_hits", "wounds", "critical_wounds", "unsaved", "mortal_wounds", "damage",
        "models_destroyed",
    }
    assert sum(Fraction(p) for _, p in got["distributions"]["damage"]) == 1


def test_api_calc_errors_are_json(client: FlaskClient) -> None:
    bad = client.post("/api/calc", json={"edition": "10", "weapon": {"bogus": 1}})
    assert bad.status_code == 400 and "weapon.bogus" in bad.get_json()["error"]
    not_json = client.post("/api/calc", data="edition=10", content_type="application/x-www-form-urlencoded")
    assert not_json.status_code == 400 and not_json.is_json
