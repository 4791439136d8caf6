from __future__ import annotations

from django.urls import reverse

from tournaments.models import Profile


def test_switch_stores_the_choice_for_a_signed_in_person(client, club, member):
    client.force_login(member)
    response = client.post(
        reverse("language_set"), {"language": "fi", "next": club.get_absolute_url()}
    )
    assert response.status_code == 302
    assert response["Location"] == club.get_absolute_url()
    assert Profile.objects.get(user=member).language == "fi"
    page = client.get(club.get_absolute_url()).content.decode()
    assert 'lang="fi"' in page
    assert "Kirjaudu ulos" in page  # "Sign out" in Finnish


def test_stored_choice_follows_the_person_to_a_new_device(client, club, member):
    Profile.objects.create(user=member, language="hu")
    client.force_login(member)  # a fresh client: no language cookie
    page = client.get(reverse("home")).content.decode()
    assert 'lang="hu"' in page
    assert "Klubok" in page  # "Clubs" in Hungarian


def test_anonymous_choice_lives_in_a_cookie(client, club):
    response = client.post(reverse("language_set"), {"language": "hu", "next": "/"})
    assert response.cookies["django_language"].value == "hu"
    assert 'lang="hu"' in client.get("/").content.decode()


def test_first_visit_uses_the_clubs_language(client, club):
    club.language = "fi"
    club.save()
    assert 'lang="fi"' in client.get(club.get_absolute_url()).content.decode()


def test_unknown_language_is_refused_politely(client, db):
    response = client.post(reverse("language_set"), {"language": "xx", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert "Pick one of the offered languages." in response.content.decode()


def test_switch_never_redirects_off_site(client, db):
    response = client.post(
        reverse("language_set"), {"language": "fi", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("home")


def test_every_page_has_the_switcher(client, club, member):
    client.force_login(member)
    for url in [
        "/",
        club.get_absolute_url(),
        reverse("club_members", args=[club.slug]),
        reverse("login"),
    ]:
        assert 'name="language"' in client.get(url).content.decode(), url


def test_the_stored_choice_is_read_once_a_session_not_on_every_request(client, member):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    Profile.objects.create(user=member, language="hu")
    client.force_login(member)
    client.get(reverse("home"))
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("home")).content.decode()
    assert 'lang="hu"' in page
    assert not [q for q in queries if "tournaments_profile" in q["sql"]]
    # A new choice is followed at once, still without asking the database again.
    client.post(reverse("language_set"), {"language": "fi", "next": "/"})
    with CaptureQueriesContext(connection) as queries:
        assert 'lang="fi"' in client.get(reverse("home")).content.decode()
    assert not [q for q in queries if "tournaments_profile" in q["sql"]]
