"""Every address of the site, for every kind of visitor, with any query and any form: never a
server error. The addresses are read from the URL configuration, so a new page is fuzzed
the day it is added. Runs on SQLite and again on PostgreSQL (NUL bytes, long numbers)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printing.models import PrintJob
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.merge import player_merge
from tournaments.models import Event, Invitation, Notice, Player, Role, Season

pytestmark = pytest.mark.django_db

FIELDS = [
    "email", "old_password", "new_password1", "new_password2",
    "next", "language", "per_page", "page", "sort", "seat", "number", "request_id",
    "expected_version", "pin", "note", "player", "name", "status", "first", "second", "role",
    "out", "laydown", "winner", "by", "upper", "ending", "p0_cards", "p1_points", "p2_buys",
    "date", "variant_id", "preferred_table_size", "username", "password", "ranking_mode",
    "mode", "q", "past_guests", "table",
    "action", "confirm", "open_to", "opens_at", "closes_at", "capacity", "approval",
]  # fmt: skip
junk = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        ["", "0", "1", "-1", "99999999999999999999", "\x00", "a\x00b", "bare", "//evil.example",
         "https://evil.example/", "/", "../../etc", "fi", "hu", "none", "on", "AS KD", "1e9",
         "owner", "director", "checked_in", "withdrawn", "٣", "¹", " ", "x" * 5000]
    ),
)  # fmt: skip
forms = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=5)


def _patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):  # Django's own admin is not ours to fuzz
                found += _patterns(entry, route)
        else:
            found.append((route, entry))
    return found


ENDPOINTS = sorted(
    {name for _route, pattern in _patterns(get_resolver()) if (name := pattern.name)}
)


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """One event with everything an address can name, built once outside the tests."""
    with django_db_blocker.unblock():
        event, (table,) = seated_event(variant_id="rutupeli", players=4)
        director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
        member = MembershipFactory(club=event.club, role=Role.MEMBER).user
        owner = MembershipFactory(club=event.club, role=Role.OWNER)
        registration = event.registrations.first()
        season = Season.objects.create(
            club=event.club,
            name="Autumn",
            starts_on=datetime.date(2026, 9, 1),
            ends_on=datetime.date(2026, 12, 31),
        )
        Event.objects.filter(pk=event.pk).update(season=season)
        job = PrintJob.objects.create(event=event, kind="table_sheets")
        invitation = Invitation.objects.create(
            club=event.club, email="fuzz@club.example", created_by=director
        )
        duplicate = Player.objects.create(club=event.club, name="Duplicate", guest=True)
        merge = player_merge(
            kept=registration.player, merged=duplicate, by=director, confirmed=True
        )
        notice = Notice.objects.create(
            event=event, kind="received", email="fuzz@club.example", status="failed"
        )
    values = {
        "slug": event.club.slug,
        "event_id": event.pk,
        "table_id": table.pk,
        "registration_id": registration.pk,
        "membership_id": owner.pk,
        "number": 1,
        "key": table.entry_key,
        "task_id": "no-such-task",
        "export_format": "csv",
        "player_id": registration.player_id,
        "season_id": season.pk,
        "job_id": job.pk,
        "invitation_id": invitation.pk,
        "merge_id": merge.pk,
        "notice_id": notice.pk,
        "game": "rutupeli",
        # A reset link of the owner's (a real one and a stale one are both fuzzed by junk).
        "uidb64": urlsafe_base64_encode(force_bytes(owner.user.pk)),
        "token": default_token_generator.make_token(owner.user),
    }
    yield values, {"director": director, "member": member, "owner": owner.user}
    with django_db_blocker.unblock():
        event.club.delete()


def _address(name: str, values: dict[str, object]) -> str | None:
    for route, pattern in _patterns(get_resolver()):
        if pattern.name == name:
            path = "/" + route
            for key in pattern.pattern.converters:
                if key not in values:
                    return None
                path = path.replace(f"<{_converter_text(route, key)}>", str(values[key]))
            return path
    return None


def _converter_text(route: str, key: str) -> str:
    start = route.index(f":{key}>") if f":{key}>" in route else route.index(f"<{key}>")
    open_at = route.rindex("<", 0, start + 1)
    return route[open_at + 1 : route.index(">", open_at)]


def test_every_named_address_is_fuzzed():
    # A new view whose address names something the fixture does not make would be skipped
    # silently; this fails instead, so the fixture grows with the site.
    values = dict.fromkeys(["slug", "event_id", "table_id", "registration_id", "membership_id",
                            "number", "key", "task_id", "export_format", "player_id",
                            "season_id", "job_id", "uidb64", "token", "invitation_id",
                            "merge_id", "notice_id", "game"], 1)  # fmt: skip
    missing = [name for name in ENDPOINTS if _address(name, values) is None]
    assert not missing, f"the fuzz fixture cannot fill: {missing}"


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.sampled_from(ENDPOINTS),
    who=st.sampled_from(["anonymous", "member", "director", "owner"]),
    method=st.sampled_from(["get", "post"]),
    query=forms,
    form=forms,
)
def test_no_address_gives_a_server_error(site, name, who, method, query, form):
    values, users = site
    path = _address(name, values)
    client = Client(raise_request_exception=True)
    if who != "anonymous":
        client.force_login(users[who])
    if method == "get":
        response = client.get(path, query)
    else:
        response = client.post(path + "?" + "&".join(f"{k}=x" for k in query), form)
    assert response.status_code < 500, (name, who, method, query, form)


@pytest.mark.parametrize(
    "bad", ["\x00", "bare", "-1", "0", "99999999999999999999", "//evil.example", "x" * 5000]
)
def test_every_address_survives_the_inputs_that_once_broke_one(site, bad):
    """Each value that gave a 500 somewhere once, in every field of every address, as
    every kind of visitor: the class of failure, not only the instance."""
    values, users = site
    form = dict.fromkeys(FIELDS, bad)
    for name in ENDPOINTS:
        path = _address(name, values)
        for who in ["anonymous", "member", "director", "owner"]:
            client = Client(raise_request_exception=True)
            if who != "anonymous":
                client.force_login(users[who])
            for response in (client.get(path, form), client.post(path, form)):
                assert response.status_code < 500, (name, who, bad)
