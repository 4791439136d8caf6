"""A merge while phones save deals at the duplicate's tables, in real concurrent
transactions: no deal is lost, the merge is whole, and nobody meets a deadlock or a 500.

PostgreSQL only: SQLite serialises whole-database writes, which proves nothing about locks.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from scoring.models import Deal
from scoring.services import Actor, deal_record
from tests.support.entry import ENTRY_A
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.merge import player_merge
from tournaments.models import Player, PlayerMerge, Registration, Role, Seat

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_merge_and_deals_saved_at_once_both_stand():
    event, tables = seated_event(variant_id="rutupeli", players=8)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    dup = tables[0].seats.get(position=0).player
    kept = Player.objects.create(club=event.club, name=dup.name)
    barrier = threading.Barrier(1 + len(tables))
    outcomes: dict[str, object] = {}

    def merge() -> None:
        try:
            barrier.wait()
            outcomes["merge"] = player_merge(kept=kept, merged=dup, by=director, confirmed=True)
        except Exception as error:
            outcomes["merge"] = error
        finally:
            connection.close()

    def save(table) -> None:
        try:
            barrier.wait()
            outcomes[f"table {table.number}"] = deal_record(
                table=table,
                number=1,
                entry=ENTRY_A,
                by=Actor(device=f"phone-{table.number}", seat=1),
                expected_version=0,
                request_id=f"r{table.number}",
            )
        except Exception as error:
            outcomes[f"table {table.number}"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=merge)]
    threads += [threading.Thread(target=save, args=(table,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert isinstance(outcomes["merge"], PlayerMerge), outcomes
    assert all(isinstance(outcomes[f"table {t.number}"], Deal) for t in tables), outcomes
    assert Deal.objects.filter(table__in=tables).count() == len(tables)
    assert not Seat.objects.filter(player=dup).exists()
    assert not Registration.objects.filter(player=dup).exists()
    assert Seat.objects.filter(player=kept, table=tables[0]).exists()


def test_two_merges_of_one_duplicate_at_once_make_one():
    event, tables = seated_event(variant_id="rutupeli", players=4)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    dup = tables[0].seats.get(position=0).player
    first = Player.objects.create(club=event.club, name="First")
    second = Player.objects.create(club=event.club, name="Second")
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def run(index: int, kept: Player) -> None:
        try:
            barrier.wait()
            outcomes[index] = player_merge(kept=kept, merged=dup, by=director, confirmed=True)
        except Exception as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, k)) for i, k in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    merges = [o for o in outcomes if isinstance(o, PlayerMerge)]
    assert len(merges) == 1, outcomes
    assert PlayerMerge.objects.count() == 1
    assert getattr(next(o for o in outcomes if o not in merges), "code", None) == "merged"
    assert Player.objects.get(pk=dup.pk).merged_into_id == merges[0].kept_id
