"""Two computations of one club's game at once (two closes queued together, a redelivered
job beside a new one) never interleave: each waits for the other's lock, reads what it
committed, and the numbers end as one computation from nothing gives them."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from ratings.models import RatingRun
from ratings.services import ratings_recompute, ratings_update
from tests.bench.bench_ratings import build_history
from tests.support.ratings import ratings_of, steps_of
from tournaments.models import Event


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_replays_at_once_run_one_after_the_other():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL (make test does)")
    club = build_history(slug="together", nights=8, tables=6, players=24)
    ratings_recompute(club=club, game="rutupeli")
    nights = list(Event.objects.filter(club=club, variant_id="rutupeli").order_by("date"))
    since = [None, (nights[1].date, nights[1].pk, 0, 0), None, (nights[0].date, nights[0].pk, 1, 3)]
    barrier = threading.Barrier(len(since))
    problems: list[BaseException] = []

    def run(key) -> None:  # type: ignore[no-untyped-def]
        try:
            barrier.wait()
            ratings_update(club_id=club.pk, game="rutupeli", since=key)
        except BaseException as error:  # reported by the test
            problems.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(key,)) for key in since]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert problems == []
    run = RatingRun.objects.get(club=club, game="rutupeli")
    assert (run.version, run.games) == (1 + len(since), 2 * 6)
    together = steps_of(club), ratings_of(club)
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == together
