"""The help inside the site in a real browser: the index and a page at a phone's width and a
laptop's (tests/artifacts/help-*-390.png and -1280.png), each checked by axe, and the "?" on
a director's page landing on its section, in the reader's language."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import director_of, shoot_widths, sign_in
from tests.support.events import seated_event


def test_the_help_reads_on_a_phone_and_a_laptop(live_server, phone):
    phone.goto(live_server.url + "/")
    phone.get_by_role("navigation").get_by_role("link", name="Help", exact=True).click()
    expect(phone.get_by_role("heading", level=1, name="Help")).to_be_visible()
    shoot_widths(phone, "help-index")

    pages = phone.get_by_role("navigation", name="Help pages")
    pages.get_by_role("link", name="Running a club night").click()
    expect(phone.get_by_role("heading", level=1, name="Running a club night")).to_be_visible()
    toc = phone.get_by_role("navigation", name="On this page")
    toc.get_by_role("link", name="Check-in at the door").click()
    expect(phone.locator("#check-in")).to_be_in_viewport()
    # No page scrolls sideways on a phone.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot_widths(phone, "help-club-night")

    phone.goto(live_server.url + "/help/importing/")  # the one page with a table
    shoot_widths(phone, "help-importing")


def test_the_question_mark_on_the_manage_page_opens_its_section_in_finnish(live_server, phone):
    event, _ = seated_event(variant_id="rutupeli", players=4)
    director_of(event.club)
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/manage/")
    phone.get_by_label("Language").select_option("fi")
    phone.wait_for_url("**/manage/")
    question = phone.get_by_role("link", name="Ohje: Pöytien arvonta")
    # Seen as a round "?", heard as what it opens.
    expect(question.locator("[aria-hidden=true]")).to_have_text("?")
    box = question.bounding_box()
    assert box and 24 <= box["width"] <= 40 and 24 <= box["height"] <= 40, box
    shoot_widths(phone, "help-manage-question-mark")
    question.click()
    phone.wait_for_url("**/help/club-night/#draw")
    expect(phone.get_by_role("heading", level=2, name="Pöytien arvonta")).to_be_in_viewport()
    shoot_widths(phone, "help-club-night-fi")
