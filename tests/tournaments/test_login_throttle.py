"""Sign-in throttling (django-axes): five wrong passwords lock that user name out from that
address for a while; the attempts are listed in the admin."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from tests.support.factories import UserFactory

HOME = "10.0.0.1"


def sign_in(client, username: str, password: str, ip: str = HOME):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_that_user_name_out_from_that_address(client, member):
    assert settings.AXES_FAILURE_LIMIT == 5
    for _attempt in range(4):
        response = sign_in(client, member.username, "wrong")
        assert response.status_code == 200  # the form again, with its error
    fifth = sign_in(client, member.username, "wrong")
    assert fifth.status_code == 429
    sixth = sign_in(client, member.username, "pass")  # even the right password
    assert sixth.status_code == 429
    assert not signed_in(client)
    page = sixth.content.decode()
    assert "Sign-in locked" in page
    assert f"5 wrong passwords for “{member.username}” from this address." in page
    assert "locked here for 15 minutes" in page
    assert '<html lang="en">' in page  # the site's own page, not a bare message
    assert 'name="viewport"' in page


def test_the_lockout_page_is_translated(client, member):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fi"
    for _attempt in range(5):
        response = sign_in(client, member.username, "wrong")
    assert response.status_code == 429
    assert '<html lang="fi">' in response.content.decode()


def test_another_user_name_or_address_is_not_locked(client, member, outsider):
    for _attempt in range(5):
        sign_in(client, member.username, "wrong")
    assert sign_in(client, member.username, "pass").status_code == 429
    assert sign_in(client, outsider.username, "pass").status_code == 302
    assert signed_in(client)
    client.logout()
    assert sign_in(client, member.username, "pass", ip="10.0.0.2").status_code == 302
    assert signed_in(client)


def test_a_successful_sign_in_resets_the_count(client, member):
    for _attempt in range(4):
        sign_in(client, member.username, "wrong")
    assert sign_in(client, member.username, "pass").status_code == 302
    client.logout()
    for _attempt in range(4):
        assert sign_in(client, member.username, "wrong").status_code == 200
    assert sign_in(client, member.username, "pass").status_code == 302
    assert signed_in(client)


@pytest.mark.parametrize("model", ["accessattempt", "accessfailurelog", "accesslog"])
def test_the_admin_lists_the_attempts(client, member, model):
    for _attempt in range(5):
        sign_in(client, member.username, "wrong")
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)  # not through the sign-in form: the address is locked for no one
    response = client.get(reverse(f"admin:axes_{model}_changelist"))
    assert response.status_code == 200
    if model == "accessattempt":
        page = response.content.decode()
        assert member.username in page
        assert HOME in page


def test_a_non_admin_cannot_see_the_attempts(client, member):
    client.force_login(member)
    response = client.get(reverse("admin:axes_accessattempt_changelist"))
    assert response.status_code == 302  # to the admin's sign-in


def test_a_user_name_longer_than_any_is_refused_by_the_form(client, db):
    # Any length used to reach authenticate(), and the failed attempt's record then broke
    # PostgreSQL's 255-character column with a server error.
    response = client.post(reverse("login"), {"username": "x" * 5000, "password": "nope"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
