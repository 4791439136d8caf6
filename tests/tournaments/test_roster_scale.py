"""A 2,000-row roster through the pages (preview, then confirm): the queries stay flat in the
rows, and two directors importing one list at once add each person once (PostgreSQL)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.factories import ClubFactory, MembershipFactory
from tournaments.models import Player, Role
from tournaments.roster import RosterRow, roster_import


def _names(count: int) -> list[str]:
    return [f"Pelaaja {n:04} Väisänen" for n in range(count)]


@pytest.mark.django_db
@pytest.mark.parametrize("count", [20, 2000])
def test_a_paste_and_its_confirm_keep_their_queries_flat(client, count, capsys):
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    Player.objects.bulk_create(
        [Player(club=club, name=f"Vanha {n}", name_key=f"vanha {n}") for n in range(300)]
    )
    client.force_login(director)
    # Templates and catalogues load on a first page: not the import's time.
    client.post(reverse("roster_paste", args=[club.slug]), {"names": "Warm Up"})
    text = "\n".join(_names(count))
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as preview_queries:
        response = client.post(reverse("roster_paste", args=[club.slug]), {"names": text})
    preview_time = time.perf_counter() - started
    assert response.status_code == 200
    token = response.context["confirm"]["rows"].value()
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as confirm_queries:
        response = client.post(reverse("roster_confirm", args=[club.slug]), {"rows": token})
    confirm_time = time.perf_counter() - started
    assert response.status_code == 302
    assert Player.objects.filter(club=club, user=None).count() == 300 + count
    inserts = sum(q["sql"].startswith("INSERT") for q in confirm_queries.captured_queries)
    # The preview reads the roster once whatever the list's length; the confirm's only
    # rows-dependent queries are the inserts, as few as the database takes (one on
    # PostgreSQL; SQLite's 999-value statements hold 999 // (a player's columns) each).
    assert len(preview_queries) <= 12
    assert len(confirm_queries) - inserts <= 12
    per_statement = 999 // (len(Player._meta.concrete_fields) - 1)
    assert inserts <= (1 if connection.vendor == "postgresql" else -(-count // per_statement))
    with capsys.disabled():
        print(
            f"\n[{connection.vendor}] {count} rows: preview {len(preview_queries)} queries "
            f"{preview_time:.2f} s; confirm {len(confirm_queries)} queries ({inserts} inserts) "
            f"{confirm_time:.2f} s"
        )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_imports_at_once_add_each_person_once():
    """Two directors confirm the same list at the same moment: the club's row lock makes the
    second wait and then see the first one's players, so nobody is added twice."""
    club = ClubFactory()
    rows = [RosterRow(row=n, name=name) for n, name in enumerate(_names(200), start=1)]
    start = threading.Barrier(2)
    added: list[object] = []

    def run() -> None:
        try:
            start.wait(timeout=10)
            added.append(roster_import(club=club, rows=rows, add_anyway=set()))
        except Exception as error:  # shown by the assertion below
            added.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(added) == [0, 200], added  # type: ignore[type-var]
    assert Player.objects.filter(club=club).count() == 200
