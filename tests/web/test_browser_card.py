"""The answer card in headless Chromium on a phone (360×640): a yes/no question, a terminology
question, a comparison, and an unmarked question with a card per edition, the chosen one first."""

from __future__ import annotations

from typing import Any

from . import test_browser as shared

# the browser fixtures of test_browser.py, shared (pytest finds fixtures by module attribute)
chromium_path = shared.chromium_path
live_app = shared.live_app
base_url = shared.base_url
browser = shared.browser
phone = shared.phone
_shot = shared._shot

NO_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth + 1"


def ask(page: Any, question: str) -> Any:
    page.goto("/")
    page.fill("#q", question)
    page.click("form.search button[type=submit]")
    page.wait_for_selector(".answer-card")
    assert page.evaluate(NO_SCROLL), "the card scrolls sideways on a phone"
    return page.locator(".answer-card")


def test_yes_no_question_leads_with_yes_or_no(phone: Any) -> None:
    card = ask(phone, "можно ли стрелять после рывка в десятке")
    assert card.get_attribute("data-kind") == "ruling"
    text = card.locator(".answer-text").first.inner_text()
    assert text.startswith(("Да", "Нет")), text
    assert card.locator(".card-cites a").count() >= 1
    _shot(phone, "card-yesno")


def test_terminology_question_lists_renderings_per_book(phone: Any) -> None:
    card = ask(phone, "Как в этом переводе назван pile in?")
    assert card.get_attribute("data-kind") == "terminology"
    assert card.get_attribute("data-source") == "termbase"
    assert card.locator(".answer-part").count() >= 2  # the 10th and the 6th edition books
    assert "«" in card.inner_text()
    _shot(phone, "card-terminology")


def test_comparison_shows_each_edition_and_what_changed(phone: Any) -> None:
    card = ask(phone, "Чем отличается консолидация в 6-й и 10-й?")
    assert card.get_attribute("data-kind") == "comparison"
    editions = [p.get_attribute("data-edition") for p in card.locator(".answer-part").all()]
    assert {"6", "10"} <= set(editions)
    _shot(phone, "card-comparison")


def test_unmarked_question_puts_the_chosen_edition_first(phone: Any) -> None:
    phone.goto("/")
    phone.select_option("#play", "6")
    phone.fill("#q", "дальность чарджа")
    phone.click("form.search button[type=submit]")
    phone.wait_for_selector(".answer-card")
    card = phone.locator(".answer-card")
    editions = [p.get_attribute("data-edition") for p in card.locator(".answer-part").all()]
    assert len(editions) >= 2 and editions[0] == "6", editions
    assert "вы играете" in card.inner_text()
    # the choice is kept: the next question without ?play= still leads with the 6th
    phone.goto("/search?q=" + "дальность чарджа")
    editions = [p.get_attribute("data-edition") for p in phone.locator(".answer-card .answer-part").all()]
    assert editions[0] == "6", editions
    assert phone.evaluate(NO_SCROLL)
    _shot(phone, "card-per-edition")
