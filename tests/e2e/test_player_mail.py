"""The players' mail and the calendar in a real browser, at a phone's width and a laptop's:
the unsubscribe page (asking, done, a broken link), the manage page's mail box with a
failed mail sent again, the club settings' table-mail choice, the calendar links, and the
link of a table mail opening that table's page."""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

from django.core import mail
from playwright.sync_api import expect

from tests.support.browser import director_event, shoot, shoot_widths, sign_in
from tests.support.events import drawn_event
from tournaments.models import MailOptOut, Notice, NoticeStatus, Registration
from tournaments.notice_mail import unsubscribe_token


def test_the_unsubscribe_page_asks_then_says_done(live_server, phone):
    event, _players = director_event(
        names=["Anna"], name="Friday", date=datetime.date(2026, 12, 4), variant_id="rutupeli"
    )
    token = unsubscribe_token(club_id=event.club_id, email="anna@example.com", kind="table")
    phone.goto(f"{live_server.url}/unsubscribe/{token}/")
    shoot_widths(phone, "mail-unsubscribe-ask")
    assert not MailOptOut.objects.exists()
    phone.get_by_role("button", name="Unsubscribe").click()
    phone.get_by_text("gets no more mail of this kind").wait_for()
    shoot_widths(phone, "mail-unsubscribe-done")
    assert MailOptOut.objects.filter(email="anna@example.com", kind="table").exists()
    phone.goto(f"{live_server.url}/unsubscribe/{token[:-4]}/")
    phone.get_by_text("This unsubscribe link is not valid").wait_for()
    shoot_widths(phone, "mail-unsubscribe-broken")


def test_the_mail_box_on_the_manage_page_sends_a_failed_mail_again(live_server, phone):
    event, _players = director_event(
        names=["Anna", "Bela", "Cecil"],
        name="Friday",
        date=datetime.date(2026, 12, 4),
        variant_id="rutupeli",
    )
    registrations = list(Registration.objects.filter(event=event).order_by("pk"))
    for registration, status in zip(
        registrations, [NoticeStatus.SENT, NoticeStatus.FAILED, NoticeStatus.SKIPPED], strict=True
    ):
        Notice.objects.create(
            event=event,
            registration=registration,
            kind="received",
            email=""
            if status == NoticeStatus.SKIPPED
            else f"{registration.player.name}@example.com",
            status=status,
            attempts=6 if status == NoticeStatus.FAILED else 1,
            error="SMTPServerDisconnected: Connection unexpectedly closed"
            if status == NoticeStatus.FAILED
            else "",
        )
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/manage/#mail")
    phone.get_by_text("1 failed").wait_for()
    shoot_widths(phone, "mail-manage-failed")
    phone.get_by_role("button", name="Send again").click()
    phone.get_by_text("is being sent again").wait_for()
    assert Notice.objects.get(email="Bela@example.com").status == NoticeStatus.SENT
    assert [m.to for m in mail.outbox] == [["Bela@example.com"]]
    phone.get_by_text("2 sent").wait_for()
    shoot_widths(phone, "mail-manage-sent-again")


def test_club_settings_mail_choice_and_the_calendar_links(live_server, phone):
    event, _players = director_event(
        name="Friday", date=datetime.date(2026, 12, 4), variant_id="rutupeli", venue="Hall 2"
    )
    club = event.club
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/settings/")
    phone.get_by_label("Mail each player their table when a draw is confirmed").check()
    shoot_widths(phone, "mail-club-settings")
    phone.get_by_role("button", name="Save").click()
    phone.get_by_text("Settings saved").wait_for()
    club.refresh_from_db()
    assert club.mail_tables
    phone.goto(f"{live_server.url}/clubs/{club.slug}/")
    link = phone.get_by_role("link", name="Calendar of events (.ics)")
    assert link.get_attribute("href") == f"/clubs/{club.slug}/events.ics"
    shoot_widths(phone, "mail-club-calendar")
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    add = phone.get_by_role("link", name="Add to calendar")
    assert add.get_attribute("href") == f"/clubs/{club.slug}/events/{event.pk}/calendar.ics"
    shoot_widths(phone, "mail-add-to-calendar")


def test_the_link_in_a_table_mail_opens_that_table(live_server, phone):
    event, stage = drawn_event(players=8)
    table = stage.tables.get(number=2)
    seated = [seat.player for seat in table.seats.select_related("player")]
    registration = Registration.objects.get(event=event, player=seated[0])
    (message,) = [m for m in mail.outbox if m.to == [registration.email]]
    assert message.subject == "You are at table 2: Friday night"
    link = next(word for word in message.body.split() if "/t/" in word)
    phone.goto(live_server.url + urlsplit(link).path)
    assert urlsplit(phone.url).path == table.get_entry_url()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Friday night · Table 2")
    for player in seated:
        expect(phone.get_by_role("button", name=player.name)).to_be_visible()
    shoot(phone, "mail-table-link-opens-table")
