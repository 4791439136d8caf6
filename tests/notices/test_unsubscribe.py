"""A mail's unsubscribe link: asks first, then stops that kind from that club; a forged
link says so and changes nothing; a second time is harmless."""

from __future__ import annotations

import pytest

from tests.support.factories import ClubFactory
from tournaments.models import MailOptOut
from tournaments.notice_mail import unsubscribe_token

pytestmark = pytest.mark.django_db


def test_the_link_asks_then_unsubscribes_that_kind_only(client):
    club = ClubFactory()
    token = unsubscribe_token(club_id=club.pk, email="Anna@Example.com", kind="table")
    url = f"/unsubscribe/{token}/"
    page = client.get(url)
    assert page.status_code == 200
    assert "anna@example.com" in page.content.decode()
    assert not MailOptOut.objects.exists()  # a mail scanner's GET changes nothing
    assert "Done" in client.post(url).content.decode()
    assert client.post(url).status_code == 200  # again: harmless
    (opt_out,) = MailOptOut.objects.all()
    assert (opt_out.club, opt_out.email, opt_out.kind) == (club, "anna@example.com", "table")


def test_one_click_post_from_a_mail_client(client):
    club = ClubFactory()
    token = unsubscribe_token(club_id=club.pk, email="b@example.com", kind="results")
    csrf_client = client.__class__(enforce_csrf_checks=True)
    answer = csrf_client.post(f"/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert MailOptOut.objects.filter(email="b@example.com", kind="results").exists()


@pytest.mark.parametrize(
    "mangle", [lambda t: t[:-3] + "abc", lambda t: "x" + t, lambda t: "garbage"]
)
def test_a_forged_link_says_so_and_changes_nothing(client, mangle):
    club = ClubFactory()
    token = mangle(unsubscribe_token(club_id=club.pk, email="c@example.com", kind="table"))
    for method in (client.get, client.post):
        answer = method(f"/unsubscribe/{token}/")
        assert answer.status_code == 400
        assert "not valid" in answer.content.decode()
    assert not MailOptOut.objects.exists()
