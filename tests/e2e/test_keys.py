"""The card grid with the keyboard and screen readers, and the site's pages at 200 % zoom on
a phone (a 390 px phone at 200 % is a 195 CSS px wide page)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import ClubFactory
from tests.scoring.conftest import seated_event


def _seated_phone(
    browser, live_server, variant_id: str, players: int, *, locale="en-GB", width=390, club=None
):
    options = {"club": club} if club else {}
    _event, tables = seated_event(variant_id=variant_id, players=players, **options)
    context = browser.new_context(viewport={"width": width, "height": 844}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{tables[0].get_entry_url()}")
    page.locator("button[name=seat]").first.click()
    expect(page.locator("form.entry.one-hand")).to_be_visible()
    return tables[0], page


CARD_NAMES = {
    "fi": {"10S": "pata 10", "AH": "hertta ässä", "JD": "ruutu jätkä", "QC": "risti rouva",
           "KS": "pata kuningas"},
    "hu": {"10S": "pikk 10", "AH": "kőr ász", "JD": "káró bubi", "QC": "treff dáma",
           "KS": "pikk király"},
    "en": {"10S": "10 of spades", "AH": "ace of hearts", "JD": "jack of diamonds",
           "QC": "queen of clubs", "KS": "king of spades"},
}  # fmt: skip
# What the keys show: Hungarian cards read B (bubi) for the jack and D (dáma) for the queen.
FACES = {"fi": "A 2 3 4 5 6 7 8 9 10 J Q K", "hu": "A 2 3 4 5 6 7 8 9 10 B D K",
         "en": "A 2 3 4 5 6 7 8 9 10 J Q K"}  # fmt: skip


@pytest.mark.parametrize("language", ["fi", "hu", "en"])
def test_the_keys_are_named_in_the_pages_language(live_server, browser, language):
    _table, page = _seated_phone(
        browser, live_server, "gin_romi", 2, locale=language, club=ClubFactory(language=language)
    )
    upper = page.locator(".card-entry[data-target=f-upper]")
    for code, name in CARD_NAMES[language].items():
        key = upper.get_by_role("button", name=name, exact=True)
        expect(key).to_have_attribute("data-card", code)
    faces = upper.locator(".card-grid button.card span:first-child").all_inner_texts()[:13]
    assert " ".join(faces) == FACES[language]
    # A tap types the engine's code whatever the face says: the Hungarian dáma is Q.
    upper.get_by_role("button", name=CARD_NAMES[language]["QC"], exact=True).click()
    expect(page.locator("#f-upper")).to_have_value("QC")
