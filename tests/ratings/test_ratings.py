"""The ratings on the site: which games are rated and how (each closed table by the places
its sheet gives; a Gin match; an imported event; no play-off), when (on commit, in the
background), and how a correction or a merge is replayed in place."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from formats.championship import championship_stage_close
from formats.finish import event_finish
from formats.playoffs import playoff_open
from ratings import services
from ratings import tasks as rating_tasks
from ratings.games import RATED_GAMES, club_rated_games
from ratings.models import Rating, RatingRun, RatingStep
from ratings.services import ratings_rate_club, ratings_recompute
from rules import VARIANT_IDS
from scoring.models import Deal
from scoring.selectors import table_sheet
from scoring.services import Actor, deal_record
from tests.bench.bench_ratings import build_history
from tests.support.championship import (
    championship,
    entry,
    out_entry,
    play,
    play_off,
    tied_scheme,
    winner_scheme,
)
from tests.support.events import new_request_id
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of
from tests.support.headtohead import play as play_match
from tests.support.ratings import night, players_of, ratings_of, steps_of
from tournaments.event_formats import EventFormat
from tournaments.merge import player_merge, player_merge_undo
from tournaments.models import Event, ImportedResult, Player, Role, StageStatus

pytestmark = pytest.mark.django_db


def test_every_game_of_the_site_is_rated_on_its_own():
    assert set(RATED_GAMES) == set(VARIANT_IDS) == {
        "rutupeli", "ravaytys", "gin_romi", "tizlapos_romi",
    }  # fmt: skip


def test_a_tie_at_a_table_is_rated_level_and_above_the_next_place(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    a, b, c, d, e = players_of(club, "Aino", "Bertta", "Cecilia", "Dora", "Eero")
    Player.objects.filter(pk=c.pk).update(record_hidden=True)  # hidden, and rated all the same
    with django_capture_on_commit_callbacks(execute=True):
        event = night(club, [[(a, 0), (b, 10), (c, 10), (d, 20), (e, 30)]], day=1)
    # The places are the sheet's: the one order every page of the table shows.
    (table,) = event.stages.get().tables.all()
    sheet_places = {s.position: s.place for s in table_sheet(table=table).order}
    assert [sheet_places[p] for p in range(5)] == [1, 2, 2, 4, 5]
    assert [(row[1], row[4]) for row in steps_of(club)] == [
        (a.pk, 1), (b.pk, 2), (c.pk, 2), (d.pk, 4), (e.pk, 5),
    ]  # fmt: skip
    now = ratings_of(club)
    assert now[b.pk] == now[c.pk]
    assert now[a.pk][2] > now[b.pk][2] > now[d.pk][2] > now[e.pk][2]
    assert all(row[3] == 1 for row in now.values())
    run = RatingRun.objects.get(club=club, game="rutupeli")
    assert (run.version, run.games, run.updating_since) == (1, 1, None)


def test_closing_a_stage_queues_its_rating_on_commit_and_says_it_is_being_updated(
    django_capture_on_commit_callbacks,
):
    event, stage, director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        championship_stage_close(stage=stage, by=director)
        assert not RatingStep.objects.exists()  # nothing before the commit
        assert not RatingRun.objects.exists()
    with mock.patch.object(rating_tasks.ratings_update_task, "apply_async") as queued:
        for callback in callbacks:
            callback()
    (call,) = queued.call_args_list
    club_id, game, since = call.kwargs["args"]
    assert (club_id, game, since) == (
        event.club_id,
        "rutupeli",
        [event.date.isoformat(), event.pk, 0, 0],
    )
    run = RatingRun.objects.get(club=event.club, game="rutupeli")
    assert run.updating_since is not None and run.version == 0  # the pages say "being updated"
    assert not RatingStep.objects.exists()
    rating_tasks.ratings_update_task.apply(args=[club_id, game, since])
    run.refresh_from_db()
    assert run.updating_since is None and (run.version, run.games) == (1, 3)
    assert RatingStep.objects.filter(stage=stage).count() == 9


def test_a_deal_at_a_table_in_play_rates_nothing(django_capture_on_commit_callbacks):
    club = ClubFactory()
    players = players_of(club, "A", "B", "C", "D")
    with django_capture_on_commit_callbacks(execute=True):
        night(club, [[(p, 10 * i) for i, p in enumerate(players)]], day=1, finish=False)
    assert not RatingRun.objects.exists() and not RatingStep.objects.exists()


def test_a_gin_match_is_a_game_of_two(django_capture_on_commit_callbacks):
    event = h2h_event(players=4, format=EventFormat.SWISS, rounds=1)
    stage = pair_and_confirm(event, seed=3)
    pairs = pairs_of(stage)
    for table, (first, _second) in zip(stage.tables.order_by("number"), pairs, strict=True):
        play_match(table, first)
    with django_capture_on_commit_callbacks(execute=True):
        event_finish(event=event, confirmed=True)
    steps = steps_of(event.club, "gin_romi")
    assert len(steps) == 4 and {row[0] for row in steps} == {1, 2}
    for seq, (first, second) in enumerate(pairs, start=1):
        assert [(row[1], row[4]) for row in steps if row[0] == seq] == [(first, 1), (second, 2)]
    now = ratings_of(event.club, "gin_romi")
    assert now[pairs[0][0]][2] > now[pairs[0][1]][2]


def test_a_play_off_table_is_no_game_but_settles_its_tables_places():
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3))
    a, b, _c = table_sheet_players(tables[0])
    playoff = playoff_open(table=tables[0], by=director)
    play_off(playoff, out_entry(1, [25, None]))  # B wins the play-off
    championship_stage_close(stage=stage, by=director)
    ratings_recompute(club=event.club, game="rutupeli")
    assert RatingStep.objects.filter(table=playoff).count() == 0
    assert RatingRun.objects.get(club=event.club, game="rutupeli").games == 3
    first = dict(RatingStep.objects.filter(table=tables[0]).values_list("player_id", "place"))
    assert (first[b], first[a]) == (1, 2)  # the play-off's result, not a tie


def table_sheet_players(table) -> list[int]:
    return list(table.seats.order_by("position").values_list("player_id", flat=True))


def test_an_imported_event_is_one_game_by_its_places():
    club = ClubFactory()
    a, b, c, d = players_of(club, "A", "B", "C", "D")
    event = Event.objects.create(
        club=club, name="Spring", date="2026-03-07", variant_id="ravaytys",
        format=EventFormat.IMPORTED, status="finished",
    )  # fmt: skip
    for player, place in ((a, 1), (b, 2), (c, 2), (d, 4)):
        ImportedResult.objects.create(event=event, player=player, place=place, total=10 * place)
    ratings_rate_club(club=club)
    steps = steps_of(club, "ravaytys")
    assert [(row[1], row[4], row[3]) for row in steps] == [
        (a.pk, 1, None), (b.pk, 2, None), (c.pk, 2, None), (d.pk, 4, None),
    ]  # fmt: skip
    now = ratings_of(club, "ravaytys")
    assert now[b.pk] == now[c.pk] and now[a.pk][2] > now[b.pk][2] > now[d.pk][2]
    assert not RatingStep.objects.filter(game="rutupeli").exists()


def test_a_correction_of_a_closed_stage_is_replayed_from_its_table_on(
    django_capture_on_commit_callbacks,
):
    event, stage, director = championship(9)
    club = event.club
    players = list(Player.objects.filter(club=club).order_by("pk"))
    with django_capture_on_commit_callbacks(execute=True):
        # An earlier night of the same players, rated first.
        night(club, [[(p, 10 * i) for i, p in enumerate(players[:4])]], day=1)
        for table in stage.tables.all():
            play(table, winner_scheme(3))
        championship_stage_close(stage=stage, by=director)
    before = {row[0:2]: row for row in steps_of(club)}
    ids_before = dict(RatingStep.objects.values_list("pk", "seq"))
    second = stage.tables.get(number=2)
    seq = RatingStep.objects.filter(table=second).values_list("seq", flat=True).first()
    assert seq == 3  # the night's table, then stage 1's tables 1 and 2
    deal = Deal.objects.get(table=second, number=7)
    with django_capture_on_commit_callbacks(execute=True):
        deal_record(
            table=second,
            number=7,
            entry=entry(2, [200, 200, 0]),  # seat 0, the winner, takes 200 in the last deal
            by=Actor(device="director-laptop", user=director),
            expected_version=deal.version,
            request_id=new_request_id(),
        )
    after = {row[0:2]: row for row in steps_of(club)}
    assert after.keys() == before.keys()
    unchanged = {key for key in before if before[key] == after[key]}
    assert {key for key in before if key[0] < seq} <= unchanged  # the games before: as they were
    kept = {pk for pk, s in ids_before.items() if s < seq}
    assert kept <= set(RatingStep.objects.values_list("pk", flat=True))  # not even rewritten
    changed = {key for key in before if key not in unchanged}
    assert changed and all(key[0] >= seq for key in changed)
    places = dict(RatingStep.objects.filter(table=second).values_list("player_id", "place"))
    first_seat, _middle, last_seat = table_sheet_players(second)
    assert (places[last_seat], places[first_seat]) == (1, 2)  # was 3 and 1
    # The replay is what a computation from nothing gives.
    replayed = steps_of(club), ratings_of(club)
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == replayed


def test_a_merge_is_replayed_and_so_is_its_undo(django_capture_on_commit_callbacks):
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    a, b, c, twin = players_of(club, "Aino", "Bertta", "Cecilia", "Aino K.")
    with django_capture_on_commit_callbacks(execute=True):
        night(club, [[(a, 0), (b, 10), (c, 20)]], day=1)
        night(club, [[(b, 0), (twin, 10), (c, 20)]], day=2)
        night(club, [[(c, 0), (b, 10), (a, 20)]], day=3)
    apart = steps_of(club), ratings_of(club)
    assert ratings_of(club)[twin.pk][3] == 1
    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(kept=a, merged=twin, by=director, confirmed=True)
    now = ratings_of(club)
    assert twin.pk not in now and now[a.pk][3] == 3  # the twin's game is Aino's
    assert not RatingStep.objects.filter(player=twin).exists()
    merged = steps_of(club), now
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == merged
    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(merge=merge, by=director, confirmed=True)
    assert (steps_of(club), ratings_of(club)) == apart


def test_rated_at_once_or_stage_by_stage_the_numbers_are_the_same(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    people = players_of(club, *(f"P{i}" for i in range(8)))
    for day in range(1, 5):
        turned = people[day:] + people[:day]
        tables = [
            [(p, 10 * i) for i, p in enumerate(turned[:4])],
            [(p, 10 * i) for i, p in enumerate(turned[4:])],
        ]
        with django_capture_on_commit_callbacks(execute=True):
            night(club, tables, day=day)
    run = RatingRun.objects.get(club=club, game="rutupeli")
    assert (run.version, run.games) == (4, 8)  # each night its own computation
    one_by_one = steps_of(club), ratings_of(club)
    ratings_recompute(club=club, game="rutupeli")
    at_once = steps_of(club), ratings_of(club)
    assert at_once == one_by_one  # floats compared with ==: to the last digit
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == at_once  # and again
    run.refresh_from_db()
    assert run.version == 6
    assert max(r[3] for r in ratings_of(club).values()) == 4


def test_games_come_in_the_order_played_whatever_the_order_entered(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    a, b, c = players_of(club, "A", "B", "C")
    with django_capture_on_commit_callbacks(execute=True):
        later = night(club, [[(a, 0), (b, 10), (c, 20)]], day=5)
        earlier = night(club, [[(c, 0), (b, 10), (a, 20)]], day=2)  # entered late
    assert [g.event_id for g in club_rated_games(club_id=club.pk, game="rutupeli")] == [
        earlier.pk,
        later.pk,
    ]
    replayed = steps_of(club), ratings_of(club)
    assert [row[2] for row in replayed[0]][::3] == [earlier.pk, later.pk]
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == replayed


def test_the_recompute_takes_the_same_queries_however_many_tables(
    django_assert_max_num_queries,
):
    counts = []
    for tables in (5, 20):
        club = build_history(slug=f"q{tables}", nights=4, tables=tables, players=4 * tables)
        with CaptureQueriesContext(connection) as captured:
            ratings_rate_club(club=club)
        counts.append(len(captured))
        assert Rating.objects.filter(club=club, game="rutupeli").count() == 4 * tables
    assert counts[0] == counts[1]
    club = build_history(slug="q40", nights=4, tables=40, players=160)
    with django_assert_max_num_queries(counts[0]):
        ratings_rate_club(club=club)
    assert RatingStep.objects.filter(club=club).count() == 3 * 40 * 4 + 40 * 2


def test_a_computation_that_fails_midway_leaves_the_last_one_whole(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    a, b, c = players_of(club, "A", "B", "C")
    with django_capture_on_commit_callbacks(execute=True):
        night(club, [[(a, 0), (b, 10), (c, 20)]], day=1)
    before = steps_of(club), ratings_of(club), RatingRun.objects.get(club=club).version
    night(club, [[(c, 0), (b, 10), (a, 20)]], day=2)
    with (
        mock.patch("ratings.services._insert", side_effect=[None, RuntimeError("worker killed")]),
        pytest.raises(RuntimeError),
    ):
        ratings_recompute(club=club, game="rutupeli")  # the steps written, then killed
    assert (steps_of(club), ratings_of(club), RatingRun.objects.get(club=club).version) == before


def test_an_event_moved_to_another_day_moves_its_games(django_capture_on_commit_callbacks):
    club = ClubFactory()
    a, b, c = players_of(club, "A", "B", "C")
    with django_capture_on_commit_callbacks(execute=True):
        first = night(club, [[(a, 0), (b, 10), (c, 20)]], day=1)
        second = night(club, [[(c, 0), (b, 10), (a, 20)]], day=3)
    assert [row[2] for row in steps_of(club)][::3] == [first.pk, second.pk]
    with django_capture_on_commit_callbacks(execute=True):
        second.date = first.date.replace(day=first.date.day - 1)
        second.save()
    assert [row[2] for row in steps_of(club)][::3] == [second.pk, first.pk]
    moved = steps_of(club), ratings_of(club)
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == moved


def test_a_night_whose_job_was_lost_is_rated_with_the_next_one(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    a, b, c = players_of(club, "A", "B", "C")
    with django_capture_on_commit_callbacks(execute=True):
        first = night(club, [[(a, 0), (b, 10), (c, 20)]], day=1)
    lost = night(club, [[(c, 0), (b, 10), (a, 20)]], day=2)  # its job never ran
    with django_capture_on_commit_callbacks(execute=True):
        last = night(club, [[(b, 0), (a, 10), (c, 20)]], day=3)
    assert [row[2] for row in steps_of(club)][::3] == [first.pk, lost.pk, last.pk]
    appended = steps_of(club), ratings_of(club)
    ratings_recompute(club=club, game="rutupeli")
    assert (steps_of(club), ratings_of(club)) == appended


def test_a_change_asked_for_during_a_computation_keeps_the_ratings_marked_as_updating():
    club = ClubFactory()
    a, b, c = players_of(club, "A", "B", "C")
    night(club, [[(a, 0), (b, 10), (c, 20)]], day=1)
    reading = services.club_rated_games

    def read_then_asked(**kwargs):  # type: ignore[no-untyped-def]
        games = reading(**kwargs)
        services.ratings_ask(club_id=club.pk, game="rutupeli")  # a close committed meanwhile
        return games

    with mock.patch.object(services, "club_rated_games", side_effect=read_then_asked):
        run = ratings_recompute(club=club, game="rutupeli")
    assert run.version == 1 and run.updating_since is not None  # its job is still to come
    run = ratings_recompute(club=club, game="rutupeli")
    assert run.version == 2 and run.updating_since is None and run.asked_at is None


def test_a_round_of_matches_is_rated_once_the_next_round_closes_it(
    django_capture_on_commit_callbacks,
):
    event = h2h_event(players=4, format=EventFormat.SWISS, rounds=2)
    first = pair_and_confirm(event, seed=3)
    for table, (winner, _loser) in zip(
        first.tables.order_by("number"), pairs_of(first), strict=True
    ):
        play_match(table, winner)
    assert not RatingStep.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        pair_and_confirm(event, seed=3)  # round 1 closed, round 2 seated
    first.refresh_from_db()
    assert first.status == StageStatus.FINISHED
    assert RatingStep.objects.filter(stage=first).count() == 4
    assert RatingRun.objects.get(club=event.club, game="gin_romi").games == 2


def test_an_events_public_page_shows_its_rating_changes_once_they_are_computed(
    client, django_capture_on_commit_callbacks
):
    """The event's page is cached under its results version, which a rating computation
    does not change: the computation renews the page's stamp when it commits."""
    club = ClubFactory()
    a, b, c, d = players_of(club, "A", "B", "C", "D")
    event = night(club, [[(a, 0), (b, 5), (c, 10), (d, 20)]], day=1)
    page = reverse("event_public", args=[club.slug, event.pk])
    assert "Rating changes" not in client.get(page).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.ratings_update(club_id=club.pk, game="rutupeli", since=None)
    assert "Rating changes" in client.get(page).content.decode()
