"""The Content-Security-Policy (django-csp): sent with every page, and the pages keep to it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.csp import inline_code
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory, UserFactory
from tournaments.models import Role


# Data blocks (json_script) are not run, so the policy does not concern them.
def assert_strict_csp(response) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    assert directives.get("script-src") == ["'self'"], policy
    assert directives.get("style-src") == ["'self'"], policy
    assert directives.get("default-src") == ["'self'"], policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@pytest.fixture
def night(db):
    """A seated Rutupeli night, its director (a club director) and a site admin."""
    event, tables = seated_event(variant_id="rutupeli", players=4)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    admin = UserFactory(username="site-admin", is_staff=True, is_superuser=True)
    return event, tables[0], director, admin


def _pages(client, night):
    event, table, director, admin = night
    club = event.club
    yield "home", client.get(reverse("home"))
    yield "sign in", client.get(reverse("login"))
    yield "club", client.get(club.get_absolute_url())
    yield "event", client.get(event.get_absolute_url())
    yield "seat pick", client.get(table.get_entry_url())
    seat = re.search(
        r'name="seat" value="(\d+)"', client.get(table.get_entry_url()).content.decode()
    )
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": seat[1]})
    yield "score entry", client.get(table.get_entry_url())
    yield "not found", client.get("/no-such-page/")
    client.force_login(director)
    yield "club as director", client.get(club.get_absolute_url())
    yield "members", client.get(reverse("club_members", args=[club.slug]))
    yield "manage", client.get(reverse("event_manage", args=[club.slug, event.pk]))
    yield "new event", client.get(reverse("event_new", args=[club.slug]))
    yield (
        "history",
        client.get(reverse("table_history", args=[club.slug, event.pk, table.pk])),
    )
    client.force_login(admin)
    yield "admin", client.get(reverse("admin:index"))
    yield "admin list", client.get(reverse("admin:tournaments_event_changelist"))
    yield "admin form", client.get(reverse("admin:tournaments_event_change", args=[event.pk]))
    yield "admin add", client.get(reverse("admin:auth_user_add"))


def test_every_page_is_sent_with_the_strict_policy(client, night):
    for name, response in _pages(client, night):
        assert response.status_code in {200, 404}, name
        assert_strict_csp(response)
        if name == "score entry":  # the page with the live check and the tap buttons
            assert 'class="tap' in response.content.decode()


def test_the_pages_hold_no_inline_script_or_style(client, night):
    found = {}
    for name, response in _pages(client, night):
        if problems := inline_code(response.content.decode()):
            found[name] = problems
    assert found == {}


def test_error_pages_in_production_carry_the_policy(client, settings, db):
    settings.DEBUG = False
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert_strict_csp(response)
    assert inline_code(response.content.decode()) == []


def test_base_html_tells_htmx_not_to_inject_its_indicator_styles(client, db):
    html = client.get(reverse("home")).content.decode()
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles":false}'>""" in html
    assert re.search(r'<script src="/static/js/site.js" defer></script>', html)


def test_the_scanner_finds_what_the_policy_refuses():
    html = """<div style="color:red" onclick="go()"><a href="javascript:go()">x</a></div>
    <style>p{}</style><script>go()</script><script src="/static/x.js"></script>
    <script type="application/json" id="data">{}</script>"""
    assert len(inline_code(html)) == 5
