"""Signing up (django-allauth): the address is verified before the account can be used,
the mail goes through the queue on commit in the person's language, the old sign-in stays
and is refused until the address is verified, and sign-ups are rate limited."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from kombu.exceptions import OperationalError

from accounts import tasks as account_tasks

pytestmark = pytest.mark.django_db

FORM = {
    "username": "uusi",
    "email": "uusi@club.example",
    "password1": "a long new password 7",
    "password2": "a long new password 7",
}


@pytest.fixture(autouse=True)
def _allauth_limits_off(settings):
    settings.ACCOUNT_RATE_LIMITS = False


def _sign_up(client, django_capture_on_commit_callbacks, data=FORM, **extra):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(reverse("account_signup"), data, **extra)


def _link(message) -> str:
    found = re.search(
        re.escape(settings.SITE_URL) + r"(/accounts/confirm-email/\S+/)", message.body
    )
    assert found, message.body
    return found[1]


def test_signing_up_mails_a_link_that_verifies_and_signs_in(
    client, django_capture_on_commit_callbacks
):
    page = client.get(reverse("account_signup"))
    assert page.status_code == 200 and 'name="email"' in page.content.decode()
    response = _sign_up(client, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert client.get(response["Location"]).status_code == 200
    assert [m.to for m in mail.outbox] == [["uusi@club.example"]]
    link = _link(mail.outbox[0])
    assert client.get(link).status_code == 200  # a page with a button: scanners do not verify
    assert not EmailAddress.objects.get(email="uusi@club.example").verified
    done = client.post(link)
    assert done.status_code == 302
    assert EmailAddress.objects.get(email="uusi@club.example").verified
    assert client.get(reverse("account")).status_code == 200  # signed in


def test_the_mail_is_in_the_language_of_the_sign_up_page(
    client, django_capture_on_commit_callbacks
):
    _sign_up(client, django_capture_on_commit_callbacks, HTTP_ACCEPT_LANGUAGE="fi")
    assert mail.outbox[0].subject == "Lappu: vahvista sähköpostiosoitteesi"


def test_nothing_is_mailed_before_the_sign_up_commits(client, django_capture_on_commit_callbacks):
    with mock.patch.object(account_tasks.account_mail_task, "delay") as delay:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            client.post(reverse("account_signup"), FORM)
        delay.assert_not_called()
        assert len(callbacks) == 1
        callbacks[0]()
        delay.assert_called_once()
    args = delay.call_args.args
    assert args[0] == "account/email/email_confirmation_signup" and "key" not in repr(args)


def test_an_unverified_account_cannot_sign_in_and_gets_the_link_again(
    client, django_capture_on_commit_callbacks
):
    _sign_up(client, django_capture_on_commit_callbacks)
    client.logout()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(reverse("login"), {"username": "uusi", "password": FORM["password1"]})
    assert page.status_code == 200 and "uusi@club.example" in page.content.decode()
    assert client.get(reverse("account")).status_code == 302  # not signed in
    assert [m.to for m in mail.outbox] == [["uusi@club.example"]]


def test_accounts_without_an_address_record_still_sign_in(client, user_factory):
    user_factory(username="vanha")
    response = client.post(reverse("login"), {"username": "vanha", "password": "pass"})
    assert response.status_code == 302


def test_a_queue_that_is_down_mails_at_once(client, django_capture_on_commit_callbacks):
    with mock.patch.object(
        account_tasks.account_mail_task, "delay", side_effect=OperationalError("down")
    ):
        response = _sign_up(client, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and len(mail.outbox) == 1


def test_a_mail_server_that_fails_is_no_server_error(
    client, django_capture_on_commit_callbacks, settings
):
    with (
        mock.patch.object(
            account_tasks.account_mail_task, "delay", side_effect=OperationalError("down")
        ),
        mock.patch("accounts.services.EmailMessage.send", side_effect=OSError("no server")),
    ):
        response = _sign_up(client, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="uusi").exists()


def test_bad_input_is_an_error_on_the_page(client, django_capture_on_commit_callbacks):
    bad = {**FORM, "email": "not an address", "password2": "other"}
    page = _sign_up(client, django_capture_on_commit_callbacks, data=bad)
    assert page.status_code == 200 and 'class="error"' in page.content.decode()
    assert not get_user_model().objects.filter(username="uusi").exists()
    assert mail.outbox == []


def test_an_address_already_used_gets_a_mail_not_an_account(
    client, user_factory, django_capture_on_commit_callbacks
):
    user_factory(username="old", email="uusi@club.example")
    response = _sign_up(client, django_capture_on_commit_callbacks)
    assert response.status_code in (200, 302)
    assert not get_user_model().objects.filter(username="uusi").exists()


@pytest.mark.rate_limited
def test_sign_ups_are_limited_per_address(client, django_capture_on_commit_callbacks):
    answers = []
    for n in range(11):
        data = {**FORM, "username": f"person{n}", "email": f"p{n}@club.example"}
        answers.append(_sign_up(client, django_capture_on_commit_callbacks, data=data).status_code)
    assert answers == [302] * 10 + [429]
    other = {**FORM, "username": "elsewhere", "email": "e@club.example"}
    assert (
        _sign_up(
            client, django_capture_on_commit_callbacks, data=other, REMOTE_ADDR="10.9.9.9"
        ).status_code
        == 302
    )


def test_the_sign_in_page_links_to_sign_up(client):
    page = client.get(reverse("login") + "?next=/invite/abc/").content.decode()
    assert reverse("account_signup") + "?next=/invite/abc/" in page
