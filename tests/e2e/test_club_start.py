"""A club starts on its own, in a real browser: a new person signs up, verifies the address
from the mail, starts a club, invites a director by e-mail; the director opens the link in
another browser, signs up with the invited address (no second verification), accepts and
reaches the club's director pages. Every new page is checked by axe and shot at a phone's
width and a laptop's (tests/artifacts/club-start-*.png)."""

from __future__ import annotations

import re

from django.conf import settings
from django.core import mail

from demo.loader import demo_load
from tests.support.browser import shoot_widths, sign_in
from tournaments.models import Club, Invitation, Membership, Role

# Thirty characters, accented, as a real club's name may be.
CLUB_NAME = "Ääkkös-Römi Kerho Järvenpää Ő"
PASSWORD = "a long new password 7"


def _path_in_last_mail(pattern: str) -> str:
    found = re.search(re.escape(settings.SITE_URL) + pattern, mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return found[1]


def _sign_up(page, username: str, email: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_email", email)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def test_a_new_person_starts_a_club_and_invites_a_director(live_server, phone, browser, settings):
    settings.ACCOUNT_RATE_LIMITS = False
    base = live_server.url
    phone.goto(base + "/")
    phone.get_by_role("link", name="Sign up").first.click()
    phone.wait_for_url("**/accounts/signup/")
    shoot_widths(phone, "club-start-signup")
    _sign_up(phone, "aino", "aino@club.example")
    phone.wait_for_url("**/accounts/confirm-email/")
    shoot_widths(phone, "club-start-verification-sent")

    phone.goto(base + _path_in_last_mail(r"(/accounts/confirm-email/\S+/)"))
    shoot_widths(phone, "club-start-confirm-email")
    phone.get_by_role("button", name="Confirm").click()
    phone.wait_for_url(base + "/")

    phone.get_by_role("link", name="Start a club").click()
    phone.wait_for_url("**/clubs/new/")
    shoot_widths(phone, "club-start-form")
    phone.fill("#id_name", CLUB_NAME)
    phone.select_option("#id_language", "fi")
    phone.get_by_role("button", name="Start the club").click()
    phone.locator("#next-steps").wait_for()  # the club's page: the club is saved
    club = Club.objects.get()
    phone.wait_for_url(base + club.get_absolute_url())
    assert club.slug == "aakkos-romi-kerho-jarvenpaa-o"
    assert Membership.objects.get(club=club).role == Role.OWNER
    assert phone.locator("#next-steps").is_visible()
    shoot_widths(phone, "club-start-club-page")

    phone.locator("#next-steps").get_by_role("link", name="Invite people").click()
    phone.wait_for_url("**/invitations/new/")
    shoot_widths(phone, "club-start-invitation-new")
    phone.fill("#id_email", "ville@club.example")
    phone.select_option("#id_role", "director")
    phone.get_by_role("button", name="Send the invitation").click()
    phone.wait_for_url(f"**/clubs/{club.slug}/invitations/")
    assert phone.get_by_role("cell", name="ville@club.example", exact=True).is_visible()
    shoot_widths(phone, "club-start-invitations")
    assert mail.outbox[-1].to == ["ville@club.example"]
    invite = _path_in_last_mail(r"(/invite/\S+/)")

    # The invited director, on a phone of their own, with no account yet.
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    ville = other.new_page()
    ville.set_default_timeout(15_000)
    ville.goto(base + invite)
    shoot_widths(ville, "club-start-invitation-accept-signed-out")
    ville.get_by_role("link", name="Sign up").last.click()
    _sign_up(ville, "ville", "ville@club.example")
    ville.wait_for_url(base + invite)  # the invited address needs no second verification
    shoot_widths(ville, "club-start-invitation-accept")
    ville.get_by_role("button", name="Accept the invitation").click()
    ville.wait_for_url(base + club.get_absolute_url())
    assert Membership.objects.get(club=club, user__username="ville").role == Role.DIRECTOR
    ville.get_by_role("link", name="New event").first.click()
    ville.wait_for_url(f"**/clubs/{club.slug}/events/new/**")
    ville.goto(f"{base}/clubs/{club.slug}/invitations/")
    assert ville.get_by_role("cell", name="ville@club.example", exact=True).is_visible()

    # The link is used: it says so, on a page of its own.
    response = ville.goto(base + invite)
    assert response.status == 410
    shoot_widths(ville, "club-start-invitation-used")
    assert Invitation.objects.get().accepted_by.username == "ville"

    # The owner's revoke asks first.
    phone.goto(f"{base}/clubs/{club.slug}/invitations/new/")
    phone.fill("#id_email", "kaija@club.example")
    phone.get_by_role("button", name="Send the invitation").click()
    phone.wait_for_url(f"**/clubs/{club.slug}/invitations/")
    phone.get_by_role("button", name="Revoke kaija@club.example").click()
    phone.wait_for_url("**/invitations/*/revoke/")
    shoot_widths(phone, "club-start-revoke-confirm")
    phone.get_by_role("button", name="Revoke").click()
    phone.wait_for_url(f"**/clubs/{club.slug}/invitations/")
    assert Invitation.objects.get(email="kaija@club.example").revoked_at is not None


def test_the_demo_clubs_invitations_in_each_state(live_server, phone):
    club = demo_load()
    sign_in(phone, live_server.url, "director", "director")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/invitations/")
    for email in ("newcomer@demo.lappu.example", "changed-mind@demo.lappu.example"):
        assert phone.get_by_role("cell", name=email, exact=True).is_visible()
    shoot_widths(phone, "club-start-demo-invitations")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/settings/")
    assert phone.locator("#id_time_zone").input_value() == "Europe/Helsinki"
    shoot_widths(phone, "club-start-settings")
