"""A table's page through an outage: the network cut in Chromium (`set_offline`), the browser
closed and opened again with no network, then the network back (static/js/offline.js, its
service worker in scoring/install.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Deal, DealAction, DealStatus, DealVersion
from tests.support.browser import (
    CHROMIUM,
    PageProblems,
    cut_network,
    enter_offline_deal,
    ready_offline,
    shoot,
)
from tests.support.events import seated_event
from tournaments.services import table_key_revoke

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


class Phone:
    """A phone whose browser keeps its storage (its service worker, its cache and its
    IndexedDB) when it is closed and opened again, as a real phone's does."""

    def __init__(self, browser_type, folder, problems: PageProblems) -> None:
        self.browser_type, self.folder, self.problems = browser_type, folder, problems
        self.context = self.page = None

    def open(self, *, offline: bool = False):
        self.context = self.browser_type.launch_persistent_context(
            str(self.folder),
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            viewport={"width": 390, "height": 844},
            locale="en-GB",
        )
        self.context.set_offline(offline)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.problems.watch(self.page)
        return self.page

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def keeping_phone(browser, tmp_path):
    phone = Phone(browser.browser_type, tmp_path / "profile", browser.problems)
    yield phone
    if phone.context is not None:
        phone.context.close()


def test_two_deals_entered_offline_survive_a_closed_browser_and_land_once_in_order(
    live_server, keeping_phone, browser
):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}{table.get_entry_url()}"
    page = keeping_phone.open()
    page.goto(url)
    page.locator("button[name=seat]").first.click()
    # Seated before the network goes (the seat pick shows the bar, online, too).
    expect(page.locator("h2.deal-title")).to_have_text("Deal 1")
    bar = page.locator("#offline")
    expect(bar).to_contain_text("Online")
    ready_offline(page)
    # What the phone keeps: this table's page and the site's files, nothing of another table.
    kept = page.evaluate(
        "async () => { const urls = []; for (const name of await caches.keys()) {"
        " for (const request of await (await caches.open(name)).keys()) urls.push(request.url); }"
        " return urls; }"
    )
    paths = {url.removeprefix(live_server.url) for url in kept}
    assert table.get_entry_url() in paths
    assert {path for path in paths if not path.startswith("/static/")} == {table.get_entry_url()}

    cut_network(page)
    enter_offline_deal(page, 1)
    expect(bar).to_contain_text("Waiting to send: 1.")
    expect(bar).to_contain_text("No network")
    enter_offline_deal(page, 2)
    expect(bar).to_contain_text("Waiting to send: 2.")
    expect(page.locator("h2.deal-title")).to_have_text("Deal 3")
    # Typed while offline, the check says it waits for the network, not an old verdict.
    page.locator("input[name=p1_cards]").evaluate(
        "f => { f.value = 'AS'; f.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    expect(page.locator("#check")).to_contain_text("checked when it is sent")
    shoot(page, "offline-two-deals-waiting")
    assert not Deal.objects.filter(table=table).exists()

    # Closed, and opened again from the home screen with still no network.
    keeping_phone.close()
    page = keeping_phone.open(offline=True)
    page.goto(url)
    bar = page.locator("#offline")
    expect(bar).to_contain_text("Waiting to send: 2.")
    # The copy the worker kept, not the server's page.
    expect(bar).to_have_attribute("data-source", "kept")
    expect(page.locator("#offline .queue li")).to_have_count(2)
    expect(page.locator("#offline .queue li").first).to_contain_text("Deal 1")
    assert not Deal.objects.filter(table=table).exists()

    keeping_phone.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Deal 2 saved", timeout=20_000)
    expect(bar).not_to_contain_text("Waiting to send")
    shoot(page, "offline-two-deals-sent")
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [deal.number for deal in deals] == [1, 2]
    assert [deal.version for deal in deals] == [1, 1]
    versions = DealVersion.objects.filter(deal__table=table, action=DealAction.SUBMIT)
    assert versions.count() == 2
    # Recorded in order: deal 1 first.
    assert [v.deal.number for v in versions.order_by("pk")] == [1, 2]

    # Another phone at the table confirms both.
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.goto(url)
    other.locator("button[name=seat]").nth(1).click()
    for number in (1, 2):
        other.get_by_role("button", name=f"Confirm deal {number}").click()
        expect(other.locator(".messages")).to_contain_text(f"Deal {number} confirmed.")
    assert set(Deal.objects.filter(table=table).values_list("status", flat=True)) == {
        DealStatus.CONFIRMED
    }


def _deal_one_queued(live_server, keeping_phone):
    """A table whose phone, seated while online, entered deal 1 with no network."""
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}{table.get_entry_url()}"
    page = keeping_phone.open()
    page.goto(url)
    page.locator("button[name=seat]").first.click()
    expect(page.locator("h2.deal-title")).to_have_text("Deal 1")  # seated while online
    ready_offline(page)
    cut_network(page)
    enter_offline_deal(page, 1)
    expect(page.locator("#offline")).to_contain_text("Waiting to send: 1.")
    return table, url, page


def test_a_deal_changed_meanwhile_comes_back_as_the_conflict_screen(
    live_server, keeping_phone, browser
):
    table, url, page = _deal_one_queued(live_server, keeping_phone)
    # Meanwhile another phone, online, enters deal 1 differently.
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.goto(url)
    other.locator("button[name=seat]").nth(2).click()
    enter_offline_deal(other, 1)
    expect(other.locator(".messages")).to_contain_text("Deal 1 saved")

    keeping_phone.context.set_offline(False)
    expect(page.get_by_role("heading", name="Someone saved this deal first")).to_be_visible(
        timeout=20_000
    )
    expect(page.locator(".compare")).to_contain_text("Saved now")
    expect(page.locator("#offline .queue li")).to_contain_text("changed on another phone")
    shoot(page, "offline-conflict")
    assert Deal.objects.get(table=table, number=1).version == 1


def test_a_revoked_link_refuses_the_queued_deal_and_says_so(live_server, keeping_phone):
    table, _url, page = _deal_one_queued(live_server, keeping_phone)
    table_key_revoke(table=table)
    keeping_phone.context.set_offline(False)
    expect(page.get_by_role("heading", name="This link no longer works")).to_be_visible(
        timeout=20_000
    )
    item = page.locator("#offline .queue li")
    expect(item).to_contain_text("link no longer works")
    # What was typed is shown, to hand to the director.
    expect(item.locator(".typed")).to_contain_text("AS KD")
    shoot(page, "offline-revoked")
    assert not Deal.objects.filter(table=table).exists()


def test_a_confirmation_made_offline_waits_and_lands_once(live_server, keeping_phone, browser):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}{table.get_entry_url()}"
    entering = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    entering.goto(url)
    entering.locator("button[name=seat]").first.click()
    enter_offline_deal(entering, 1)
    expect(entering.locator(".messages")).to_contain_text("Deal 1 saved")

    page = keeping_phone.open()
    page.goto(url)
    page.locator("button[name=seat]").nth(1).click()
    confirm = page.get_by_role("button", name="Confirm deal 1")
    expect(confirm).to_be_visible()
    ready_offline(page)
    cut_network(page)
    confirm.click()
    bar = page.locator("#offline")
    expect(bar).to_contain_text("Confirmation of deal 1: waiting to send")
    # Queued once: the button is not offered again.
    expect(page.get_by_role("button", name="Confirm deal 1")).to_be_hidden()
    shoot(page, "offline-confirmation-waiting")
    assert not Deal.objects.get(table=table).is_confirmed

    keeping_phone.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Deal 1 confirmed.", timeout=20_000)
    deal = Deal.objects.get(table=table)
    assert deal.is_confirmed
    assert DealVersion.objects.filter(deal=deal, action=DealAction.CONFIRM).count() == 1


def test_the_totals_say_which_deals_they_leave_out_while_some_wait(live_server, keeping_phone):
    _table, _url, page = _deal_one_queued(live_server, keeping_phone)
    totals = page.locator("#table-live")
    expect(totals).to_contain_text("These totals leave out deals waiting to be sent: 1.")
    enter_offline_deal(page, 2)
    expect(totals).to_contain_text("These totals leave out deals waiting to be sent: 2.")
    shoot(page, "offline-totals-leave-out")
    keeping_phone.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Deal 2 saved", timeout=20_000)
    expect(page.locator("#table-live")).not_to_contain_text("leave out deals")
