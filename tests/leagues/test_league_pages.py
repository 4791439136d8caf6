"""A season's league table on its pages: schemes with best N, a minimum of events and
scaling by the field; the downloads opened and read; private events nowhere; the embed and
the JSON feed; the director's scheme page; queries that do not grow with the season."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.selectors import season_results
from leagues.services import league_recompute, season_league
from scoring.models import Deal, DealStatus
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.leagues import night, players_of, season_of
from tournaments.engine.league import LeagueScheme
from tournaments.models import Role, Season, SeasonSchemeChange

pytestmark = pytest.mark.django_db


def set_scheme(season: Season, **parts) -> None:
    Season.objects.filter(pk=season.pk).update(league_scheme=LeagueScheme(**parts).to_dict())
    season.refresh_from_db()


def url(name: str, season: Season, *args) -> str:
    return reverse(name, args=[season.club.slug, season.pk, *args])


@pytest.fixture
def three():
    """A season of three nights for Aino, Bertta and Cecilia (and Daniel at one)."""
    club = ClubFactory()
    season = season_of(club)
    a, b, c, d = players_of(club, "Aino", "Bertta", "Cecilia", "Daniel")
    night(season, [a, b, c], day=1)
    night(season, [b, c, a], day=2)
    night(season, [a, c, b, d], day=3)
    return season, (a, b, c, d)


def places(season: Season) -> list[tuple[str, str, float, int]]:
    league = season_league(season=season)
    return [(row.name, row.place_label, row.points, row.counted_events) for row in league.rows]


def test_placement_points_add_up_and_ties_go_by_events_won(three):
    season, _players = three
    set_scheme(season, points=(10, 7, 5, 3))
    assert places(season) == [
        ("Aino", "1", 25.0, 3),  # 10 + 5 + 10
        ("Bertta", "2", 22.0, 3),  # 7 + 10 + 5
        ("Cecilia", "3", 19.0, 3),  # 5 + 7 + 7
        ("Daniel", "4", 3.0, 1),
    ]


def test_best_two_of_three_drops_the_worst_and_the_page_strikes_it_through(three, client):
    season, _players = three
    set_scheme(season, points=(10, 7, 5, 3), best_n=2)
    assert places(season) == [
        ("Aino", "1", 20.0, 2),
        ("Bertta", "2", 17.0, 2),
        ("Cecilia", "3", 14.0, 2),
        ("Daniel", "4", 3.0, 1),
    ]
    page = client.get(url("season_league", season)).content.decode()
    # Aino's third place (5) on night 2 is dropped; Bertta's 5 on night 3, Cecilia's 5 on 1.
    assert page.count('<s class="dropped"') == 3
    assert "place 3 of 3 · not counted" in page


def test_a_minimum_of_events_lists_the_others_after_without_a_place(three, client):
    season, _players = three
    set_scheme(season, points=(10, 7, 5, 3), min_events=2)
    rows = season_league(season=season).rows
    assert [(row.name, row.ranked, row.place_label) for row in rows] == [
        ("Aino", True, "1"),
        ("Bertta", True, "2"),
        ("Cecilia", True, "3"),
        ("Daniel", False, ""),
    ]
    page = client.get(url("season_league", season)).content.decode()
    assert page.index("Cecilia") < page.index("Not ranked yet") < page.index("Daniel")
    assert "A player is ranked after 2 events." in page


def test_scaling_by_the_field_evens_out_a_small_fields_points(db):
    club = ClubFactory()
    season = season_of(club)
    a, b, c, d = players_of(club, "Aino", "Bertta", "Cecilia", "Daniel")
    night(season, [a, b, c], day=1)  # a field of 3
    night(season, [c, d, a, b], day=2)  # a field of 4
    set_scheme(season, points=(10, 7, 5, 3))
    assert places(season) == [
        ("Aino", "=1", 15.0, 2),
        ("Cecilia", "=1", 15.0, 2),
        ("Bertta", "3", 10.0, 2),
        ("Daniel", "4", 7.0, 1),
    ]
    set_scheme(season, points=(10, 7, 5, 3), scale_by_table=True)
    # A field of 3 shares out 10 + 7 + 5 = 22 where the table's 4 places average 6.25 a
    # seat: × 6.25 / (22 / 3), so 8.52, 5.97 and 4.26; the field of 4 keeps 10, 7, 5, 3.
    assert places(season) == [
        ("Cecilia", "1", 14.26, 2),
        ("Aino", "2", 13.52, 2),
        ("Bertta", "3", 8.97, 2),
        ("Daniel", "4", 7.0, 1),
    ]


def test_penalty_totals_and_averages_rank_fewest_first(three):
    season, _players = three
    set_scheme(season, kind="penalty_total")
    # Each night: the winner 0, second 70, third 140 (7 deals of 10 and 20), fourth 210.
    assert places(season) == [
        ("Aino", "1", 140.0, 3),
        ("Bertta", "2", 210.0, 3),
        ("Daniel", "3", 210.0, 1),  # level with Bertta, who won a night
        ("Cecilia", "4", 280.0, 3),
    ]
    assert [row.decided_by for row in season_league(season=season).rows] == [
        None,
        "score",
        "events_won",
        "score",
    ]
    # Which is why a club counting penalties sets a minimum of events.
    set_scheme(season, kind="penalty_total", min_events=3)
    assert places(season)[-1] == ("Daniel", "", 210.0, 1)
    set_scheme(season, kind="average")
    assert places(season)[0] == ("Aino", "1", round(140 / 21, 2), 3)


def test_the_csv_and_xlsx_downloads_hold_every_row(three, client):
    season, _players = three
    set_scheme(season, points=(10, 7, 5, 3), best_n=2, min_events=2)
    response = client.get(url("season_league_export", season, "csv"))
    assert response["Content-Disposition"].endswith('.csv"')
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "#",
        "Player",
        "Points",
        "Events",
        "Counted",
        "Decided by",
        "2 Sep 2026 Night 1",
        "3 Sep 2026 Night 2",
        "4 Sep 2026 Night 3",
    ]
    # Aino: 10, [5] dropped, 10: 20 points from 2 of 3 events; Daniel unranked, no place.
    assert rows[1:] == [
        ["1", "Aino", "20", "3", "2", "", "10", "[5]", "10"],
        ["2", "Bertta", "17", "3", "2", "score", "7", "10", "[5]"],
        ["3", "Cecilia", "14", "3", "2", "score", "[5]", "7", "7"],
        ["", "Daniel", "3", "1", "1", "", "", "", "3"],
    ]

    response = client.get(url("season_league_export", season, "xlsx"))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert values[0][:3] == ["#", "Player", "Points"]
    assert values[1][:5] == [1, "Aino", 20, 3, 2]
    assert values[1][6:] == [10, "[5]", 10]
    assert len(values) == 5
    # Only the spreadsheet formats are downloads (league.pdf is the printed sheet).
    assert client.get(url("season_league_export", season, "ods")).status_code == 404


def test_a_private_event_is_on_no_page_feed_or_download(three, client):
    season, (a, b, c, d) = three
    night(season, [d, c, b, a], day=4, published=False, name="Secret night")
    for name in ("season_league", "season_league_embed", "season_league_feed"):
        body = client.get(url(name, season)).content.decode()
        assert "Secret night" not in body, name
    body = client.get(url("season_league_export", season, "csv")).content.decode("utf-8-sig")
    assert "Secret night" not in body
    feed = client.get(url("season_league_feed", season)).json()
    assert len(feed["events"]) == 3
    daniel = next(row for row in feed["rows"] if row["name"] == "Daniel")
    assert daniel["events"] == 1
    # A private night in play neither.
    night(season, [d, c, b, a], day=5, finish=False, published=False, name="Hush")
    Season.objects.filter(pk=season.pk).update(league_computed_at=None)
    assert "Hush" not in client.get(url("season_league", season)).content.decode()


def test_a_night_in_play_counts_as_it_stands_marked_so(three, client):
    season, (a, b, c, d) = three
    night(season, [d, c, b, a], day=5, finish=False, name="Tonight")
    body = client.get(url("season_league", season)).content.decode()
    assert "Tonight (in play)" in body
    assert "An event still in play counts as it stands." in body
    feed = client.get(url("season_league_feed", season)).json()
    assert [event["finished"] for event in feed["events"]] == [True, True, True, False]


def test_unknown_seasons_and_clubs_are_not_found(three, client):
    season, _players = three
    other = ClubFactory()
    assert client.get(reverse("season_league", args=[other.slug, season.pk])).status_code == 404
    assert client.get(reverse("season_league", args=["nope", season.pk])).status_code == 404
    assert (
        client.get(reverse("season_league_feed", args=[season.club.slug, 9999])).status_code == 404
    )
    assert (
        client.get(reverse("season_league_embed", args=[other.slug, season.pk])).status_code == 404
    )


def test_the_embed_may_be_framed_by_any_site_and_has_its_own_stylesheet(three, client):
    season, _players = three
    response = client.get(url("season_league_embed", season))
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert "css/embed.css" in body and "css/site.css" not in body
    assert "site-header" not in body and "Aino" in body
    # Every other page keeps refusing to be framed.
    page = client.get(url("season_league", season))
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]


def test_the_json_feed_is_versioned_with_stable_keys(three, client):
    season, (a, _b, _c, _d) = three
    set_scheme(season, points=(10, 7, 5, 3), best_n=2)
    response = client.get(url("season_league_feed", season))
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    feed = response.json()
    assert set(feed) == {
        "version",
        "club",
        "season",
        "computed_at",
        "stale",
        "scheme",
        "events",
        "rows",
        "scheme_changes",
    }
    assert (
        feed["version"] == 1
        and feed["stale"] is False
        and "/api/v1/" in url("season_league_feed", season)
    )
    assert feed["scheme"]["best_n"] == 2
    assert set(feed["events"][0]) == {"id", "name", "date", "format", "finished", "url"}
    first = feed["rows"][0]
    assert set(first) == {
        "player_id",
        "name",
        "ranked",
        "place",
        "shared",
        "place_label",
        "points",
        "events",
        "counted_events",
        "decided_by",
        "cells",
        "player_url",
    }
    assert (first["player_id"], first["place"], first["points"]) == (a.pk, 1, 20.0)
    assert [cell["counted"] for cell in first["cells"]] == [True, False, True]
    assert set(first["cells"][0]) == {
        "event_id",
        "place",
        "field",
        "total",
        "games",
        "score",
        "counted",
    }
    assert first["player_url"].endswith(reverse("player_record", args=[season.club.slug, a.pk]))


def test_the_page_says_when_it_was_computed_and_links_the_players(three, client):
    season, (a, _b, _c, _d) = three
    body = client.get(url("season_league", season)).content.decode()
    season.refresh_from_db()
    assert season.league_computed_at is not None
    assert "Last recomputed" in body
    assert reverse("player_record", args=[season.club.slug, a.pk]) in body


def test_a_director_sees_what_a_new_scheme_changes_then_saves_it_and_the_page_shows_it(
    three, client
):
    season, _players = three
    director = MembershipFactory(club=season.club, role=Role.DIRECTOR).user
    edit = url("season_scheme_edit", season)
    assert edit not in client.get(url("season_league", season)).content.decode()
    client.force_login(director)
    assert edit in client.get(url("season_league", season)).content.decode()
    assert client.get(edit).status_code == 200
    form = {
        "kind": "placement",
        "points": "10, 7, 5, 3",
        "best_n": "1",
        "min_events": "0",
        "tie_1": "events_won",
        "tie_2": "",
        "tie_3": "",
        "note": "Only the best night counts",
    }
    preview = client.post(edit, {**form, "preview": "1"})
    body = preview.content.decode()
    assert "What would change" in body
    # Best one: Aino 10, Bertta 10 (one win each... Aino two), Cecilia 7.
    assert "Bertta: 2 → 2" not in body
    assert SeasonSchemeChange.objects.count() == 0

    saved = client.post(edit, {**form, "save": "1"})
    assert saved.status_code == 302
    change = SeasonSchemeChange.objects.get()
    assert change.changed_by == director and change.note == "Only the best night counts"
    assert change.old_scheme == LeagueScheme().to_dict()
    assert change.new_scheme["best_n"] == 1
    page = client.get(url("season_league", season)).content.decode()
    assert "Changes of the scheme" in page
    assert (
        "placement points 10, 7, 5, 3, 1; every event counts; ties go by events won, best "
        "result, more events → placement points 10, 7, 5, 3; the best 1 event counts; ties "
        "go by events won"
    ) in page
    assert "Only the best night counts" in page


def test_a_bad_scheme_is_refused_next_to_its_field(three, client):
    season, _players = three
    client.force_login(MembershipFactory(club=season.club, role=Role.DIRECTOR).user)
    body = client.post(
        url("season_scheme_edit", season),
        {"kind": "placement", "points": "5, 7", "min_events": "0", "note": "x", "save": "1"},
    ).content.decode()
    assert "A place may not score more than the place above it." in body
    body = client.post(
        url("season_scheme_edit", season),
        {
            "kind": "placement",
            "points": "5, x",
            "min_events": "0",
            "note": "x",
            "tie_1": "best_result",
            "tie_2": "best_result",
            "save": "1",
        },
    ).content.decode()
    assert "is not a whole number of points" in body
    assert SeasonSchemeChange.objects.count() == 0


def test_only_a_director_changes_the_scheme(three, client, member):
    season, _players = three
    edit = url("season_scheme_edit", season)
    assert client.get(edit).status_code == 302  # to sign in
    client.force_login(MembershipFactory(club=season.club, role=Role.MEMBER).user)
    assert client.get(edit).status_code == 403
    scorer = MembershipFactory(club=season.club, role=Role.SCORER).user
    client.force_login(scorer)
    assert client.post(edit, {"kind": "placement", "points": "1", "min_events": 0,
                              "note": "n", "save": "1"}).status_code == 403  # fmt: skip
    assert SeasonSchemeChange.objects.count() == 0


def _season_of_nights(events: int, players: int) -> Season:
    club = ClubFactory()
    season = season_of(club)
    people = players_of(club, *(f"P{index:03d}" for index in range(players)))
    for day in range(events):
        order = people[day % players :] + people[: day % players]
        night(season, order[:6], day=day)
        if players > 6:
            night(season, order[6:12], day=day, name=f"Second room {day}")
    return season


def test_queries_do_not_grow_with_events_or_players(client):
    small = _season_of_nights(2, 4)
    big = _season_of_nights(20, 12)  # 40 events
    counts = []
    for season in (small, big):
        with CaptureQueriesContext(connection) as compute:
            results = season_results(season=season)
        assert results.events
        with CaptureQueriesContext(connection) as stale_page:
            assert client.get(url("season_league", season)).status_code == 200
        with CaptureQueriesContext(connection) as fresh_page:
            assert client.get(url("season_league", season)).status_code == 200
        counts.append((len(compute), len(stale_page), len(fresh_page)))
    assert counts[0] == counts[1], counts
    assert len(season_results(season=big).events) == 40
    compute, _stale, fresh = counts[1]
    assert compute == 6  # events, stages, tie-breaks, tables, seats, deals
    assert fresh <= 4  # the season, its scheme changes (and the session's)


def test_recompute_is_safe_to_run_twice(three):
    season, _players = three
    first = league_recompute(season_id=season.pk)
    second = league_recompute(season_id=season.pk)
    assert first is not None and second is not None
    assert first.league_rows["rows"] == second.league_rows["rows"]
    assert league_recompute(season_id=999_999) is None


def test_a_guests_name_links_to_a_record_only_when_the_club_publishes_guests(three, client):
    season, (a, b, _c, _d) = three
    b.guest = True
    b.save()
    league_recompute(season_id=season.pk)
    body = client.get(url("season_league", season)).content.decode()
    assert reverse("player_record", args=[season.club.slug, a.pk]) in body
    assert reverse("player_record", args=[season.club.slug, b.pk]) not in body
    feed = client.get(url("season_league_feed", season)).json()
    assert {row["name"]: row["player_url"] is None for row in feed["rows"]}["Bertta"] is True
    type(season.club).objects.filter(pk=season.club.pk).update(publish_guest_pages=True)
    body = client.get(url("season_league", season)).content.decode()
    assert reverse("player_record", args=[season.club.slug, b.pk]) in body


def test_a_club_showing_confirmed_results_only_counts_confirmed_deals(three):
    season, (a, b, c, _d) = three
    tonight = night(season, [c, b, a], day=5, finish=False, name="Tonight")
    Deal.objects.filter(table__stage__event=tonight, number=7).update(status=DealStatus.SUBMITTED)
    league_recompute(season_id=season.pk)
    season.refresh_from_db()
    totals = {row["name"]: row["cells"][-1]["total"] for row in season.league_rows["rows"]}
    assert totals["Aino"] == 140  # 7 deals of 20 (the seventh not yet confirmed)
    type(season.club).objects.filter(pk=season.club.pk).update(public_confirmed_only=True)
    season.refresh_from_db()
    league_recompute(season_id=season.pk)
    season.refresh_from_db()
    totals = {row["name"]: row["cells"][-1]["total"] for row in season.league_rows["rows"]}
    assert totals["Aino"] == 120 and totals["Cecilia"] == 0
