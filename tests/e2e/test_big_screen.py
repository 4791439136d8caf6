"""The big screen on a 1920x1080 projector: never a scrollbar, long lists paged by themselves."""

from __future__ import annotations

import math

import pytest

from tests.support.browser import shoot
from tests.support.events import seated_event
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of, play
from tournaments.models import Event, EventFormat, Player
from tournaments.services import event_publish

NO_SCROLL = (
    "() => [document.documentElement.scrollHeight, window.innerHeight,"
    " document.documentElement.scrollWidth, window.innerWidth]"
)
VISIBLE_NAMES = (
    "() => Array.from(document.querySelectorAll('#screen-rows > li'))"
    ".filter(li => li.offsetParent !== null).map(li => li.querySelector('.name').textContent)"
)
FITS = (
    "() => { const list = document.querySelector('#screen-rows');"
    " const shown = Array.from(list.children).filter(li => li.offsetParent !== null);"
    " return shown[shown.length - 1].getBoundingClientRect().bottom"
    " <= list.getBoundingClientRect().bottom + 1; }"
)


def _screen_event(players: int):
    event, _tables = seated_event(variant_id="rutupeli", players=players)
    event_publish(event=event, published=True)
    return event


def _no_scrollbar(page) -> None:
    height, inner_height, width, inner_width = page.evaluate(NO_SCROLL)
    assert height <= inner_height, (height, inner_height)
    assert width <= inner_width, (width, inner_width)


def test_the_big_screen_fits_1080p_and_pages_through_the_standings(live_server, browser):
    event = _screen_event(120)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/screen/live/" in r.url else None)
    sent: list[str | None] = []
    page.on(
        "request",
        lambda r: sent.append(r.headers.get("if-none-match")) if "/screen/live/" in r.url else None,
    )
    page.clock.install()
    page.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/screen/")
    said = page.locator("#screen-live").get_attribute("data-poll-tag")
    page.wait_for_function("() => document.querySelector('#screen-rows').dataset.pages")
    shoot(page, "big-screen-1080p")
    _no_scrollbar(page)
    first = page.evaluate(VISIBLE_NAMES)
    assert 8 <= len(first) < 120, len(first)  # large type: a page holds a dozen or so
    assert page.evaluate(FITS)
    pages = math.ceil(120 / len(first))
    label = page.locator('[data-page-of="screen-rows"]').text_content()
    assert label == f"Page 1 of {pages}"

    page.clock.run_for(8_500)  # the next page comes by itself
    second = page.evaluate(VISIBLE_NAMES)
    assert second and not set(second) & set(first)
    assert page.locator('[data-page-of="screen-rows"]').text_content() == f"Page 2 of {pages}"
    _no_scrollbar(page)

    # The live part refreshes (10 s): the page stays where it was.
    with page.expect_response(lambda r: "/screen/live/" in r.url):
        page.clock.run_for(2_000)
    assert page.evaluate(VISIBLE_NAMES) == second
    shoot(page, "big-screen-1080p-page-2")
    # The next poll sends its ETag: nothing new, a 304.
    with page.expect_response(lambda r: "/screen/live/" in r.url):
        page.clock.run_for(10_000)
    # The page said its live part's tag, so its first poll asked with it too (and a server
    # shedding spectators' polls answers it 304, not 503).
    assert said and sent[:2] == [said, said], (said, sent)
    assert polls[:2] == [304, 304], polls
    assert page.locator("#screen-rows > li").count() == 120  # the 304 kept what was shown
    _no_scrollbar(page)
    context.close()


def test_without_script_the_big_screen_shows_its_first_page(live_server, browser):
    event = _screen_event(120)
    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="en-GB", java_script_enabled=False
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/screen/")
    _no_scrollbar(page)
    shown = page.evaluate(VISIBLE_NAMES)
    assert len(shown) == 14
    assert page.evaluate(FITS)
    shoot(page, "big-screen-1080p-no-script")
    context.close()


# Each page of rows as the screen shows it: every visible row whole inside the list and the
# window, gathered page by page as the clock flips them.
PAGE_ROWS = (
    "() => { const list = document.querySelector('#screen-rows');"
    " const bottom = Math.min(list.getBoundingClientRect().bottom, window.innerHeight);"
    " return Array.from(list.children).filter(li => li.offsetParent !== null)"
    ".map(li => [li.querySelector('.name').textContent,"
    " li.getBoundingClientRect().bottom <= bottom + 1]); }"
)
# Whether an element's text is shown whole: not cut by its box nor by the window's edge.
WHOLE = (
    "el => el.scrollWidth <= el.clientWidth + 1"
    " && el.getBoundingClientRect().right <= window.innerWidth + 1"
    " && el.getBoundingClientRect().bottom <= window.innerHeight + 1"
)
ONE_LINE = (
    "el => { const range = document.createRange(); range.selectNodeContents(el);"
    " return new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size; }"
)
LONG_NAME = "Kristiina Väisänen-Lindqvist"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 720), (1920, 1080), (2560, 1080)])
def test_fifteen_players_page_without_a_row_cut_or_repeated(live_server, browser, width, height):
    event = _screen_event(15)
    Event.objects.filter(pk=event.pk).update(name="Joulukuun klubi-ilta Väisänen")
    Player.objects.filter(club=event.club, name="Player 014").update(name=LONG_NAME)
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/screen/")
    page.wait_for_function("() => document.querySelector('#screen-rows').dataset.pages")
    shoot(page, f"big-screen-15-{width}x{height}")
    _no_scrollbar(page)
    pages = int(page.evaluate("() => document.querySelector('#screen-rows').dataset.pages"))
    seen: list[str] = []
    for _ in range(pages):
        rows = page.evaluate(PAGE_ROWS)
        assert rows and all(whole for _name, whole in rows), rows
        seen += [name for name, _whole in rows]
        page.clock.run_for(8_500)
    assert sorted(seen) == sorted(set(seen)) and len(seen) == 15, seen
    assert page.locator("h1").evaluate(WHOLE)
    assert page.locator("[data-clock]").evaluate(ONE_LINE) == 1
    for total in page.locator("#screen-rows > li:not([hidden]) .total").all():
        assert total.evaluate(WHOLE)
    context.close()


# Hungarian's column head ("Győzelmek") is the longest of the three languages'.
@pytest.mark.parametrize(("width", "height", "locale"), [(390, 844, "hu-HU"), (1280, 720, "en-GB")])
def test_a_head_to_head_screen_shows_its_wins_whole(live_server, browser, width, height, locale):
    event = h2h_event(players=8, format=EventFormat.SWISS, rounds=3)
    stage = pair_and_confirm(event, seed=1)
    for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
        play(table, min(pair))
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/screen/")
    shoot(page, f"big-screen-h2h-{width}x{height}")
    _no_scrollbar(page)
    assert page.locator("#screen-rows .wins").first.evaluate(WHOLE)
    heads = page.locator(".screen-columns span").all()
    assert heads and all(head.evaluate(WHOLE) for head in heads)
    assert page.locator(".screen-note").evaluate(WHOLE)  # what orders the rows
    context.close()
