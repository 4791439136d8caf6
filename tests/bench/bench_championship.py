"""Closing a championship stage of 250 tables (1000 players) and drawing the next, on the site.

Issue 10's budget: under 2 s, queries included, and a number of queries that does not grow
with the stage. The figure is `formats.championship.championship_stage_close` on a stage
whose every table has finished and confirmed its game; the label gives the queries it ran,
and the queries the same close runs on a stage of 10 tables, to show they are the same.

How the finished stage is built (:func:`finished_stage`; tests/scoring/
test_championship_scale.py builds its stages the same way): a Rutupeli championship is
created, its players registered and checked in, and stage 1 drawn and confirmed, all through
the services. One table per winning seat (four tables) then plays its whole game through
`deal_record` and `deal_confirm` (seven deals, each entered at one seat and confirmed at
another), so those rows are exactly what the site stores. Every other table gets a copy of
one of those tables' `Deal` rows and their `DealVersion` history (bulk_create), with only
the table, and the request ids, changed: a copy of a game the engine scored, at a table of
the same size. Tables are marked `has_scores`, as the first save would have.

On SQLite the count grows by one per ~200 players of the next stage: Django splits the new
seats' INSERT into batches of SQLite's 999 parameters (five per seat), so 250 winners take
two INSERTs where 10 take one. PostgreSQL sends it as one, and the counts are equal.

Each measured close is undone afterwards (the new stage deleted, the closed one reopened),
outside the timing, so every run closes the same stage with the same seed.

Runs in a child process, so that its choice of database cannot change the other benches':
PostgreSQL when DATABASE_URL is set, else SQLite, in a throw-away test database
(test_<name>) created and dropped around the run. Run ``python
tests/bench/bench_championship.py``; `make bench` calls :func:`run`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TABLES = 250
SMALL_TABLES = 10
SEATS = 4
RUNS = 5
DEALS = 7  # Rutupeli: seven deals, each its contract
SEED = 5


def _entry(out: int, points: list[int]) -> dict[str, Any]:
    return {
        "out": out,
        "players": [
            {"cards": None, "points": None if seat == out else value, "buys": 0}
            for seat, value in enumerate(points)
        ],
    }


def _game(seats: int, winner: int) -> list[dict[str, Any]]:
    """`winner` goes out every deal; the others take 10, 20, … points by seat: no ties."""
    return [
        _entry(winner, [0 if seat == winner else 10 * (seat + 1) for seat in range(seats)])
        for _ in range(DEALS)
    ]


def finished_stage(tables: int, *, seats: int = SEATS, name: str = "Bench") -> tuple[Any, Any]:
    """A championship whose stage 1 has `tables` tables of `seats` players, each table's
    game finished and every deal confirmed: (stage, director). See the module docstring."""
    # Imported here: the module is imported by `make bench` before Django is set up.
    import datetime

    from django.contrib.auth.models import User

    from scoring.models import Deal, DealVersion
    from scoring.services import Actor, deal_confirm, deal_record
    from tournaments.models import Club, EventFormat, Membership, Player, Role, Table
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    club = Club.objects.create(name=name, slug=name.lower())
    director = User.objects.create_user(username=f"{name.lower()}-director")
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    event = event_create(
        published=True,
        club=club,
        name=f"{name} championship",
        date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
        preferred_table_size=seats,
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
    )
    players = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {index + 1:04d}") for index in range(tables * seats)]
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=SEED)
    stage_confirm(stage=stage)
    seated = list(Table.objects.filter(stage=stage).order_by("number"))
    sizes = {table.seats.count() for table in seated[:seats]}
    if len(seated) != tables or sizes != {seats}:
        raise AssertionError(f"drew {len(seated)} tables of {sizes}, not {tables} of {seats}")

    # The templates: one table per winning seat plays its game through the services.
    templates = seated[:seats]
    for winner, table in enumerate(templates):
        entering = Actor(device=f"{table.pk}-enter", seat=(winner + 1) % seats)
        confirming = Actor(device=f"{table.pk}-confirm", seat=(winner + 2) % seats)
        for number, item in enumerate(_game(seats, winner), start=1):
            deal = deal_record(
                table=table,
                number=number,
                entry=item,
                by=entering,
                expected_version=0,
                request_id=f"t{table.number}-d{number}-submit",
            )
            deal_confirm(
                deal=deal,
                by=confirming,
                expected_version=deal.version,
                request_id=f"t{table.number}-d{number}-confirm",
            )
    by_template = {
        table.pk: list(Deal.objects.filter(table=table).order_by("number")) for table in templates
    }
    versions: dict[int, list[Any]] = {}
    for version in DealVersion.objects.filter(deal__table__in=templates).order_by("version"):
        versions.setdefault(version.deal_id, []).append(version)

    # The copies: every other table gets one template's deals and their history.
    copies: list[tuple[Any, Any]] = []  # (new deal, template deal)
    for index, table in enumerate(seated[seats:], start=seats):
        for deal in by_template[templates[index % seats].pk]:
            copy = Deal(
                table=table,
                number=deal.number,
                contract=deal.contract,
                entry=deal.entry,
                points=deal.points,
                flags=deal.flags,
                status=deal.status,
                version=deal.version,
                submitted_seat=deal.submitted_seat,
                submitted_device=deal.submitted_device,
            )
            copies.append((copy, deal))
    Deal.objects.bulk_create([copy for copy, _template in copies], batch_size=500)
    DealVersion.objects.bulk_create(
        [
            DealVersion(
                deal=copy,
                version=version.version,
                action=version.action,
                entry=version.entry,
                points=version.points,
                status=version.status,
                by_user=version.by_user,
                by_seat=version.by_seat,
                device=version.device,
                request_id=f"{version.request_id}-copy{copy.table.number}",
                flag=version.flag,
                note=version.note,
            )
            for copy, template in copies
            for version in versions[template.pk]
        ],
        batch_size=500,
    )
    Table.objects.filter(stage=stage).update(has_scores=True)
    stage.refresh_from_db()
    return stage, director


def reopen(stage: Any) -> Any:
    """Undo a close of `stage`: the stage it drew deleted, `stage` in play again."""
    from tournaments.models import Stage, StageStatus

    Stage.objects.filter(event_id=stage.event_id, number__gt=stage.number).delete()
    Stage.objects.filter(pk=stage.pk).update(
        status=StageStatus.CONFIRMED, outcome={}, closed_at=None
    )
    return Stage.objects.get(pk=stage.pk)


def _close(stage: Any, director: Any) -> tuple[float, int, int]:
    """One close: (microseconds, queries, tables of the stage it drew)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from formats.championship import championship_stage_close

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter_ns()
        following = championship_stage_close(stage=stage, by=director, seed=SEED)
        elapsed = (time.perf_counter_ns() - started) / 1000
    if following.number != stage.number + 1:
        raise AssertionError("the close drew no next stage")
    return elapsed, len(queries.captured_queries), following.tables.count()


def _measure() -> list[tuple[str, float, str]]:
    from django.db import connection

    backend = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    started = time.perf_counter()
    stage, director = finished_stage(TABLES)
    built = time.perf_counter() - started
    small, small_director = finished_stage(SMALL_TABLES, name="Small")
    _us, small_queries, _drawn = _close(small, small_director)
    timings: list[float] = []
    counts: set[int] = set()
    drawn = 0
    for _ in range(RUNS):
        elapsed, queries, drawn = _close(stage, director)
        timings.append(elapsed)
        counts.add(queries)
        stage = reopen(stage)
    shown = "/".join(str(count) for count in sorted(counts))
    # Why the counts may differ on SQLite: see the module docstring.
    split = ", SQLite's seats INSERT split" if counts != {small_queries} else ""
    return [
        (
            f"close a championship stage of {TABLES} tables ({TABLES * SEATS} players) and "
            f"draw the next ({drawn} tables) ({backend}; {shown} queries, {small_queries} at "
            f"{SMALL_TABLES} tables{split}; {RUNS} runs, slowest {max(timings) / 1e6:.2f} s; "
            f"data built in {built:.0f} s)",
            statistics.median(timings),
            "< 2 s, constant queries",
        )
    ]


def measure() -> list[tuple[str, float, str]]:
    """Set Django up on a throw-away test database and measure (in this process)."""
    # Imported here: run as a script, this file puts the project on sys.path only below.
    from tests.bench.testdb import on_test_database

    return on_test_database(_measure)


def run() -> list[tuple[str, float, str]]:
    """(name, median microseconds, target), measured in a child process."""
    from tests.bench.testdb import run_in_child  # imported by run.py, the project is on the path

    return run_in_child(__file__)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    rows = measure()
    if "--json" in sys.argv:
        print(json.dumps(rows))
    else:
        for label, median_us, target in rows:
            print(f"{label}: median {median_us / 1000:.0f} ms ({target})")
