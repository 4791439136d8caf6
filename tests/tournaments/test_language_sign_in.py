"""A language picked before signing in stays picked after it, and becomes the stored one."""

from __future__ import annotations

from django.urls import reverse

from tournaments.models import Profile


def _sign_in(client, user):
    return client.post(reverse("login"), {"username": user.username, "password": "pass"})


def test_choice_made_before_signing_in_wins_over_the_stored_one(client, member):
    Profile.objects.create(user=member, language="hu")
    client.post(reverse("language_set"), {"language": "fi", "next": "/"})
    _sign_in(client, member)
    assert "_auth_user_id" in client.session
    page = client.get(reverse("home")).content.decode()
    assert 'lang="fi"' in page
    assert Profile.objects.get(user=member).language == "fi"


def test_no_cookie_keeps_the_stored_choice(client, member):
    Profile.objects.create(user=member, language="hu")
    _sign_in(client, member)
    assert 'lang="hu"' in client.get(reverse("home")).content.decode()
    assert Profile.objects.get(user=member).language == "hu"


def test_cookie_choice_is_stored_for_a_person_without_one(client, member):
    client.cookies["django_language"] = "hu"
    _sign_in(client, member)
    assert 'lang="hu"' in client.get(reverse("home")).content.decode()
    assert Profile.objects.get(user=member).language == "hu"


def test_an_unknown_cookie_value_changes_nothing(client, member):
    Profile.objects.create(user=member, language="hu")
    client.cookies["django_language"] = "xx"
    _sign_in(client, member)
    assert 'lang="hu"' in client.get(reverse("home")).content.decode()
    assert Profile.objects.get(user=member).language == "hu"


def test_the_session_cache_holds_the_new_choice(client, member):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    Profile.objects.create(user=member, language="hu")
    client.cookies["django_language"] = "fi"
    _sign_in(client, member)
    with CaptureQueriesContext(connection) as queries:
        assert 'lang="fi"' in client.get(reverse("home")).content.decode()
    assert not [q for q in queries if "tournaments_profile" in q["sql"]]
