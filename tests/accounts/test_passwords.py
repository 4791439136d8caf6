"""Changing a password, and resetting a forgotten one by e-mail: Django's own views in the
site's look, in the site's languages, with a link that works once and a request page that
never tells whether an address has an account."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from kombu.exceptions import OperationalError

from accounts import forms as account_forms
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def person():
    return UserFactory(username="kaisa", first_name="Kaisa", email="kaisa@club.example")


def _ask_reset(client, address: str, ip: str = "10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": address}, REMOTE_ADDR=ip)


def _link(message) -> str:
    found = re.search(re.escape(settings.SITE_URL) + r"(/accounts/reset/\S+/)", message.body)
    assert found, message.body
    return found[1]


def test_a_signed_in_person_changes_their_password(client, person):
    client.force_login(person)
    page = client.get(reverse("account"))
    assert page.status_code == 200 and "kaisa@club.example" in page.content.decode()
    assert reverse("password_change") in page.content.decode()
    wrong = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": "a new long pass 9", "new_password2": "a new long pass 9"},
    )  # fmt: skip
    assert wrong.status_code == 200 and 'class="error"' in wrong.content.decode()
    done = client.post(
        reverse("password_change"),
        {"old_password": "pass", "new_password1": "a new long pass 9", "new_password2": "a new long pass 9"},
    )  # fmt: skip
    assert done.status_code == 302 and done["Location"] == reverse("password_change_done")
    person.refresh_from_db()
    assert person.check_password("a new long pass 9")
    assert client.get(reverse("account")).status_code == 200  # still signed in here


def test_the_account_pages_need_a_sign_in(client):
    for name in ("account", "password_change"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_reset_link_sets_the_password_once(client, person):
    response = _ask_reset(client, "KAISA@club.example")  # any case finds the account
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["kaisa@club.example"]
    assert "Kaisa" in message.body and '"kaisa"' in message.body
    link = _link(message)
    form = client.get(link)
    assert form.status_code == 302  # Django keeps the token in the session, off the address
    new = {"new_password1": "table four wins", "new_password2": "table four wins"}
    assert client.post(form["Location"], new)["Location"] == reverse("password_reset_complete")
    person.refresh_from_db()
    assert person.check_password("table four wins")

    used = client.get(link, follow=True)
    page = used.content.decode()
    assert "This link no longer works" in page
    assert client.post(form["Location"], {**new, "new_password1": "x"}).status_code == 200
    person.refresh_from_db()
    assert person.check_password("table four wins")


def test_the_answer_is_the_same_for_an_address_without_an_account(client, person):
    known = _ask_reset(client, "kaisa@club.example")
    unknown = _ask_reset(client, "nobody@club.example")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [m.to for m in mail.outbox] == [["kaisa@club.example"]]
    sent = client.get(reverse("password_reset_done")).content.decode()
    assert "If an account has that address" in sent


def test_no_reset_for_an_inactive_account_or_one_without_a_password(client, person):
    UserFactory(username="gone", email="gone@club.example", is_active=False)
    locked = UserFactory(username="sso", email="sso@club.example")
    locked.set_unusable_password()
    locked.save()
    _ask_reset(client, "gone@club.example")
    _ask_reset(client, "sso@club.example")
    assert mail.outbox == []


def test_the_mail_is_in_the_language_of_the_page_it_was_asked_from(client, person):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fi"
    page = client.get(reverse("password_reset")).content.decode()
    assert '<html lang="fi">' in page and "Unohtuiko salasana?" in page
    _ask_reset(client, "kaisa@club.example")
    assert mail.outbox[0].subject == "Lappu: aseta uusi salasana"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    _ask_reset(client, "kaisa@club.example")
    assert mail.outbox[1].subject == "Lappu: új jelszó beállítása"


@pytest.mark.rate_limited
def test_reset_requests_are_limited_per_address_and_per_client(client, person):
    for _attempt in range(5):
        assert _ask_reset(client, "kaisa@club.example").status_code == 302
    # Three mails an hour to one address; the page says the same after them.
    assert len(mail.outbox) == 3
    # Ten requests an hour from one client, whatever the addresses: the eleventh waits.
    answers = [_ask_reset(client, f"other{n}@club.example").status_code for n in range(6)]
    assert answers == [302] * 5 + [429]
    assert _ask_reset(client, "kaisa@club.example", ip="10.9.9.9").status_code == 302


def test_a_reset_is_mailed_at_once_when_the_queue_is_down(client, person):
    with mock.patch.object(
        account_forms.password_reset_mail_task, "delay", side_effect=OperationalError("down")
    ):
        assert _ask_reset(client, "kaisa@club.example").status_code == 302
    assert len(mail.outbox) == 1


def test_a_mail_server_that_fails_is_no_server_error(client, person, settings):
    with (
        mock.patch.object(
            account_forms.password_reset_mail_task, "delay", side_effect=OperationalError("down")
        ),
        mock.patch("accounts.services.EmailMessage.send", side_effect=OSError("no route")),
    ):
        assert _ask_reset(client, "kaisa@club.example").status_code == 302


def test_the_sign_in_page_offers_the_reset(client):
    page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in page
