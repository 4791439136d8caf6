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
