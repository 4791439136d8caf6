from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.factories import MembershipFactory
from tournaments.models import Club, Profile, Role


def test_home_lists_clubs_and_says_what_to_do_when_empty(client, db):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "No club has been set up yet" in response.content.decode()


def test_home_lists_a_club(client, club):
    response = client.get(reverse("home"))
    assert club.name in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "outsider", "member", "owner"])
def test_club_page_is_public(client, club, who, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.get(club.get_absolute_url())
    assert response.status_code == 200
    assert club.name in response.content.decode()


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("outsider", 403), ("member", 200), ("owner", 200)]
)
def test_member_list_is_for_members(client, club, who, status, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("club_members", args=[club.slug]))
    assert response.status_code == status
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))


def test_member_list_shows_members_sorted_and_paginated(client, club, member):
    for index in range(30):
        MembershipFactory(club=club, user__first_name="Zed", user__last_name=f"Zz{index:02d}")
    client.force_login(member)
    url = reverse("club_members", args=[club.slug])
    first = client.get(url).content.decode()
    assert member.get_full_name() in first
    assert "Zed Zz29" not in first  # page 2
    second = client.get(url, {"page": 2}).content.decode()
    assert "Zed Zz29" in second
    by_name_desc = client.get(url, {"sort": "-name"}).content.decode()
    assert "Zed Zz29" in by_name_desc


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("outsider", 403), ("member", 403), ("owner", 302)]
)
def test_recount_is_for_directors_and_owners(client, club, who, status, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("club_stats_refresh", args=[club.slug]))
    assert response.status_code == status


def test_recount_runs_the_task_and_shows_its_progress_page(
    client, club, owner, member, django_capture_on_commit_callbacks
):
    assert Club.objects.get(pk=club.pk).member_count == 0
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("club_stats_refresh", args=[club.slug]))
    assert response.status_code == 302
    assert response["Location"].startswith("/tasks/")
    assert Club.objects.get(pk=club.pk).member_count == 2
    page = client.get(response["Location"])
    assert "Done." in page.content.decode()
    assert club.get_absolute_url() in page.content.decode()


def test_recount_is_queued_only_after_commit(
    client, club, owner, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("club_stats_refresh", args=[club.slug]))
    assert len(callbacks) == 1
    assert Club.objects.get(pk=club.pk).member_count == 0


def test_a_task_nobody_queued_is_not_found(client, db):
    # Covered for a real job's `next` by test_views_input.test_task_page_next_is_a_local_path;
    # an id with no record must not poll "still working" for ever.
    page = client.get(
        reverse("task_status", args=["no-such-task"]), {"next": "https://evil.example/"}
    )
    assert page.status_code == 404
    assert 'href="https://evil.example/"' not in page.content.decode()


def test_get_on_recount_is_not_allowed(client, club, owner):
    client.force_login(owner)
    assert client.get(reverse("club_stats_refresh", args=[club.slug])).status_code == 405


def test_unknown_club_is_404(client, db):
    assert client.get("/clubs/nope/").status_code == 404


def test_admin_has_a_screen_for_every_model(admin_client, club, member):
    from django.apps import apps
    from django.contrib import admin

    from scoring.services import Actor, deal_record
    from tests.support.events import seated_event

    _event, (table,) = seated_event(variant_id="rutupeli", players=4, club=club)
    entry = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "A", "K", "Q")]}
    deal_record(
        table=table,
        number=1,
        entry=entry,
        by=Actor(device="d", seat=0),
        expected_version=0,
        request_id="a",
    )
    # Every model of the site's own apps has an admin screen.
    for app in ("core", "tournaments", "scoring", "printing"):
        for model in apps.get_app_config(app).get_models():
            assert model in admin.site._registry, model
    for model in admin.site._registry:
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert admin_client.get(url).status_code == 200, url
        first = model.objects.first()
        if first is not None:
            change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            assert admin_client.get(change).status_code == 200, change


def test_membership_role_order():
    membership = MembershipFactory.build(role=Role.DIRECTOR)
    assert membership.has_role(Role.SCORER)
    assert membership.has_role(Role.DIRECTOR)
    assert not membership.has_role(Role.OWNER)


def test_profile_str(db, member):
    assert str(Profile.objects.create(user=member, language="hu")) == member.username
