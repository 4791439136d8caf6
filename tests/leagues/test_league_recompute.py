"""When a result that feeds a season's table changes (a deal saved, confirmed or corrected
at a night in play, a night finished, published or taken back), the table is marked out of
date in the same transaction and recomputed on commit; with no worker (or no broker) the
next read recomputes it. A result that feeds no table marks nothing."""

from __future__ import annotations

import datetime
import re
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from leagues import tasks as league_tasks
from leagues.services import league_recompute, season_league
from scoring.models import Deal
from scoring.services import Actor, deal_record
from tests.support.championship import entry, play
from tests.support.events import new_request_id
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.leagues import night, players_of, season_of
from tournaments.changes import results_change
from tournaments.models import Event, Role, Season
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_with_nights():
    club = ClubFactory()
    season = season_of(club)
    a, b, c = players_of(club, "Aino", "Bertta", "Cecilia")
    first = night(season, [a, b, c], day=1, finish=False)  # in play: its deals may change
    night(season, [b, a, c], day=2)
    league_recompute(season_id=season.pk)
    season.refresh_from_db()
    assert season.league_stale_since is None
    return season, first, (a, b, c)


def correct_last_deal(event, order) -> None:
    """A director turns night 1's last deal round: `order[0]` goes out, the others 10, 20 …"""
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    table = event.stages.get().tables.get()
    deal = Deal.objects.get(table=table, number=7)
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    rank = {player.pk: index for index, player in enumerate(order)}
    points = [100 * rank[player] for player in seats]
    deal_record(
        table=table,
        number=7,
        entry=entry(points.index(0), points),
        by=Actor(device="director-laptop", user=director),
        expected_version=deal.version,
        request_id=new_request_id(),
    )


def names(season: Season) -> list[str]:
    return [row.name for row in season_league(season=season).rows]


@pytest.fixture
def no_grace(settings):
    settings.LEAGUE_STALE_GRACE_SECONDS = 0


def test_a_corrected_deal_marks_the_table_stale_and_the_next_read_recomputes(
    season_with_nights, client, no_grace
):
    season, first, (a, b, c) = season_with_nights
    assert names(season) == ["Aino", "Bertta", "Cecilia"]
    computed = season.league_computed_at
    correct_last_deal(first, [c, b, a])  # no commit in this test: no task ran
    season.refresh_from_db()
    assert season.league_stale_since is not None
    assert season.league_computed_at == computed
    # Stale on read: the page recomputes in the request, without a worker.
    page = client.get(reverse("season_league", args=[season.club.slug, season.pk]))
    assert page.status_code == 200
    season.refresh_from_db()
    assert season.league_stale_since is None and season.league_computed_at > computed
    # Night 1 now: Cecilia 6×20 + 0, Bertta 6×10 + 100, Aino 0 + 200: Cecilia 10 points,
    # Bertta 7, Aino 5; with night 2 (Bertta, Aino, Cecilia): Bertta 17, Cecilia 15, Aino 12.
    assert names(season) == ["Bertta", "Cecilia", "Aino"]


def test_the_task_runs_on_commit_and_the_table_is_current_after(
    season_with_nights, django_capture_on_commit_callbacks
):
    season, first, (a, b, c) = season_with_nights
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        correct_last_deal(first, [c, b, a])
    assert len(callbacks) >= 1
    season.refresh_from_db()
    assert season.league_stale_since is None
    assert [row["name"] for row in season.league_rows["rows"]] == ["Bertta", "Cecilia", "Aino"]


def test_a_broker_that_is_down_fails_no_write_and_the_read_still_recomputes(
    season_with_nights, django_capture_on_commit_callbacks, caplog, no_grace
):
    season, first, (a, b, c) = season_with_nights
    down = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    task = league_tasks.league_recompute_task
    with (
        mock.patch.object(task, "apply_async", side_effect=down),
        django_capture_on_commit_callbacks(execute=True),
    ):
        correct_last_deal(first, [c, b, a])
    assert "could not recompute the league table" in caplog.text
    assert Deal.objects.get(table__stage__event=first, number=7).version == 2
    season.refresh_from_db()
    assert season.league_stale_since is not None
    assert names(season) == ["Bertta", "Cecilia", "Aino"]


def test_a_table_just_computed_is_shown_marked_while_the_job_follows(season_with_nights, client):
    season, first, (a, b, c) = season_with_nights
    correct_last_deal(first, [c, b, a])
    season.refresh_from_db()
    league = season_league(season=season)
    assert league.stale and not league.recomputed
    assert [row.name for row in league.rows] == ["Aino", "Bertta", "Cecilia"]
    body = client.get(reverse("season_league", args=[season.club.slug, season.pk])).content
    assert b"it is being updated" in body
    # Once the stored table is older than the grace, a read recomputes it.
    Season.objects.filter(pk=season.pk).update(
        league_computed_at=season.league_computed_at - datetime.timedelta(minutes=1)
    )
    season.refresh_from_db()
    league = season_league(season=season)
    assert league.recomputed and not league.stale
    assert [row.name for row in league.rows] == ["Bertta", "Cecilia", "Aino"]


def test_publishing_and_unpublishing_a_night_changes_the_table(season_with_nights, no_grace):
    season, _first, _players = season_with_nights
    first = season.events.get(name="Night 2")
    event_publish(event=first, published=False)
    season.refresh_from_db()
    assert season.league_stale_since is not None
    league = season_league(season=season)
    assert [event.name for event in league.events] == ["Night 1"]
    event_publish(event=first, published=True)
    season.refresh_from_db()
    assert [event.name for event in season_league(season=season).events] == ["Night 1", "Night 2"]


def test_a_deal_at_a_private_night_or_one_of_no_season_marks_nothing(season_with_nights):
    season, _first, (a, b, c) = season_with_nights
    for private in (night(season, [a, b, c], day=3, finish=False, published=False),
                    night(season, [a, b, c], day=4, finish=False)):  # fmt: skip
        if private.is_published:
            Event.objects.filter(pk=private.pk).update(season=None)
        table = private.stages.get().tables.get()
        Deal.objects.filter(table=table).delete()
        Season.objects.filter(pk=season.pk).update(league_stale_since=None)
        deal_record(
            table=table,
            number=1,
            entry=entry(0, [0, 10, 20]),
            by=Actor(device="phone", seat=1),
            expected_version=0,
            request_id=new_request_id(),
        )
        season.refresh_from_db()
        assert season.league_stale_since is None


def test_a_deal_saved_at_a_night_in_play_marks_its_season(season_with_nights):
    season, first, (a, b, c) = season_with_nights
    correct_last_deal(first, [c, b, a])
    season.refresh_from_db()
    assert season.league_stale_since is not None


def test_finishing_a_night_marks_its_season(season_with_nights, no_grace):
    season, _first, (a, b, c) = season_with_nights
    night(season, [c, b, a], day=3)
    season.refresh_from_db()
    assert season.league_stale_since is not None
    league = season_league(season=season)
    assert [event.finished for event in league.events] == [False, True, True]
    # Aino 10 + 7 + 5, Bertta 7 + 10 + 7, Cecilia 5 + 5 + 10.
    assert [(row.name, row.points) for row in league.rows] == [
        ("Bertta", 24.0),
        ("Aino", 22.0),
        ("Cecilia", 20.0),
    ]


def test_a_scheme_changed_behind_the_services_back_is_still_recomputed(season_with_nights):
    season, _first, _players = season_with_nights
    Season.objects.filter(pk=season.pk).update(league_scheme={"kind": "penalty_total"})
    season.refresh_from_db()
    league = season_league(season=season)
    assert league.recomputed
    assert league.payload["scheme"]["kind"] == "penalty_total"
    assert not season_league(season=season).recomputed


def test_the_task_skips_a_table_that_is_current(season_with_nights):
    season, _first, _players = season_with_nights
    computed = season.league_computed_at
    result = league_tasks.league_recompute_task.apply(args=[season.pk]).get()
    assert result["season_id"] == season.pk and result["rows"] == 3
    season.refresh_from_db()
    assert season.league_computed_at == computed
    assert league_tasks.league_recompute_task.apply(args=[999_999]).get() is None


def test_a_renamed_or_deleted_night_leaves_the_table_current(season_with_nights, no_grace):
    season, first, _players = season_with_nights
    second = season.events.get(name="Night 2")
    second.name = "Season opener"
    second.save()
    season.refresh_from_db()
    assert season.league_stale_since is not None
    assert [event.name for event in season_league(season=season).events] == [
        "Night 1",
        "Season opener",
    ]
    first.delete()
    season.refresh_from_db()
    assert [event.name for event in season_league(season=season).events] == ["Season opener"]


def test_a_finished_nights_results_are_taken_from_the_stored_table_until_they_change(
    season_with_nights,
):
    season, _first, (a, b, c) = season_with_nights
    second = season.events.get(name="Night 2")
    Event.objects.filter(season=season).update(
        results_changed_at=timezone.now() - datetime.timedelta(minutes=5)
    )
    league_recompute(season_id=season.pk)  # read after the change: night 2 now reusable
    # Night 2's deals rewritten behind the services' back (Cecilia first): not read again.
    table = second.stages.get().tables.get()
    Deal.objects.filter(table=table).delete()
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    rank = {c.pk: 0, a.pk: 1, b.pk: 2}
    points = [10 * rank[player] for player in seats]
    play(table, [entry(points.index(0), points) for _ in range(7)])
    with CaptureQueriesContext(connection) as reused:
        league_recompute(season_id=season.pk)
    season.refresh_from_db()
    assert names(season) == ["Aino", "Bertta", "Cecilia"]  # night 2 as stored
    read_tables = {
        int(pk)
        for query in reused
        for found in re.findall(r'"scoring_deal"\."table_id" IN \(([\d, ]+)\)', query["sql"])
        for pk in found.split(",")
    }
    assert read_tables and table.pk not in read_tables
    # A change that goes through the site moves results_changed_at on: read again.
    results_change(event_id=second.pk, reason="settings")
    league_recompute(season_id=season.pk)
    season.refresh_from_db()
    # Night 1 Aino, Bertta, Cecilia (10, 7, 5); night 2 now Cecilia, Aino, Bertta.
    assert [(row["name"], row["points"]) for row in season.league_rows["rows"]] == [
        ("Aino", 17.0),
        ("Cecilia", 15.0),
        ("Bertta", 12.0),
    ]
