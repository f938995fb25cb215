"""The answer card on the search page and in /api/ask, and the player's edition choice."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def card_html(page: str) -> str:
    match = re.search(r'<section class="answer card answer-card.*?</section>', page, re.S)
    assert match, "no answer card on the page"
    return match.group(0)


def test_api_ask_carries_the_card(client: FlaskClient) -> None:
    data = client.get("/api/ask", query_string={"q": "можно ли стрелять после рывка"}).get_json()
    card = data["card"]
    assert card["kind"] == "ruling" and card["text"] and card["citations"]
    assert card["played"] == "10"  # the web's default edition


def test_the_page_renders_the_card_object(client: FlaskClient) -> None:
    question = "можно ли стрелять после рывка"
    card = client.get("/api/ask", query_string={"q": question}).get_json()["card"]
    html = card_html(client.get("/search", query_string={"q": question}).get_data(as_text=True))
    assert f'data-kind="{card["kind"]}"' in html and f'data-source="{card["source"] or ""}"' in html
    first_words = re.sub(r"\s+", " ", card["per_edition"][0]["text"]).split(" ")[:3]
    assert " ".join(first_words) in re.sub(r"<[^>]+>", "", html)
    for citation in card["citations"]:
        assert f'/cite/{citation["source_id"]}/{citation["lines"][0]}"' in html


def test_the_played_edition_is_kept_in_a_cookie_and_leads_the_card(client: FlaskClient) -> None:
    question = "дальность чарджа"
    page = client.get("/search", query_string={"q": question, "play": "6"})
    cookie = page.headers.get("Set-Cookie", "")
    assert "rulekb_play=6" in cookie and "HttpOnly" in cookie
    html = card_html(page.get_data(as_text=True))
    assert "вы играете: " in html
    parts = re.findall(r'class="answer-part" data-edition="([^"]+)"', html)
    if parts:  # several editions: the player's first
        assert parts[0] == "6"
    else:
        assert 'data-edition="6"' in html
    # the cookie alone keeps the choice
    again = client.get("/search", query_string={"q": question}).get_data(as_text=True)
    assert re.search(r'<option value="6" selected>', again)
    assert "вы играете: 6-я" in card_html(again)
    api = client.get("/api/ask", query_string={"q": question}).get_json()["card"]
    assert api["played"] == "6"
    assert api["per_edition"][0]["edition"] == "6"


def test_a_bad_play_value_is_ignored(client: FlaskClient) -> None:
    page = client.get("/search", query_string={"q": "дальность чарджа", "play": "<script>"})
    assert page.status_code == 200
    assert "rulekb_play=<" not in page.headers.get("Set-Cookie", "")
    assert "<script>" not in page.get_data(as_text=True)
    assert client.get("/api/ask", query_string={"q": "дальность чарджа", "play": "zz"}).get_json()["card"]["played"] == "10"
