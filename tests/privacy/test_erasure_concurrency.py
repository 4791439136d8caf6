"""Two directors erase two players of one club at the same moment: the club's row lock
keeps their numbers apart ("Former player 1" and "2"), neither fails."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from privacy.services import player_erase
from tests.support.factories import ClubFactory, UserFactory
from tournaments.models import Erasure, Player


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_erasures_at_once_get_numbers_of_their_own():
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=f"Pelaaja {n}") for n in (1, 2, 3, 4)]
    by = UserFactory()
    start = threading.Barrier(len(players))
    outcome: list[object] = []

    def erase(player: Player) -> None:
        try:
            start.wait(timeout=10)
            outcome.append(player_erase(player=player, by=by, confirmed=True).number)
        except Exception as error:  # a failure is the finding: kept to be asserted on
            outcome.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=erase, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcome) == [1, 2, 3, 4], outcome
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    assert names == {f"Former player {n}" for n in (1, 2, 3, 4)}
    assert Erasure.objects.filter(club=club).count() == 4
