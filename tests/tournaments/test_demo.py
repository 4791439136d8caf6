from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from scoring.demo import LATE_NIGHT
from tournaments.models import Club, Event, Membership, MembershipChange, Player, Role
from tournaments.selectors import late_arrivals, player_picker


def signs_in(client, username: str, password: str) -> bool:
    # Through the sign-in page: the sign-in throttle's backend needs the request.
    response = client.post(reverse("login"), {"username": username, "password": password})
    client.logout()
    return response.status_code == 302


def test_demo_loader_is_repeatable_and_its_accounts_sign_in(db, client, capsys):
    call_command("demo_load")
    call_command("demo_load")
    club = Club.objects.get(slug="demo")
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"director": "director", "scorer": "scorer", "member": "member"}
    assert club.member_count == 3
    for name in [*roles, "admin"]:
        assert signs_in(client, name, name), name
    out = capsys.readouterr().out
    assert "password director" in out
    assert "password admin" in out


def test_the_director_is_no_superuser_and_the_admin_account_is(db, client):
    call_command("demo_load")
    users = get_user_model().objects
    director, admin = users.get(username="director"), users.get(username="admin")
    assert (director.is_staff, director.is_superuser) == (False, False)
    assert (admin.is_staff, admin.is_superuser) == (True, True)
    assert not Membership.objects.filter(user=admin).exists()  # a site admin, in no club
    client.force_login(director)
    assert client.get(reverse("admin:index")).status_code == 302  # the admin is not theirs
    club = Club.objects.get(slug="demo")
    assert client.get(reverse("club_roles", args=[club.slug])).status_code == 403
    client.force_login(admin)
    assert client.get(reverse("admin:index")).status_code == 200


def test_an_older_demos_superuser_director_is_demoted(db, client):
    old = get_user_model().objects.create_superuser("director", password="director")
    call_command("demo_load")
    old.refresh_from_db()
    assert (old.is_staff, old.is_superuser) == (False, False)
    assert signs_in(client, "director", "director")  # the password is left as it was


def test_reloading_only_puts_back_what_is_missing(db):
    call_command("demo_load")
    club = Club.objects.get(slug="demo")

    def counts():
        return (
            get_user_model().objects.count(),
            Membership.objects.count(),
            MembershipChange.objects.count(),
            Player.objects.count(),
            club.events.count(),
        )

    loaded = counts()
    call_command("demo_load")
    assert counts() == loaded  # nothing new: no second membership, no history of a non-change

    Membership.objects.get(club=club, user__username="scorer").delete()
    changed = Membership.objects.get(club=club, user__username="member")
    changed.role = Role.DIRECTOR  # a visitor's change, left alone
    changed.save()
    call_command("demo_load")
    assert Membership.objects.get(club=club, user__username="scorer").role == Role.SCORER
    assert Membership.objects.get(club=club, user__username="member").role == Role.DIRECTOR
    # The put-back membership is in the club's history, as the first one was.
    added = MembershipChange.objects.filter(club=club, old_role="", user__username="scorer")
    assert added.count() == 2


def test_demo_shows_a_night_for_every_game_with_each_state(db):
    from scoring.models import DealVersion
    from scoring.selectors import event_sheets
    from tournaments.models import Event

    call_command("demo_load")
    events = Event.objects.filter(club__slug="demo")
    assert set(events.values_list("variant_id", flat=True)) == {
        "rutupeli",
        "ravaytys",
        "gin_romi",
        "tizlapos_romi",
    }
    # A finished night: every game confirmed, the event closed, its PIN option shown.
    finished = events.get(status="finished")
    assert finished.confirm_needs_pin
    (sheet,) = event_sheets(event=finished)
    assert sheet.standing.finished and not sheet.unconfirmed
    sheets = [sheet for event in events for sheet in event_sheets(event=event)]
    assert any(sheet.standing.finished and sheet.has_final for sheet in sheets)  # a Gin game over
    assert any(sheet.unconfirmed for sheet in sheets)
    assert any(deal.is_confirmed for sheet in sheets for deal in sheet.deals)
    assert DealVersion.objects.filter(action="correct").exists()


def test_demo_has_late_arrivals_to_seat_and_a_past_guest_out_of_the_picker(db):
    call_command("demo_load")
    night = Event.objects.get(club__slug="demo", name=LATE_NIGHT)
    plan = late_arrivals(event=night)
    assert plan is not None and plan.seatable
    assert sorted(r.player.name for r in plan.waiting) == ["Anna", "Bence"]
    # They are offered the table yet to play, not the one already playing.
    joining = {row.number: row.joining for row in plan.preview}
    assert sorted(joining.get(2, [])) == ["Anna", "Bence"] and not joining.get(1)
    picker = player_picker(event=night)
    assert "Vieras Ville" not in [p.name for p in picker.own + picker.guests]
    assert picker.hidden_guests >= 1
    assert "Vieras Ville" in [p.name for p in player_picker(event=night, past_guests=True).guests]
