"""Two phones at a table: seats taken, a deal entered on one and confirmed on the other, the
next deal's form on both, all without loading the page again (the page's script sends each
and swaps in the main part it is answered with, static/js/offline.js); and a deal entered
with no network still goes once the network is back, swapped in the same way."""

from __future__ import annotations

from playwright.sync_api import expect

from scoring.models import Deal
from tests.support.browser import cut_network, enter_offline_deal, ready_offline, shoot_widths
from tests.support.events import seated_event
from tests.support.waiting import wait_until

# Set once the page is open; a page loaded again (a navigation) has lost it.
MARK = "() => { window.lappuStayed = 'yes'; }"
STAYED = "() => window.lappuStayed === 'yes'"


def _phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _documents(page) -> list[str]:
    """The whole pages the phone loads from here on (its polls and parts are not)."""
    loaded: list[str] = []
    page.on("request", lambda r: loaded.append(r.url) if r.resource_type == "document" else None)
    return loaded


def test_a_deal_entered_and_confirmed_on_two_phones_loads_no_page_again(live_server, browser):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}{table.get_entry_url()}"
    first, second = _phone(browser), _phone(browser)
    loads = []
    for phone, seat in ((first, 0), (second, 1)):
        phone.goto(url)
        phone.evaluate(MARK)
        loads.append(_documents(phone))
        phone.locator("button[name=seat]").nth(seat).click()
        expect(phone.locator("h2.deal-title")).to_have_text("Deal 1")
        assert phone.evaluate(STAYED)
        assert phone.url == url

    ready_offline(first)
    enter_offline_deal(first, 1)
    saved = first.locator("#table-main .messages")
    expect(saved).to_have_text("Deal 1 saved. Someone at another seat confirms it.")
    expect(saved).to_be_focused()
    expect(first.locator(".pending")).to_contain_text("Deal 1 waits for confirmation.")
    assert Deal.objects.filter(table=table).count() == 1
    shoot_widths(first, "table-swap-saved")
    # The copy its worker keeps for a visit with no network shows the part swapped in.
    copy = (
        "async () => (await (await caches.match(document.getElementById('offline')"
        ".dataset.page)).text())"
    )

    def kept_with_the_deal() -> str:
        kept = first.evaluate(copy)
        return kept if "Deal 1 waits for confirmation." in kept else ""

    # (The worker writes it when it gets to the page's message.)
    kept = wait_until(
        kept_with_the_deal,
        timeout=5,
        what="the kept copy to show the deal waiting",
        interval=0.1,
    )
    assert 'data-source="kept"' in kept

    confirm = second.get_by_role("button", name="Confirm deal 1")
    expect(confirm).to_be_visible(timeout=12_000)  # the table's poll, every 5 s
    shoot_widths(second, "table-swap-confirm")
    confirm.click()
    expect(second.locator("#table-main .messages")).to_have_text("Deal 1 confirmed.")
    expect(second.locator("h2.deal-title")).to_have_text("Deal 2")
    assert Deal.objects.get(table=table).is_confirmed

    # The phone that entered it had no form while the deal waited: its poll sees the deal
    # confirmed and it asks for the table's part, with deal 2's form.
    expect(first.locator("h2.deal-title")).to_have_text("Deal 2", timeout=12_000)
    expect(first.locator("form.entry input[name=number]")).to_have_value("2")
    shoot_widths(first, "table-swap-next-deal")
    for phone, loaded in zip((first, second), loads, strict=True):
        assert phone.evaluate(STAYED), "the page was loaded again"
        assert loaded == [], loaded
        assert phone.url == url


def test_a_deal_saved_with_no_network_is_sent_and_swapped_in(live_server, browser):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}{table.get_entry_url()}"
    phone = _phone(browser)
    phone.goto(url)
    phone.locator("button[name=seat]").first.click()
    expect(phone.locator("h2.deal-title")).to_have_text("Deal 1")
    bar = phone.locator("#offline")
    ready_offline(phone)

    cut_network(phone)
    enter_offline_deal(phone, 1)
    expect(bar).to_contain_text("Waiting to send: 1.")
    # The page the worker kept was a seat pick; the seat's part was spliced into it, so the
    # copy shown with no network is the table's, its form turned to the next deal.
    expect(phone.locator("h2.deal-title")).to_have_text("Deal 2")
    assert not Deal.objects.filter(table=table).exists()
    phone.evaluate(MARK)
    loaded = _documents(phone)

    # Back online, the page sends what waits by itself (its "online" listener): a click on
    # "Send now" here would race that send, the button hidden as soon as the queue empties.
    phone.context.set_offline(False)
    expect(phone.locator(".pending")).to_contain_text("Deal 1 waits for confirmation.")
    expect(bar).not_to_contain_text("Waiting to send")
    assert Deal.objects.filter(table=table).count() == 1
    assert phone.evaluate(STAYED), "the page was loaded again"
    assert loaded == [], loaded


def test_a_refused_deal_shows_its_errors_in_place(live_server, phone):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}{table.get_entry_url()}"
    phone.goto(url)
    phone.locator("button[name=seat]").first.click()
    expect(phone.locator("h2.deal-title")).to_have_text("Deal 1")
    phone.evaluate(MARK)
    loaded = _documents(phone)
    phone.locator("input[name=out][value='0']").check(force=True)
    phone.locator("input[name=p1_cards]").evaluate(
        "f => { f.value = 'AS KZ'; f.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    with phone.expect_response(
        lambda r: r.request.method == "POST" and "/deals/1/" in r.url
    ) as sent:
        phone.get_by_role("button", name="Submit").click()
    assert sent.value.status == 422
    error = phone.locator("#table-main .field-errors .error", has_text="KZ")
    expect(error).to_be_visible()
    expect(error).to_be_focused()  # said first, its hand open
    shoot_widths(phone, "table-swap-refused")
    expect(phone.locator("input[name=p1_cards]")).to_have_value("AS KZ")
    assert not Deal.objects.filter(table=table).exists()
    assert phone.evaluate(STAYED) and loaded == [] and phone.url == url
