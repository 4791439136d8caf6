from __future__ import annotations

from django.contrib.auth import authenticate
from django.core.management import call_command

from tournaments.models import Club, Membership


def test_demo_loader_is_repeatable_and_its_accounts_sign_in(db, capsys):
    call_command("demo_load")
    call_command("demo_load")
    club = Club.objects.get(slug="demo")
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"director": "director", "scorer": "scorer", "member": "member"}
    assert club.member_count == 3
    for name in roles:
        assert authenticate(username=name, password=name) is not None
    assert "password director" in capsys.readouterr().out


def test_demo_shows_a_night_for_every_game_with_each_state(db):
    from scoring.models import DealVersion
    from scoring.selectors import event_sheets
    from tournaments.models import Event

    call_command("demo_load")
    events = Event.objects.filter(club__slug="demo")
    assert sorted(events.values_list("variant_id", flat=True)) == sorted(
        ["rutupeli", "ravaytys", "gin_romi", "tizlapos_romi"]
    )
    sheets = [sheet for event in events for sheet in event_sheets(event=event)]
    assert any(sheet.standing.finished and sheet.has_final for sheet in sheets)  # a Gin game over
    assert any(sheet.unconfirmed for sheet in sheets)
    assert any(deal.is_confirmed for sheet in sheets for deal in sheet.deals)
    assert DealVersion.objects.filter(action="correct").exists()
