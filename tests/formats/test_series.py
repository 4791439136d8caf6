"""A reseated series end to end: rounds drawn once the one before is over, zero repeat
tablemates for 16 players × 5 rounds at tables of 4, seating by standings, placement points
that compare tables of 3 and 4, and the pages (the director's preview, the public standings)."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from formats.series import (
    PLACEMENT_SCALE,
    placement_points,
    same_club_cost,
    series_draw_refusal,
    series_preview,
    series_round_draw,
    series_standings,
)
from rules import RuleViolation
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tests.support.series import play_out, series_event
from tournaments.engine.seating import meetings
from tournaments.models import Event, Player, Role, Seat, Stage, StageStatus
from tournaments.services import registration_add, stage_confirm

pytestmark = pytest.mark.django_db


def round_tables(stage: Stage) -> list[list[int]]:
    return [
        list(table.seats.order_by("position").values_list("player_id", flat=True))
        for table in stage.tables.order_by("number")
    ]


def director_client(event) -> Client:
    client = Client()
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    return client


def test_sixteen_players_play_five_rounds_at_tables_of_four_and_never_meet_twice():
    event, tables = series_event(16)
    rounds = [round_tables(tables[0].stage)]
    for number in range(2, 6):
        for table in tables:
            play_out(table, out=table.number % 4)
        stage = series_round_draw(event=event, seed=number)
        assert stage.number == number and stage.status == StageStatus.PREVIEW
        assert stage.format["series"]["round"] == number
        assert stage.format["series"]["repeats"] == 0
        assert stage.format["table_sizes"]["preferred"] == 4
        assert series_preview(event=event).repeats == 0
        stage_confirm(stage=stage)
        tables = list(stage.tables.order_by("number"))
        assert [len(t) for t in round_tables(stage)] == [4, 4, 4, 4]
        rounds.append(round_tables(stage))
    met = meetings(rounds)
    # 5 rounds × 3 tablemates = 15 = everyone else, each exactly once.
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}
    for table in tables:
        play_out(table)
    standings = series_standings(event=event)
    assert [r.number for r in standings.rounds] == [1, 2, 3, 4, 5]
    assert all(r.finished for r in standings.rounds)
    assert all(row.rounds_played == 5 for row in standings.rows)
    assert all(len(row.cells) == 5 for row in standings.rows)
    totals = [row.score for row in standings.rows]
    assert totals == sorted(totals)  # a penalty game: lowest first
    assert all(row.score == sum(c.total for c in row.cells) for row in standings.rows)
    # Every round is drawn: no sixth.
    assert series_draw_refusal(event=event).code == "series_complete"
    with pytest.raises(RuleViolation):
        series_round_draw(event=event)


def test_the_next_round_waits_until_every_table_is_over_and_confirmed():
    event, (one, two) = series_event(8)
    play_out(one)
    with pytest.raises(RuleViolation) as refused:
        series_round_draw(event=event)
    assert refused.value.code == "round_playing"
    assert refused.value.params == {"round": 1, "number": 2}
    play_out(two, confirm=False)  # every deal played, none confirmed
    assert series_draw_refusal(event=event).code == "round_playing"
    director = director_client(event)
    response = director.post(reverse("series_round_draw", args=[event.club.slug, event.pk]))
    assert response.status_code == 302
    assert event.stages.count() == 1
    page = director.get(reverse("event_manage", args=[event.club.slug, event.pk])).content
    assert b"Round 1 is still playing at table 2" in page
    assert b"Draw round 2" not in page


def test_a_preview_is_drawn_again_in_place_and_the_director_confirms_it():
    event, tables = series_event(8, rounds=3)
    for table in tables:
        play_out(table)
    first = series_round_draw(event=event, seed=1)
    again = series_round_draw(event=event, seed=2)
    assert (again.pk, again.number, again.seed) == (first.pk, 2, 2)
    assert Stage.objects.filter(event=event).count() == 2
    assert Seat.objects.filter(table__stage=again).count() == 8
    director = director_client(event)
    director.post(reverse("draw_confirm", args=[event.club.slug, event.pk]))
    again.refresh_from_db()
    assert again.status == StageStatus.CONFIRMED
    assert series_preview(event=event).current == 2


def test_a_night_is_no_series():
    event, _tables = seated_event(variant_id="ravaytys", players=8)
    assert series_draw_refusal(event=event).code == "not_a_series"
    with pytest.raises(RuleViolation):
        series_round_draw(event=event)


@pytest.mark.parametrize(
    ("place", "seats", "points"),
    [
        *[(1, 4, 60), (2, 4, 40), (3, 4, 20), (4, 4, 0), (1, 3, 60), (2, 3, 30), (3, 3, 0)],
        *[(1, 2, 60), (2, 2, 0), (2, 5, 45), (5, 6, 12)],
    ],
)
def test_placement_points_are_scaled_to_the_tables_size(place, seats, points):
    assert placement_points(place, seats) == points


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_table_size_gives_the_same_points_on_average(seats):
    points = [placement_points(place, seats) for place in range(1, seats + 1)]
    assert points[0] == PLACEMENT_SCALE and points[-1] == 0
    assert sum(points) * 2 == PLACEMENT_SCALE * seats  # the average is 30, exactly


def test_placement_points_rank_tables_of_three_and_four_together(client):
    event, (four, three) = series_event(7, series_ranking="placement", rounds=2)
    assert (four.seats.count(), three.seats.count()) == (4, 3)
    play_out(four, out=1)
    play_out(three, out=2)
    standings = series_standings(event=event)
    assert standings.by_placement and not standings.lower_is_better
    rows = [
        (row.place_label, row.score, row.cells[0].seats, row.cells[0].place)
        for row in standings.rows
    ]
    # Both winners 60, sharing first; second of four (40) above second of three (30).
    assert rows[:2] == [("=1", 60, 4, 1), ("=1", 60, 3, 1)] or rows[:2] == [
        ("=1", 60, 3, 1),
        ("=1", 60, 4, 1),
    ]
    assert [row[1] for row in rows] == [60, 60, 40, 30, 20, 0, 0]
    assert [row[0] for row in rows][-2:] == ["=6", "=6"]
    winner_of_three = next(r for r in standings.rows if r.cells[0].seats == 3 and r.place == 1)
    assert winner_of_three.player_id == three.seats.get(position=2).player_id
    html = client.get(event.get_absolute_url()).content.decode()
    assert "Round by round" in html
    assert "Ranked by placement points" in html
    assert "Table of 3: 60, 30, 0." in html and "Table of 4: 60, 40, 20, 0." in html

    # Round 2 seated, no deal played yet: it gives nobody points, and nobody a round.
    stage_confirm(stage=series_round_draw(event=event, seed=2))
    seated = series_standings(event=event)
    assert [row.score for row in seated.rows] == [60, 60, 40, 30, 20, 0, 0]
    assert all(row.cells[1].played == 0 and row.cells[1].points == 0 for row in seated.rows)
    assert all(row.rounds_played == 1 for row in seated.rows)


def test_by_points_a_late_arrival_ranks_after_those_who_played_every_round(client):
    event, (one, two) = series_event(8, rounds=2)
    play_out(one)
    play_out(two)
    late = Player.objects.create(club=event.club, name="Late Lauri")
    registration_add(event=event, player=late, checked_in=True)
    stage = series_round_draw(event=event, seed=4)
    stage_confirm(stage=stage)
    for table in stage.tables.all():
        seat = table.seats.filter(player=late).first()
        play_out(table, out=seat.position if seat else 0)  # Lauri goes out every deal
    rows = series_standings(event=event).rows
    assert len(rows) == 9
    assert (rows[-1].player, rows[-1].score, rows[-1].rounds_played) == ("Late Lauri", 0, 1)
    assert rows[-1].cells[0] is None and rows[-1].cells[1].place == 1
    assert all(row.rounds_played == 2 for row in rows[:-1])
    html = client.get(event.get_absolute_url()).content.decode()
    assert "points, lowest first." in html
    assert "Late Lauri" in html.split("Round by round", 1)[1]


def test_seating_by_standings_puts_the_leaders_together():
    event, (one, two) = series_event(8, reseat="standings", rounds=2)
    # Table 1: 0, 40, 80, 120 after 8 deals; table 2: 0, 120, 160, 200.
    play_out(one, hands=["2H", "3H 3S", "4H 4S 4D"])
    play_out(two, hands=["2H 2D 5H", "3H 3S 3D 3C", "4H 4S 4D 4C 6H"])
    ranked = [row.player_id for row in series_standings(event=event).rows]
    leaders, followers = ranked[:4], ranked[4:]
    assert [row.score for row in series_standings(event=event).rows] == [
        0, 0, 40, 80, 120, 120, 160, 200,
    ]  # fmt: skip
    stage = series_round_draw(event=event, seed=3)
    first, second = round_tables(stage)
    assert set(first) == set(leaders) and set(second) == set(followers)
    assert stage.format["series"]["reseat"] == "standings"
    # Table 1's winner, second and third sit together again, as do table 2's last three:
    # 3 + 3 pairs meet again, and the preview says who.
    preview = series_preview(event=event)
    assert preview.repeats == stage.format["series"]["repeats"] == 6
    assert len(preview.meet_again) == 6


def test_the_manage_page_shows_the_repeats_and_who_meets_again():
    event, (one, two) = series_event(8, reseat="standings", rounds=2)
    play_out(one, hands=["2H", "3H 3S", "4H 4S 4D"])
    play_out(two, hands=["2H 2D 5H", "3H 3S 3D 3C", "4H 4S 4D 4C 6H"])
    director = director_client(event)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = director.get(manage).content.decode()
    assert "Draw round 2" in page and "Series of 2 rounds" in page
    response = director.post(reverse("series_round_draw", args=[event.club.slug, event.pk]))
    assert response.status_code == 302 and response["Location"].endswith("#draw")
    page = director.get(manage).content.decode()
    assert "Round 2: 6 repeats" in page
    assert "They meet again:" in page
    preview = series_preview(event=event)
    for first, second in preview.meet_again:
        assert f"{first} · {second}" in page
    assert "Draw round 2 again" in page
    assert "Confirm the tables" in page


@pytest.mark.parametrize(("role", "status"), [(Role.MEMBER, 403), (Role.SCORER, 403)])
def test_only_a_director_draws_the_next_round(role, status):
    event, tables = series_event(8, rounds=2)
    for table in tables:
        play_out(table)
    url = reverse("series_round_draw", args=[event.club.slug, event.pk])
    client = Client()
    client.force_login(MembershipFactory(club=event.club, role=role).user)
    assert client.post(url).status_code == status
    assert Client().post(url).status_code == 302  # to sign in
    outsider = Client()
    outsider.force_login(MembershipFactory(role=Role.OWNER).user)  # another club's owner
    assert outsider.post(url).status_code == 403
    assert director_client(event).get(url).status_code == 405
    assert event.stages.count() == 1
    assert director_client(event).post(url).status_code == 302
    assert event.stages.count() == 2


def _count(func) -> int:
    with CaptureQueriesContext(connection) as queries:
        func()
    return len(queries)


def test_the_standings_take_the_same_queries_after_one_round_as_after_three(
    client, django_assert_max_num_queries
):
    event, tables = series_event(8, rounds=3)
    for table in tables:
        play_out(table)
    one_round = _count(lambda: series_standings(event=event))
    page_one_round = _count(lambda: client.get(event.get_absolute_url()))
    for number in (2, 3):
        stage = series_round_draw(event=event, seed=number)
        stage_confirm(stage=stage)
        for table in stage.tables.all():
            play_out(table)
    assert len(series_standings(event=event).rounds) == 3
    with django_assert_max_num_queries(one_round):
        series_standings(event=event)
    with django_assert_max_num_queries(page_one_round):
        client.get(event.get_absolute_url())


def test_the_same_club_cost_keeps_one_clubs_players_apart():
    assert same_club_cost({}) is None
    assert same_club_cost({1: "", 2: ""}) is None
    cost = same_club_cost({1: "Oulu", 2: "Oulu", 3: "Turku"})
    assert cost is not None
    assert cost(1, 2) == 0.5 and cost(1, 3) == 0 and cost(3, 4) == 0


def test_clubs_apart_with_one_club_only_draws_as_without_it():
    # Everyone is of the event's own club, so keeping clubs apart has nothing to weigh: the
    # draw is the one the same seed gives without the option.
    event, tables = series_event(12, rounds=3, clubs_apart=True)
    for table in tables:
        play_out(table)
    apart = round_tables(series_round_draw(event=event, seed=5))
    options = {**event.format_options, "clubs_apart": False}
    Event.objects.filter(pk=event.pk).update(format_options=options)
    event.refresh_from_db()
    together = round_tables(series_round_draw(event=event, seed=5))
    assert apart == together
    assert sorted(itertools.chain.from_iterable(apart)) == sorted(
        event.registrations.values_list("player_id", flat=True)
    )


@pytest.mark.parametrize("reseat", ["avoid_repeats", "standings"])
def test_drawing_a_round_takes_the_same_queries_for_eight_players_as_for_sixteen(reseat):
    counts = []
    for players in (8, 16):
        event, tables = series_event(players, reseat=reseat)
        for table in tables:
            play_out(table)
        counts.append(_count(lambda event=event: series_round_draw(event=event, seed=1)))
    assert counts[0] == counts[1]


def test_clubs_apart_seats_visitors_of_one_club_at_different_tables():
    event, tables = series_event(12, rounds=3, clubs_apart=False)
    # Three visitors from one club, who sat at three different tables in round 1.
    visitors = [table.seats.order_by("position").first().player_id for table in tables]
    Player.objects.filter(pk__in=visitors).update(home_club="Oulun Rommi")
    for table in tables:
        play_out(table)

    def draw(seed: int, apart: bool) -> list[list[int]]:
        options = {**event.format_options, "clubs_apart": apart}
        Event.objects.filter(pk=event.pk).update(format_options=options)
        event.refresh_from_db()
        return round_tables(series_round_draw(event=event, seed=seed))

    def most_together(tables: list[list[int]]) -> int:
        return max(sum(p in visitors for p in table) for table in tables)

    # A seed whose draw without the option puts two visitors together (repeats alone do not
    # keep them apart), then the same seed with it.
    seed = next(seed for seed in range(60) if most_together(draw(seed, apart=False)) > 1)
    assert most_together(draw(seed, apart=True)) == 1
