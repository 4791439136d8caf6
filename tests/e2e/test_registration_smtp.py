"""Self-registration in a real browser with the mail over real SMTP (the PostgreSQL lane,
where `make test` runs it; the SQLite lane's twin reads Django's test outbox): a guest
registers on the public page and confirms by the link in the mail the SMTP server was
handed; the event full, the next guest is waitlisted, and when the first cancels by the
link in her mail the second is promoted and told so by mail."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from tests.support.browser import director_of
from tests.support.factories import ClubFactory
from tests.support.registration import open_event, register_in_browser
from tests.support.smtp import Sink, text_of
from tests.support.waiting import wait_until
from tournaments.models import Registration, RegistrationStatus

pytestmark = [pytest.mark.postgres]


def _link(sink: Sink, to: str, subject: str, kind: str) -> str:
    """The path of the `kind` link in the newest mail to `to` whose subject has `subject`,
    waiting for the server to be handed it."""
    mail = wait_until(
        lambda: [m for m in sink.to(to) if subject in m["Subject"]],
        what=f"a mail '{subject}' to {to}",
        detail=lambda: "\n".join(f"{m['To']}: {m['Subject']}" for m in sink.mails),
    )[-1]
    body = text_of(mail)
    found = re.search(re.escape(settings.SITE_URL) + rf"(/registration/{kind}/\S+/)", body)
    assert found, body
    return found[1]


def test_register_confirm_waitlist_and_promotion_by_mail_over_smtp(
    live_server, phone, browser, smtp_sink
):
    base = live_server.url
    club = ClubFactory(name="Kerho")
    director_of(club)
    event = open_event(club, capacity=1, name="Friday Rummy")

    register_in_browser(phone, base, event, "Ann Andersson", "ann@mail.example", "Register")
    phone.goto(base + _link(smtp_sink, "ann@mail.example", "confirm your registration", "confirm"))
    phone.get_by_role("button", name="Confirm the registration").click()
    phone.get_by_text("Ann Andersson is registered").wait_for()

    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    bea_page = other.new_page()
    bea_page.set_default_timeout(15_000)
    register_in_browser(bea_page, base, event, "Bea Berg", "bea@mail.example", "Join the waitlist")
    bea_page.goto(
        base + _link(smtp_sink, "bea@mail.example", "confirm your registration", "confirm")
    )
    bea_page.get_by_role("button", name="Confirm the registration").click()
    bea_page.get_by_text("you are on the waitlist").wait_for()
    _link(smtp_sink, "bea@mail.example", "On the waitlist", "cancel")

    # Ann cancels by the link in the mail that gave her the place; Bea is told by mail.
    phone.goto(base + _link(smtp_sink, "ann@mail.example", "Registration received", "cancel"))
    phone.get_by_role("button", name="Cancel the registration").click()
    phone.get_by_text("Your registration is cancelled.").wait_for()
    promoted = wait_until(
        lambda: [m for m in smtp_sink.to("bea@mail.example") if "A place for you" in m["Subject"]],
        what="the promotion mail to Bea",
    )
    assert "it is yours: you are registered now" in text_of(promoted[-1])
    statuses = dict(Registration.objects.filter(event=event).values_list("email", "status"))
    assert statuses == {
        "ann@mail.example": RegistrationStatus.CANCELLED,
        "bea@mail.example": RegistrationStatus.REGISTERED,
    }
    other.close()
