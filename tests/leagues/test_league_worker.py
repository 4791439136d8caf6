"""The league table's recomputation against a real Celery worker on Redis and PostgreSQL:
queued when the result's transaction commits, run by the worker, the table current after.

`make test` runs these in its PostgreSQL pass with REDIS_URL set (see
tests/conftest.py for the worker fixture used here).
"""

from __future__ import annotations

import pytest
from django.db import transaction

from formats.finish import event_finish
from leagues.services import league_recompute
from tests.support.factories import ClubFactory
from tests.support.leagues import night, players_of, season_of
from tests.support.waiting import wait_until
from tournaments.models import Season

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


def _wait_until_current(season: Season, *, timeout: float = 45) -> Season:
    def current() -> bool:
        season.refresh_from_db()
        return season.league_stale_since is None and season.league_rows is not None

    wait_until(current, timeout=timeout, what="the worker to recompute the table")
    return season


def test_finishing_a_night_is_recomputed_by_the_worker(
    transactional_db,
    celery_worker_process,
):
    club = ClubFactory()
    season = season_of(club)
    a, b, c = players_of(club, "Aino", "Bertta", "Cecilia")
    night(season, [a, b, c], day=1)
    tonight = night(season, [c, b, a], day=2, finish=False)
    _wait_until_current(season)
    computed = season.league_computed_at
    assert [event["finished"] for event in season.league_rows["events"]] == [True, False]

    with transaction.atomic():
        event_finish(event=tonight, confirmed=True)
        season.refresh_from_db()
        # Marked in the result's own transaction; the job waits for the commit.
        assert season.league_stale_since is not None
    season = _wait_until_current(season)
    assert season.league_computed_at > computed
    assert [event["finished"] for event in season.league_rows["events"]] == [True, True]
    assert [row["name"] for row in season.league_rows["rows"]] == ["Aino", "Cecilia", "Bertta"]


def test_the_workers_run_and_a_second_one_agree(
    transactional_db,
    celery_worker_process,
):
    club = ClubFactory()
    season = season_of(club)
    a, b, c = players_of(club, "Aino", "Bertta", "Cecilia")
    night(season, [b, c, a], day=1)
    season = _wait_until_current(season)
    by_worker = season.league_rows["rows"]
    again = league_recompute(season_id=season.pk)
    assert again is not None and again.league_rows["rows"] == by_worker
