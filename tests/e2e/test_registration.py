"""Self-registration in a real browser: a player registers from the public page and
confirms by the link in the mail; the next one, the event full, joins the waitlist and is
promoted when the first cancels by the link in theirs; a member registers with one tap and
sees it under My registrations; the director's list shows them all. Every page is checked
by axe at a phone's width and a laptop's (tests/artifacts/registration-*.png)."""

from __future__ import annotations

import re

from django.conf import settings
from django.core import mail
from playwright.sync_api import expect

from tests.support.browser import director_of, shoot_widths, sign_in
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.registration import open_event, register_in_browser
from tournaments.models import (
    NoticeKind,
    Registration,
    RegistrationOpenTo,
    RegistrationStatus,
    Role,
)
from tournaments.registration import registration_settings_set


def _link_in_mail(to: str, kind: str = "confirm") -> str:
    """The path of the `kind` link in the newest mail to `to`."""
    message = [message for message in mail.outbox if message.to == [to]][-1]
    found = re.search(re.escape(settings.SITE_URL) + rf"(/registration/{kind}/\S+/)", message.body)
    assert found, message.body
    return found[1]


def _confirm(page, base: str, email: str) -> None:
    page.goto(base + _link_in_mail(email))
    page.get_by_role("button", name="Confirm the registration").click()


def test_register_confirm_waitlist_and_promotion(live_server, phone, browser):
    base = live_server.url
    club = ClubFactory(name="Kerho")
    director_of(club)
    member = MembershipFactory(club=club, role=Role.MEMBER, user__username="mia").user
    member.set_password("mia")
    member.email = "mia@mail.example"
    member.save()
    event = open_event(club, capacity=1, name="Friday Rummy")

    phone.goto(base + event.get_absolute_url())
    assert phone.get_by_text("1 place left of 1").is_visible()
    shoot_widths(phone, "registration-public")
    phone.get_by_role("link", name="Register").click()
    phone.wait_for_url("**/register/")
    shoot_widths(phone, "registration-register")
    register_in_browser(phone, base, event, "Ann Andersson", "ann@mail.example", "Register")
    shoot_widths(phone, "registration-mail-sent")
    ann = Registration.objects.get(email="ann@mail.example")
    assert ann.status == RegistrationStatus.UNCONFIRMED
    phone.goto(base + _link_in_mail("ann@mail.example"))
    shoot_widths(phone, "registration-confirm")
    phone.get_by_role("button", name="Confirm the registration").click()
    phone.get_by_text("Ann Andersson is registered").wait_for()
    shoot_widths(phone, "registration-registered")

    # The event is full: the next person is offered the waitlist.
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    bea_page = other.new_page()
    bea_page.set_default_timeout(15_000)
    register_in_browser(bea_page, base, event, "Bea Berg", "bea@mail.example", "Join the waitlist")
    _confirm(bea_page, base, "bea@mail.example")
    bea_page.get_by_text("you are on the waitlist").wait_for()
    shoot_widths(bea_page, "registration-waitlisted")
    bea = Registration.objects.get(email="bea@mail.example")
    assert bea.status == RegistrationStatus.WAITLISTED

    # A forged link says so and changes nothing.
    answer = bea_page.goto(base + "/registration/confirm/1:forged:link/")
    assert answer is not None and answer.status == 400
    assert bea_page.get_by_text("This link is not valid").is_visible()
    shoot_widths(bea_page, "registration-link-forged")

    # Ann cancels by the link in her mail (it asks first); Bea gets the place.
    phone.goto(base + _link_in_mail("ann@mail.example", "cancel"))
    shoot_widths(phone, "registration-cancel-confirm")
    phone.get_by_role("button", name="Cancel the registration").click()
    phone.get_by_text("Your registration is cancelled.").wait_for()
    bea.refresh_from_db()
    assert bea.status == RegistrationStatus.REGISTERED
    assert bea.notices.filter(kind=NoticeKind.PROMOTED).exists()
    assert bea.changes.last().changed_by is None

    # A member taps once, and finds it under My registrations.
    registration_settings_set(
        event=event,
        open_to=RegistrationOpenTo.ANYONE,
        opens_at=None,
        closes_at=None,
        capacity=2,
        approval=False,
    )
    mia = other.new_page()
    mia.set_default_timeout(15_000)
    sign_in(mia, base, "mia", "mia")
    mia.goto(base + event.get_absolute_url())
    mia.get_by_role("link", name="Register").click()
    mia.wait_for_url("**/register/")
    shoot_widths(mia, "registration-member-one-tap")
    mia.get_by_role("button", name="Register").click()
    mia.get_by_role("link", name="My registrations").click()
    expect(mia.get_by_role("link", name="Friday Rummy")).to_be_visible()
    shoot_widths(mia, "registration-mine")

    # The director's list: places, the waitlist, the cancelled, each with its history.
    director = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    desk = director.new_page()
    desk.set_default_timeout(15_000)
    sign_in(desk, base, "dora", "dora")
    desk.goto(f"{base}/clubs/{club.slug}/events/{event.pk}/manage/")
    desk.get_by_role("link", name="Registration list and settings").click()
    desk.wait_for_url("**/registrations/")  # the manage page shows the places taken too
    expect(desk.get_by_text("Places taken: 2 of 2").first).to_be_visible()
    desk.locator("details summary").first.click()
    shoot_widths(desk, "registration-director-list")
    desk.select_option("#id_status", "cancelled")
    desk.get_by_role("button", name="Show").click()
    desk.wait_for_url("**status=cancelled**")
    expect(desk.get_by_role("cell", name="ann@mail.example")).to_be_visible()
    assert not desk.get_by_role("cell", name="bea@mail.example").count()
    desk.get_by_role("button", name="Give a place").click()
    desk.get_by_text("Places taken: 3 of 2").wait_for()  # the director's choice: over
    ann = Registration.objects.get(email="ann@mail.example")
    assert ann.status == RegistrationStatus.REGISTERED
    other.close()
    director.close()
