"""Memberships and roles: every change kept (who, when, old, new), the owners' rule, the
owner's roles page, and the admin going through the same services."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from rules import RuleViolation
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Club, Membership, MembershipChange, Role
from tournaments.services import (
    leaves_club_without_owner,
    membership_add,
    membership_remove,
    membership_role_set,
)


def history(club: Club) -> list[tuple[str | None, str, str, str | None]]:
    """The club's changes, oldest first: (member, old role, new role, changed by)."""
    return [
        (
            change.user.username if change.user else None,
            change.old_role,
            change.new_role,
            change.changed_by.username if change.changed_by else None,
        )
        for change in MembershipChange.objects.filter(club=club).order_by("pk")
    ]


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


# -- the owners' rule ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("owners", "losing", "gaining", "refused"),
    [
        ({1}, {1}, 0, True),  # the only owner demoted or removed
        ({1}, {1}, 1, False),  # ... while someone else becomes owner
        ({1, 2}, {1}, 0, False),  # another owner stays
        ({1, 2}, {1, 2}, 0, True),  # every owner at once
        ({1}, {3}, 0, False),  # not an owner
        (set(), {3}, 0, False),  # a club with no owner yet has none to keep
    ],
)
def test_a_club_that_has_an_owner_keeps_one(owners, losing, gaining, refused):
    assert leaves_club_without_owner(owner_ids=owners, losing=losing, gaining=gaining) is refused


# -- services ------------------------------------------------------------------------------------


def test_adding_a_member_records_who_added_whom_and_the_role(club, owner):
    newcomer = UserFactory(username="newcomer")
    membership = membership_add(club=club, user=newcomer, role=Role.SCORER, by=owner)
    assert membership.role == Role.SCORER
    change = MembershipChange.objects.filter(club=club).first()  # newest first
    assert (change.user, change.changed_by, change.old_role, change.new_role) == (
        newcomer,
        owner,
        "",
        "scorer",
    )
    assert change.changed_at is not None


def test_adding_someone_twice_is_refused(club, owner, member):
    with pytest.raises(RuleViolation) as refused:
        membership_add(club=club, user=member, by=owner)
    assert refused.value.code == "already_member"


def test_a_role_change_records_old_and_new_once(club, owner, member):
    membership = Membership.objects.get(club=club, user=member)
    before = MembershipChange.objects.count()
    membership_role_set(membership=membership, role=Role.DIRECTOR, by=owner)
    membership_role_set(membership=membership, role=Role.DIRECTOR, by=owner)  # no change
    assert MembershipChange.objects.count() == before + 1
    assert history(club)[-1] == (member.username, "member", "director", owner.username)
    assert Membership.objects.get(pk=membership.pk).role == Role.DIRECTOR


def test_a_removal_records_the_old_role_and_keeps_the_player(club, owner, member):
    membership = Membership.objects.get(club=club, user=member)
    membership_remove(membership=membership, by=owner)
    membership_remove(membership=membership, by=owner)  # removing twice is removing once
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert history(club)[-1] == (member.username, "member", "", owner.username)
    assert MembershipChange.objects.filter(club=club, new_role="").count() == 1
    assert club.players.filter(user=member).exists()


@pytest.mark.parametrize("how", ["demote", "remove"])
def test_the_last_owner_cannot_be_demoted_or_removed(club, owner, member, how):
    membership = Membership.objects.get(club=club, user=owner)
    before = MembershipChange.objects.count()
    with pytest.raises(RuleViolation) as refused:
        if how == "demote":
            membership_role_set(membership=membership, role=Role.DIRECTOR, by=owner)
        else:
            membership_remove(membership=membership, by=owner)
    assert refused.value.code == "last_owner"
    assert "at least one owner" in refused.value.message
    assert Membership.objects.get(pk=membership.pk).role == Role.OWNER
    assert MembershipChange.objects.count() == before


def test_with_a_second_owner_the_first_may_step_down(club, owner, member):
    membership_role_set(
        membership=Membership.objects.get(club=club, user=member), role=Role.OWNER, by=owner
    )
    membership_role_set(
        membership=Membership.objects.get(club=club, user=owner), role=Role.MEMBER, by=member
    )
    assert list(Membership.objects.filter(club=club, role=Role.OWNER)) == [
        Membership.objects.get(club=club, user=member)
    ]


# -- the safety net: changes made around the services --------------------------------------------


def test_changes_made_around_the_services_are_recorded_by_no_one(club):
    user = UserFactory(username="scripted")
    membership = Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    membership.save()  # saved again, role unchanged: nothing to record
    membership.role = Role.SCORER
    membership.save()
    membership.delete()
    assert history(club) == [
        ("scripted", "", "member", None),
        ("scripted", "member", "scorer", None),
        ("scripted", "scorer", "", None),
    ]


def test_a_queryset_delete_is_recorded_too(club, member):
    Membership.objects.filter(club=club, user=member).delete()
    assert history(club)[-1] == (member.username, "member", "", None)


def test_a_service_change_is_recorded_once_with_its_author(club, owner):
    user = UserFactory(username="once")
    membership = membership_add(club=club, user=user, by=owner)
    membership_role_set(membership=membership, role=Role.SCORER, by=owner)
    membership_remove(membership=membership, by=owner)
    assert [row for row in history(club) if row[0] == "once"] == [
        ("once", "", "member", owner.username),
        ("once", "member", "scorer", owner.username),
        ("once", "scorer", "", owner.username),
    ]


def test_deleting_an_account_keeps_the_clubs_history_without_a_name(club, owner, member):
    membership_role_set(
        membership=Membership.objects.get(club=club, user=member), role=Role.SCORER, by=owner
    )
    rows = MembershipChange.objects.filter(club=club).count()
    member.delete()
    assert MembershipChange.objects.filter(club=club).count() == rows  # nothing added or lost
    assert MembershipChange.objects.filter(club=club, user=None).count() == 2


def test_deleting_a_club_takes_its_history_along(club, owner, member):
    other = MembershipFactory(role=Role.OWNER).club
    club.delete()
    assert not MembershipChange.objects.filter(club_id=club.pk).exists()
    assert MembershipChange.objects.filter(club=other).exists()


def test_history_is_never_updated_or_deleted(club, owner):
    change = MembershipChange.objects.filter(club=club).first()
    change.new_role = Role.MEMBER
    with pytest.raises(RuntimeError):
        change.save()
    with pytest.raises(RuntimeError):
        change.delete()
    assert MembershipChange.objects.get(pk=change.pk).new_role == Role.OWNER


# -- the owner's page ----------------------------------------------------------------------------


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 302),
        ("outsider", 403),
        ("member", 403),
        ("director", 403),
        ("owner", 200),
        ("superuser", 200),
    ],
)
def test_roles_page_is_for_owners(client, club, owner, member, who, status, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("club_roles", args=[club.slug]))
    assert response.status_code == status
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("outsider", 403), ("member", 403), ("director", 403), ("owner", 302)],
)
def test_only_owners_change_roles(client, club, owner, member, who, status, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    membership = Membership.objects.get(club=club, user=member)
    url = reverse("club_role_set", args=[club.slug, membership.pk])
    response = client.post(url, {"role": Role.DIRECTOR})
    assert response.status_code == status
    expected = Role.DIRECTOR if who == "owner" else Role.MEMBER
    assert Membership.objects.get(pk=membership.pk).role == expected


def test_changing_roles_is_post_only(client, club, owner, member):
    client.force_login(owner)
    membership = Membership.objects.get(club=club, user=member)
    response = client.get(reverse("club_role_set", args=[club.slug, membership.pk]))
    assert response.status_code == 405


def test_the_club_page_links_the_roles_page_for_owners_only(client, club, owner, member):
    url = reverse("club_roles", args=[club.slug])
    client.force_login(member)
    assert url not in client.get(club.get_absolute_url()).content.decode()
    client.force_login(owner)
    page = client.get(club.get_absolute_url()).content.decode()
    assert url in page
    assert "Roles and their history" in page


def test_owner_changes_a_role_and_sees_it_in_the_history(client, club, owner, member):
    client.force_login(owner)
    membership = Membership.objects.get(club=club, user=member)
    response = client.post(
        reverse("club_role_set", args=[club.slug, membership.pk]),
        {"role": Role.SCORER},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("club_roles", args=[club.slug])
    page = response.content.decode()
    assert f"New role for {member.get_full_name()}: scorer." in page
    assert history(club)[-1] == (member.username, "member", "scorer", owner.username)
    table = response.context["history"]
    first = next(iter(table.rows))  # newest first
    assert first.get_cell("user") == member.get_full_name()
    assert first.get_cell("old_role") == "member"
    assert first.get_cell("new_role") == "scorer"
    assert first.get_cell("changed_by") == owner.get_full_name()


def test_the_only_owner_is_offered_no_role_change_and_a_forced_one_is_refused(
    client, club, owner, member
):
    client.force_login(owner)
    page = client.get(reverse("club_roles", args=[club.slug]))
    mine = Membership.objects.get(club=club, user=owner)
    theirs = Membership.objects.get(club=club, user=member)
    html = page.content.decode()
    assert reverse("club_role_set", args=[club.slug, theirs.pk]) in html
    assert reverse("club_role_set", args=[club.slug, mine.pk]) not in html
    assert "The club's only owner" in html

    response = client.post(
        reverse("club_role_set", args=[club.slug, mine.pk]), {"role": Role.MEMBER}, follow=True
    )
    assert "A club must always keep at least one owner" in response.content.decode()
    assert Membership.objects.get(pk=mine.pk).role == Role.OWNER


def test_an_owner_who_steps_down_returns_to_the_club_page(client, club, owner, member):
    Membership.objects.filter(club=club, user=member).update(role=Role.OWNER)
    client.force_login(owner)
    mine = Membership.objects.get(club=club, user=owner)
    response = client.post(
        reverse("club_role_set", args=[club.slug, mine.pk]), {"role": Role.DIRECTOR}
    )
    assert response["Location"] == club.get_absolute_url()
    assert client.get(reverse("club_roles", args=[club.slug])).status_code == 403


def test_a_role_that_does_not_exist_is_refused(client, club, owner, member):
    client.force_login(owner)
    membership = Membership.objects.get(club=club, user=member)
    response = client.post(
        reverse("club_role_set", args=[club.slug, membership.pk]), {"role": "king"}, follow=True
    )
    assert "Pick one of the offered roles." in response.content.decode()
    assert Membership.objects.get(pk=membership.pk).role == Role.MEMBER


def test_an_owner_cannot_reach_another_clubs_membership(client, club, owner):
    elsewhere = MembershipFactory(role=Role.MEMBER)
    client.force_login(owner)
    response = client.post(
        reverse("club_role_set", args=[club.slug, elsewhere.pk]), {"role": Role.OWNER}
    )
    assert response.status_code == 404
    assert Membership.objects.get(pk=elsewhere.pk).role == Role.MEMBER


def test_history_is_newest_first_and_paginated(client, club, owner):
    membership = membership_add(club=club, user=UserFactory(username="busy"), by=owner)
    roles = [Role.SCORER, Role.DIRECTOR, Role.MEMBER] * 10
    for role in roles:
        membership_role_set(membership=membership, role=role, by=owner)
    client.force_login(owner)
    url = reverse("club_roles", args=[club.slug])
    first = client.get(url).context["history"]
    assert first.paginator.count == MembershipChange.objects.filter(club=club).count()
    assert len(first.page.object_list) == 25
    newest = next(iter(first.rows)).record
    assert newest == MembershipChange.objects.filter(club=club).order_by("-pk").first()
    second = client.get(url, {"history-page": 2}).context["history"]
    assert second.page.number == 2
    oldest = list(second.page.object_list)[-1].record
    assert oldest == MembershipChange.objects.filter(club=club).order_by("pk").first()


def test_history_names_deleted_accounts_and_changes_by_no_one(client, club, owner):
    gone = UserFactory(username="gone")
    Membership.objects.create(club=club, user=gone)  # made around the services
    gone.delete()
    client.force_login(owner)
    rows = list(client.get(reverse("club_roles", args=[club.slug])).context["history"].rows)
    assert rows[0].get_cell("user") == "deleted account"
    assert rows[0].get_cell("changed_by") == "—"
    assert rows[0].get_cell("old_role") == "not a member"


# -- the admin goes through the services ---------------------------------------------------------


def test_admin_adds_changes_and_removes_through_the_services(client, club, owner, superuser):
    client.force_login(superuser)
    newcomer = UserFactory(username="newcomer")
    response = client.post(
        reverse("admin:tournaments_membership_add"),
        {"club": club.pk, "user": newcomer.pk, "role": Role.SCORER},
    )
    assert response.status_code == 302, response.content.decode()
    membership = Membership.objects.get(club=club, user=newcomer)
    # The player made for every new member is there too.
    assert club.players.filter(user=newcomer).exists()

    change_url = reverse("admin:tournaments_membership_change", args=[membership.pk])
    response = client.post(change_url, {"role": Role.DIRECTOR})
    assert response.status_code == 302, response.content.decode()

    delete_url = reverse("admin:tournaments_membership_delete", args=[membership.pk])
    response = client.post(delete_url, {"post": "yes"})
    assert response.status_code == 302
    assert [row for row in history(club) if row[0] == "newcomer"] == [
        ("newcomer", "", "scorer", "root"),
        ("newcomer", "scorer", "director", "root"),
        ("newcomer", "director", "", "root"),
    ]


def test_admin_keeps_club_and_person_of_a_membership_fixed(client, club, member, superuser):
    client.force_login(superuser)
    membership = Membership.objects.get(club=club, user=member)
    other = UserFactory(username="other")
    change_url = reverse("admin:tournaments_membership_change", args=[membership.pk])
    client.post(change_url, {"role": Role.SCORER, "user": other.pk, "club": ClubFactory().pk})
    membership.refresh_from_db()
    assert (membership.club, membership.user, membership.role) == (club, member, Role.SCORER)


def test_admin_refuses_to_demote_or_delete_the_last_owner(client, club, owner, superuser):
    client.force_login(superuser)
    membership = Membership.objects.get(club=club, user=owner)
    before = MembershipChange.objects.count()
    change_url = reverse("admin:tournaments_membership_change", args=[membership.pk])
    response = client.post(change_url, {"role": Role.MEMBER})
    assert response.status_code == 200  # the form again, with the reason
    assert "A club must always keep at least one owner" in response.content.decode()

    delete_url = reverse("admin:tournaments_membership_delete", args=[membership.pk])
    response = client.post(delete_url, {"post": "yes"})
    assert "A club must always keep at least one owner" in response.content.decode()

    changelist = reverse("admin:tournaments_membership_changelist")
    response = client.post(
        changelist,
        {"action": "delete_selected", "_selected_action": [membership.pk], "post": "yes"},
    )
    assert Membership.objects.get(pk=membership.pk).role == Role.OWNER
    assert MembershipChange.objects.count() == before


def test_admin_bulk_delete_goes_through_the_services(client, club, owner, member, superuser):
    client.force_login(superuser)
    scorer = MembershipFactory(club=club, role=Role.SCORER)
    ids = [Membership.objects.get(club=club, user=member).pk, scorer.pk]
    response = client.post(
        reverse("admin:tournaments_membership_changelist"),
        {"action": "delete_selected", "_selected_action": ids, "post": "yes"},
    )
    assert response.status_code == 302
    assert not Membership.objects.filter(pk__in=ids).exists()
    removed = MembershipChange.objects.filter(club=club, new_role="")
    assert sorted(removed.values_list("old_role", "changed_by__username")) == [
        ("member", "root"),
        ("scorer", "root"),
    ]


def _club_admin_post(club: Club, rows: list[dict[str, object]], extra: list[dict[str, object]]):
    data: dict[str, object] = {
        "name": club.name,
        "slug": club.slug,
        "description": club.description,
        "language": club.language,
        "time_zone": club.time_zone,
        "memberships-TOTAL_FORMS": len(rows) + len(extra),
        "memberships-INITIAL_FORMS": len(rows),
        "memberships-MIN_NUM_FORMS": 0,
        "memberships-MAX_NUM_FORMS": 1000,
    }
    for index, row in enumerate([*rows, *extra]):
        for key, value in row.items():
            data[f"memberships-{index}-{key}"] = value
        data[f"memberships-{index}-club"] = club.pk
    return data


def _inline_row(membership: Membership, **changes: object) -> dict[str, object]:
    return {"id": membership.pk, "user": membership.user_id, "role": membership.role, **changes}


def test_club_admin_inline_goes_through_the_services(client, club, owner, member, superuser):
    client.force_login(superuser)
    mine = Membership.objects.get(club=club, user=owner)
    theirs = Membership.objects.get(club=club, user=member)
    newcomer = UserFactory(username="newcomer")
    # One save hands the ownership over, and adds someone.
    data = _club_admin_post(
        club,
        [_inline_row(mine, role=Role.DIRECTOR), _inline_row(theirs, role=Role.OWNER)],
        [{"user": newcomer.pk, "role": Role.SCORER}],
    )
    response = client.post(reverse("admin:tournaments_club_change", args=[club.pk]), data)
    assert response.status_code == 302, response.context["inline_admin_formsets"][0].formset.errors
    recent = history(club)[-3:]
    assert sorted(recent) == sorted(
        [
            ("newcomer", "", "scorer", "root"),
            (member.username, "member", "owner", "root"),
            (owner.username, "owner", "director", "root"),
        ]
    )

    # Removing through the inline.
    added = Membership.objects.get(club=club, user=newcomer)
    data = _club_admin_post(
        club,
        [
            _inline_row(mine.__class__.objects.get(pk=mine.pk)),
            _inline_row(theirs.__class__.objects.get(pk=theirs.pk)),
            _inline_row(added, DELETE="on"),
        ],
        [],
    )
    response = client.post(reverse("admin:tournaments_club_change", args=[club.pk]), data)
    assert response.status_code == 302
    assert history(club)[-1] == ("newcomer", "scorer", "", "root")


@pytest.mark.parametrize("how", ["demote", "delete"])
def test_club_admin_inline_refuses_to_leave_no_owner(client, club, owner, member, superuser, how):
    client.force_login(superuser)
    mine = Membership.objects.get(club=club, user=owner)
    theirs = Membership.objects.get(club=club, user=member)
    change = {"role": Role.MEMBER} if how == "demote" else {"DELETE": "on"}
    data = _club_admin_post(club, [_inline_row(mine, **change), _inline_row(theirs)], [])
    before = MembershipChange.objects.count()
    response = client.post(reverse("admin:tournaments_club_change", args=[club.pk]), data)
    assert response.status_code == 200
    assert "A club must always keep at least one owner" in response.content.decode()
    assert Membership.objects.get(pk=mine.pk).role == Role.OWNER
    assert MembershipChange.objects.count() == before


def test_history_is_read_only_in_the_admin(client, club, owner, superuser):
    client.force_login(superuser)
    change = MembershipChange.objects.filter(club=club).first()
    assert client.get(reverse("admin:tournaments_membershipchange_changelist")).status_code == 200
    view = client.get(reverse("admin:tournaments_membershipchange_change", args=[change.pk]))
    assert view.status_code == 200
    assert 'name="_save"' not in view.content.decode()
    assert client.get(reverse("admin:tournaments_membershipchange_add")).status_code == 403
    delete = reverse("admin:tournaments_membershipchange_delete", args=[change.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert MembershipChange.objects.filter(pk=change.pk).exists()


def test_a_club_with_history_can_still_be_deleted_in_the_admin(client, club, owner, superuser):
    client.force_login(superuser)
    response = client.post(
        reverse("admin:tournaments_club_delete", args=[club.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Club.objects.filter(pk=club.pk).exists()
    assert get_user_model().objects.filter(pk=owner.pk).exists()
