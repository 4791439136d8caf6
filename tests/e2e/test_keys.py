"""The card grid with the keyboard and screen readers, and the site's pages at 200 % zoom on
a phone (a 390 px phone at 200 % is a 195 CSS px wide page)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import shoot, sign_in
from tests.e2e.test_player_record import play
from tests.factories import ClubFactory, MembershipFactory
from tests.scoring.conftest import seated_event
from tournaments.models import EventFormat, Player, Role
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw


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


@pytest.mark.parametrize("variant_id, players", [("gin_romi", 2), ("tizlapos_romi", 3)])
def test_the_grid_at_200_percent_zoom_on_a_phone(live_server, browser, variant_id, players):
    # A 390 px phone at 200 % is 195 CSS px wide: the keys wrap a suit's row rather than
    # shrink, at least 24 px each, their labels inside them, the page not scrolling sideways.
    _table, page = _seated_phone(browser, live_server, variant_id, players, width=195)
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.card-grid button.card')]
             .filter((key) => key.offsetWidth).map((key) => {
               const box = key.getBoundingClientRect();
               const labels = [...key.children].map((span) => span.getBoundingClientRect());
               return {width: box.width, height: box.height, fits: labels.every((label) =>
                 label.left >= box.left && label.right <= box.right + 0.5)};
             })"""
    )
    assert len(sizes) >= 52
    assert min(size["width"] for size in sizes) >= 24, sizes
    assert min(size["height"] for size in sizes) >= 24, sizes
    assert all(size["fits"] for size in sizes), sizes
    # Every suit starts a row of its own.
    lefts = page.evaluate(
        """() => [...document.querySelector('.fold.open .card-grid').children]
             .filter((key, index) => index % 13 === 0)
             .map((key) => key.getBoundingClientRect().left)"""
    )
    assert len(set(lefts)) == 1, lefts
    assert page.evaluate("document.documentElement.scrollWidth") <= 195
    shoot(page, f"keys-{variant_id}-195px")


# -- no page scrolls sideways at 200 % zoom ---------------------------------------------------

# What sticks out of a page wider than its window: each such element's tag, class and right
# edge, for the failure message.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const scroller = (element) => {
    for (let up = element.parentElement; up; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const wide = [...document.body.querySelectorAll('*')].filter((element) =>
    element.getBoundingClientRect().right > width + 0.5 && !scroller(element));
  return {scroll: document.documentElement.scrollWidth, width,
          wide: wide.slice(0, 8).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)};
}"""


def _championship(language: str):
    club = ClubFactory(language=language, name="Pohjois-Helsingin Korttikerho")
    director = MembershipFactory(club=club, role=Role.DIRECTOR, user__username="dora").user
    director.set_password("dora")
    director.save()
    event = event_create(
        published=True,
        club=club,
        name="Räväytyksen seuramestaruuskilpailu",
        date=datetime.date(2026, 12, 5),
        variant_id="ravaytys",
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
    )
    players = [
        Player.objects.create(club=club, name=name)
        for name in ["Aleksanteri Kivimäki-Häkkinen", *(f"Player {n:03d}" for n in range(7))]
    ]
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=7)
    stage_confirm(stage=stage)
    one, two = stage.tables.order_by("number")
    play(one, 1, out=0, ravaytys=True)
    play(two, 1, out=1)
    return club, event, players[0]


@pytest.mark.parametrize("language", ["fi", "hu", "en"])
def test_no_page_scrolls_sideways_on_a_phone_at_200_percent(live_server, browser, language):
    club, event, player = _championship(language)
    base = live_server.url
    pages = {
        "sign-in": "/accounts/login/",
        "club": club.get_absolute_url(),
        "event": event.get_absolute_url(),
        "player": reverse("player_record", kwargs={"slug": club.slug, "player_id": player.pk}),
        "manage": reverse("event_manage", kwargs={"slug": club.slug, "event_id": event.pk}),
        "new-event": reverse("event_new", kwargs={"slug": club.slug}),
    }
    wide = []
    for width in (195, 390):
        context = browser.new_context(viewport={"width": width, "height": 844}, locale=language)
        page = context.new_page()
        for name, path in pages.items():
            if name == "manage":
                sign_in(page, base, "dora", "dora")
            page.goto(base + path)
            expect(page.locator("main")).to_be_visible()
            found = page.evaluate(OVERFLOW)
            if width == 195:
                shoot(page, f"zoom-{language}-{name}")
            if found["scroll"] > found["width"]:
                wide.append((name, width, found))
        context.close()
    assert not wide, "\n".join(map(str, wide))
