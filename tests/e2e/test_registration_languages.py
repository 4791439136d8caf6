"""The pages of registration, the door and the players' mail in Finnish and Hungarian, each
checked by axe (the other browser tests read them in English): the public Register, its
form with errors and the mail-sent page, the mailed links' pages (confirm, cancel, the door
code, unsubscribe, a forged link), My registrations, the director's list and the door's
walk-in question. A translation can break a page for a screen reader (a button's name no
longer holding its words), so each language is looked at (tests/artifacts/lang-*.png)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import director_of, shoot, sign_in
from tests.support.factories import MembershipFactory
from tests.support.registration import guest, open_event
from tournaments.models import Player, Registration, Role
from tournaments.notice_mail import unsubscribe_token
from tournaments.registration import registration_self_add
from tournaments.registration_links import (
    CANCEL,
    CONFIRM,
    registration_qr_token,
    registration_token,
)

LOCALES = {"fi": "fi-FI", "hu": "hu-HU"}


def test_registration_and_door_pages_in_finnish_and_hungarian(live_server, browser):
    base = live_server.url
    event = open_event(capacity=1)
    club = event.club
    director_of(club)
    member = MembershipFactory(club=club, role=Role.MEMBER, user__username="mia").user
    member.set_password("mia")
    member.save()
    ann = guest(event, "Ann")
    registration_self_add(event=event, user=member, name="", email="")  # waitlisted
    Player.objects.create(club=club, name="Olli Uusi")
    manage = f"{base}/clubs/{club.slug}/events/{event.pk}"
    links = {
        "cancel": f"/registration/cancel/{registration_token(registration=ann, salt=CANCEL)}/",
        "door": f"/door/{registration_qr_token(ann)}/",
        "unsubscribe": "/unsubscribe/"
        + unsubscribe_token(club_id=club.pk, email="ann@mail.example", kind="table")
        + "/",
        "forged": "/registration/confirm/1:forged:link/",
    }
    for language, locale in LOCALES.items():
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(base + event.get_absolute_url())
        expect(page.locator("html")).to_have_attribute("lang", language)
        shoot(page, f"lang-{language}-event")
        page.goto(f"{manage}/register/")
        page.fill("#id_name", f"Guest {language}")
        page.fill("#id_email", "guest@nowhere")  # the browser lets it by, the site does not
        page.locator("main button[type=submit]").click()
        expect(page.locator("#id_email")).to_have_attribute("aria-invalid", "true")
        shoot(page, f"lang-{language}-register-errors")
        page.fill("#id_email", f"guest-{language}@mail.example")
        page.locator("main button[type=submit]").click()
        expect(page.get_by_text(f"guest-{language}@mail.example")).to_be_visible()
        shoot(page, f"lang-{language}-mail-sent")
        fresh = Registration.objects.get(email=f"guest-{language}@mail.example")
        page.goto(
            f"{base}/registration/confirm/{registration_token(registration=fresh, salt=CONFIRM)}/"
        )
        shoot(page, f"lang-{language}-confirm")
        for name, path in links.items():
            page.goto(base + path)
            shoot(page, f"lang-{language}-{name}")
        sign_in(page, base, "mia", "mia")
        page.goto(f"{base}/accounts/registrations/")
        shoot(page, f"lang-{language}-mine")
        context.close()

        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        desk = context.new_page()
        desk.set_default_timeout(15_000)
        sign_in(desk, base, "dora", "dora")
        desk.goto(f"{manage}/registrations/")
        desk.locator("details summary").first.click()
        shoot(desk, f"lang-{language}-list")
        desk.goto(f"{manage}/check-in/")
        walk_in = desk.locator("form", has=desk.locator("input[name=name]"))
        walk_in.locator("input[name=name]").fill("olli  uusi")
        walk_in.locator("button[type=submit]").click()
        expect(desk.locator("h1")).not_to_have_text("")
        expect(desk.locator("button", has_text="Olli Uusi")).to_be_visible()
        shoot(desk, f"lang-{language}-walk-in-lookalike")
        context.close()
