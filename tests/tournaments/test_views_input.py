"""Every posted or queried value of these pages goes through a form or a validator: a bad one
is refused with a clear outcome (a safe redirect, the first page, a 404), never a 500."""

from __future__ import annotations

import pytest
from celery import uuid
from django.urls import reverse
from django.utils import timezone

from core.models import TaskRun
from core.redirects import local_path
from core.tasks import START_WITHIN
from tests.support.factories import MembershipFactory
from tournaments.tasks import club_stats_refresh_task

NOT_LOCAL = [
    "clubs",  # a bare word: redirect() took it for a view name and failed to reverse it
    "home",
    "",
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example/",
    "\\\\evil.example",
    "javascript:alert(1)",
    "/ spaced",
    "/tab\there",
    "/" + "a" * 3000,
    "¹",
]


@pytest.mark.parametrize("next_url", NOT_LOCAL)
def test_language_switch_sends_anything_but_a_local_path_home(client, db, next_url):
    response = client.post(reverse("language_set"), {"language": "fi", "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert response.cookies["django_language"].value == "fi"


@pytest.mark.parametrize("next_url", ["clubs", "//evil.example/"])
def test_refused_language_also_goes_home_safely(client, db, next_url):
    response = client.post(reverse("language_set"), {"language": "xx", "next": next_url})
    assert response["Location"] == reverse("home")


def test_language_switch_keeps_a_local_path(client, club):
    target = club.get_absolute_url() + "?tab=events"
    response = client.post(reverse("language_set"), {"language": "hu", "next": target})
    assert response["Location"] == target


@pytest.mark.parametrize("value", [None, 7, ["/"], *NOT_LOCAL])
def test_local_path_refuses(value):
    assert local_path(value, fallback="/home/") == "/home/"


@pytest.mark.parametrize("next_url", ["clubs", "//evil.example/", "https://evil.example/"])
def test_task_page_next_is_a_local_path(client, db, next_url):
    now = timezone.now()
    run = TaskRun.objects.create(
        task_id=uuid(),
        name=club_stats_refresh_task.name,
        args=[1],
        queued_at=now,
        lost_after=now + START_WITHIN,
    )
    page = client.get(reverse("task_status", args=[run.task_id]), {"next": next_url})
    assert page.status_code == 200
    html = page.content.decode()
    assert f'href="{next_url}"' not in html
    assert f"/tasks/{run.task_id}/?next=/" in html


# -- the member list: page, page size and order -------------------------------------------------


@pytest.fixture
def members_page(client, club, member):
    for index in range(29):  # 31 members with the owner and `member`, fixtures of the club
        MembershipFactory(club=club, user__first_name="Zed", user__last_name=f"Zz{index:02d}")
    MembershipFactory(club=club, role="owner")
    client.force_login(member)
    return client, reverse("club_members", args=[club.slug])


def _rows(html: str) -> int:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return body.count("<tr")


FIRST_PAGE_NOTE = "This list has no such page or page size; here is its first page."


@pytest.mark.parametrize(
    "query",
    [
        {"per_page": "-1"},
        {"per_page": "0"},
        {"per_page": "1000000000"},
        {"per_page": "9" * 5000},
        {"per_page": "many"},
        {"per_page": "¹"},
        {"per_page": "2.5"},
        {"page": "0"},
        {"page": "-1"},
        {"page": "two"},
        {"page": "٢"},  # an Arabic-Indic two: int() reads it, the form does not
        {"page": "2", "per_page": "-5"},
    ],
)
def test_a_bad_page_or_size_shows_the_first_page_at_the_usual_size(members_page, query):
    client, url = members_page
    response = client.get(url, query)
    assert response.status_code == 200
    html = response.content.decode()
    assert _rows(html) == 25
    assert FIRST_PAGE_NOTE in html


def test_a_good_page_size_is_used(members_page):
    client, url = members_page
    html = client.get(url, {"per_page": "10", "page": "2"}).content.decode()
    assert _rows(html) == 10
    assert FIRST_PAGE_NOTE not in html


@pytest.mark.parametrize("page", ["3", "99", "9" * 18])
def test_a_page_past_the_end_is_404(members_page, page):
    client, url = members_page
    assert client.get(url, {"page": page}).status_code == 404


@pytest.mark.parametrize("sort", ["bogus", "-", "name,role", "user__password"])
def test_an_unknown_order_is_ignored_with_a_note(members_page, sort):
    client, url = members_page
    response = client.get(url, {"sort": sort})
    assert response.status_code == 200
    assert "This list cannot be sorted that way" in response.content.decode()


def test_a_known_order_is_used(members_page):
    client, url = members_page
    html = client.get(url, {"sort": "-name"}).content.decode()
    assert "Zed Zz28" in html
    assert "This list cannot be sorted that way" not in html
