"""A club's past results come in from a spreadsheet as imported events: parsed, grouped
into events, checked row by row (nothing saved while any row is wrong), matched to the
club's players by name, and counted by the event's standings, its league table and records."""

from __future__ import annotations

import datetime
import io
import time
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from demo.history import HISTORY_SEASON, demo_history
from leagues.services import season_league
from rules import RuleViolation
from standings.standings import event_standings
from tests.support.factories import ClubFactory, MembershipFactory
from tournaments.history import history_import, history_preview
from tournaments.models import Event, ImportedResult, Player, Role, Season
from tournaments.services import registration_add
from tournaments.spreadsheet import SpreadsheetError

pytestmark = pytest.mark.django_db

HEADER = "date,game,event name,player,place,total,stage\n"
GOOD = (
    HEADER
    + "2025-09-04,Rutupeli,Autumn night,Aino Virtanen,1,35,\n"
    + "2025-09-04,Rutupeli,Autumn night,Olli Uusi,2,120.5,\n"
    + "2025-09-04,Rutupeli,Autumn night,Bertta Laine,2,120.5,\n"
    + "2025-09-11,gin_romi,Gin cup,olli  uusi,1,300,2\n"
    + "2025-09-11,gin_romi,Gin cup,Aino Virtanen,2,100,1\n"
)


def _file(text: str | bytes, name: str = "results.csv") -> io.BytesIO:
    data = text.encode() if isinstance(text, str) else text
    upload = io.BytesIO(data)
    upload.name = name
    return upload


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club,
        name="2025",
        starts_on=datetime.date(2025, 8, 1),
        ends_on=datetime.date(2025, 12, 31),
    )


def test_rows_group_into_events_and_names_match_the_clubs_players(club, season):
    olli = Player.objects.create(club=club, name="Ölli Uusi")
    preview = history_preview(club=club, upload=_file(GOOD))
    assert [(e.name, e.variant_id, len(e.results)) for e in preview.events] == [
        ("Autumn night", "rutupeli", 3),
        ("Gin cup", "gin_romi", 2),
    ]
    assert preview.events[0].season == season
    # "Olli Uusi" and "olli  uusi" are the club's Ölli Uusi; the others are new, once each.
    assert preview.new_players == ["Aino Virtanen", "Bertta Laine"]
    assert all(
        r.player == olli for e in preview.events for r in e.results if "uusi" in r.name.lower()
    )
    assert not Event.objects.exists()  # a preview saves nothing


def test_an_import_saves_events_results_and_new_players_once(club, season):
    history_import(club=club, upload=_file(GOOD))
    events = list(Event.objects.filter(club=club).order_by("date"))
    assert [e.spec.imported for e in events] == [True, True]
    assert all(e.season == season and e.is_published for e in events)
    assert Player.objects.filter(club=club).count() == 3
    night = ImportedResult.objects.filter(event=events[0]).order_by("place", "player__name")
    assert [(r.player.name, r.place, r.total) for r in night] == [
        ("Aino Virtanen", 1, Decimal("35")),
        ("Bertta Laine", 2, Decimal("120.5")),
        ("Olli Uusi", 2, Decimal("120.5")),
    ]
    # The same file again is refused: its events are imported already.
    with pytest.raises(SpreadsheetError):
        history_import(club=club, upload=_file(GOOD))
    assert Event.objects.count() == 2


def _problems(text: str | bytes) -> list[str]:
    with pytest.raises(SpreadsheetError) as caught:
        history_preview(club=ClubFactory(), upload=_file(text))
    return [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An unknown game: named with its row and column.
        (HEADER + "2025-09-04,Canasta,Night,Aino,1,3,\n", ["Row 2, Game"]),
        # Places that skip or start wrong.
        (
            HEADER + "2025-09-04,Rutupeli,Night,Aino,1,3,\n2025-09-04,Rutupeli,Night,Olli,3,5,\n",
            ["Row 3, Place"],
        ),
        (HEADER + "2025-09-04,Rutupeli,Night,Aino,0,3,\n", ["Row 2, Place"]),
        # One player twice in one event.
        (
            HEADER + "2025-09-04,Rutupeli,Night,Aino,1,3,\n2025-09-04,Rutupeli,Night,aino,2,5,\n",
            ["Row 3, Player"],
        ),
        # A date in another format, a formula in a cell, a total that is not a number.
        (HEADER + "04/09/2025,Rutupeli,Night,Aino,1,3,\n", ["Row 2, Date"]),
        (HEADER + "2025-09-04,Rutupeli,Night,=HYPERLINK(1),1,3,\n", ["Row 2, Player"]),
        (HEADER + "2025-09-04,Rutupeli,Night,Aino,1,lots,\n", ["Row 2, Total"]),
        (HEADER + "2025-09-04,Rutupeli,Night,Aino,1,3.333,\n", ["Row 2, Total"]),
        # Wrong encoding.
        ((HEADER + "2025-09-04,Rutupeli,Night,Väinö,1,3,\n").encode("latin-1"), ["Row 2"]),
    ],
)
def test_each_bad_row_is_named_and_nothing_is_saved(text, expected):
    problems = _problems(text)
    for place in expected:
        assert any(place in problem for problem in problems), problems
    assert not Event.objects.exists() and not Player.objects.exists()


def test_a_bom_semicolons_and_finnish_headers_are_read(club):
    text = (
        "\ufeffpäivämäärä;peli;tapahtuma;pelaaja;sija;pisteet\n"
        "4.9.2025;Räväytys;Syysilta;Aino;1;12,5\n"
        "4.9.2025;Räväytys;Syysilta;Olli;2;40\n"
    )
    preview = history_preview(club=club, upload=_file(text))
    assert preview.events[0].variant_id == "ravaytys"
    assert preview.events[0].results[0].total == Decimal("12.5")


def test_too_many_rows_are_refused(club):
    rows = "".join(f"2025-09-04,Rutupeli,Night,P{n},{n + 1},{n},\n" for n in range(10_000))
    with pytest.raises(SpreadsheetError):
        history_preview(club=club, upload=_file(HEADER + rows))


def test_the_standings_give_the_imported_ranking_and_the_league_counts_it(club, season):
    history_import(club=club, upload=_file(GOOD))
    night = Event.objects.get(name="Autumn night")
    standings = event_standings(event=night)
    assert [(r.place, r.shared, r.player, r.total) for r in standings.rows] == [
        (1, False, "Aino Virtanen", 35),
        (2, True, "Bertta Laine", 120.5),
        (2, True, "Olli Uusi", 120.5),
    ]
    league = season_league(season=season)
    assert [event.imported for event in league.events] == [True, True]
    aino = next(line for line in league.rows if line.name == "Aino Virtanen")
    assert aino.events == 2


def test_an_imported_event_takes_no_registration_and_no_draw(club):
    history_import(club=club, upload=_file(GOOD))
    event = Event.objects.get(name="Autumn night")
    with pytest.raises(RuleViolation):
        registration_add(event=event, player=Player.objects.create(club=club, name="Uusi"))


def test_a_director_previews_then_confirms(client, club, season):
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    client.force_login(director)
    url = reverse("history_import", args=[club.slug])
    page = client.post(url, {"file": SimpleUploadedFile("r.csv", GOOD.encode())})
    assert page.status_code == 200 and "new player" in page.content.decode()
    assert not Event.objects.exists()
    token = page.context["confirm_form"].initial["token"]
    done = client.post(reverse("history_import_confirm", args=[club.slug]), {"token": token})
    assert done.status_code == 302 and Event.objects.count() == 2
    # The token is used up: a second click imports nothing more.
    again = client.post(reverse("history_import_confirm", args=[club.slug]), {"token": token})
    assert again.status_code == 302 and Event.objects.count() == 2
    public = client.get(Event.objects.get(name="Gin cup").get_absolute_url()).content.decode()
    assert "imported" in public and "Draw" not in public


def test_a_bad_file_shows_its_problems(client, club):
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    url = reverse("history_import", args=[club.slug])
    page = client.post(url, {"file": SimpleUploadedFile("r.csv", b"\xff\xfe\x00garbage")})
    assert page.status_code == 200
    bad = HEADER + "2025-09-04,Canasta,Night,Aino,1,3,\n"
    page = client.post(url, {"file": SimpleUploadedFile("r.csv", bad.encode())})
    assert "Row 2, Game" in page.content.decode() and not Event.objects.exists()


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCORER])
def test_only_directors_import(client, club, role):
    client.force_login(MembershipFactory(club=club, role=role).user)
    assert client.get(reverse("history_import", args=[club.slug])).status_code == 403


def test_the_demo_history_is_imported_once_and_counted(client):
    club = ClubFactory()
    for name in ("Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Lauri", "Mervi", "Niilo"):
        Player.objects.create(club=club, name=name)
    demo_history(club)
    demo_history(club)
    assert Event.objects.filter(club=club).count() == 3
    assert Player.objects.filter(club=club).count() == 8  # "eero" is the club's Eero
    league = season_league(season=Season.objects.get(club=club, name=HISTORY_SEASON))
    assert len(league.events) == 3 and len(league.rows) == 8


def test_an_imported_events_pages_offer_no_draw_tables_or_score_sheets(client, club):
    history_import(club=club, upload=_file(GOOD))
    event = Event.objects.get(name="Autumn night")
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    manage = client.get(reverse("event_manage", args=[club.slug, event.pk]))
    assert manage.status_code == 200
    html = manage.content.decode()
    assert "imported" in html and "Draw the tables" not in html
    assert reverse("event_tables", args=[club.slug, event.pk]) not in html
    draw = client.post(reverse("draw", args=[club.slug, event.pk]))
    assert draw.status_code in (302, 200) and not event.stages.exists()
    public = client.get(event.get_absolute_url()).content.decode()
    assert "Seating" not in public and "Big screen" not in public
    listed = client.get(club.get_absolute_url()).content.decode()
    assert "imported" in listed
    exported = client.get(reverse("club_events_export", args=[club.slug, "csv"])).content
    assert "imported" in exported.decode("utf-8-sig")
    for name in ("csv", "xlsx"):
        assert (
            client.get(reverse("ranking_export", args=[club.slug, event.pk, name])).status_code
            == 200
        )
    feed = client.get(reverse("event_standings_feed", args=[club.slug, event.pk])).json()
    assert feed["event"]["format"] == "imported"
    assert [p["total"] for p in feed["standings"]["players"]] == [35, 120.5, 120.5]
    assert client.get(reverse("print_standings", args=[club.slug, event.pk])).status_code in (
        200,
        302,
    )


def test_a_2000_row_import_takes_a_fixed_number_of_queries(club, season, capsys):
    """100 nights of 20 (2,000 rows, 20 new players): the same queries as a night of two."""
    names = [f"Pelaaja Äöå {n:02d}" for n in range(20)]
    rows = "".join(
        f"2025-{9 + night // 30:02d}-{1 + night % 28:02d},Rutupeli,Ilta {night},{name},{place},{place * 3}.5,\n"
        for night in range(100)
        for place, name in enumerate(names, start=1)
    )
    small = HEADER + "2025-08-02,Rutupeli,Pieni,Aino,1,1,\n2025-08-02,Rutupeli,Pieni,Olli,2,2,\n"
    with CaptureQueriesContext(connection) as few:
        history_import(club=club, upload=_file(small))
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as many:
        history_import(club=club, upload=_file(HEADER + rows))
    took = time.perf_counter() - started
    assert ImportedResult.objects.filter(event__club=club).count() == 2002
    # The same reads and writes; SQLite splits a bulk insert into batches of its own
    # limit of parameters (some ten for 2,000 results), PostgreSQL does not.
    inserts = sum(q["sql"].startswith("INSERT") for q in many.captured_queries)
    assert len(many) - inserts == len(few) - 3 and inserts <= 20
    with capsys.disabled():
        print(f"\n2,000-row import: {len(many)} queries, {took:.2f} s ({connection.vendor})")


def test_a_refused_row_does_not_make_its_events_other_places_look_wrong():
    rows = "".join(
        f"2025-09-04,{'Canasta' if place == 2 else 'Rutupeli'},Night,P{place},{place},{place},\n"
        for place in range(1, 6)
    )
    assert _problems(HEADER + rows) == [
        'Row 3, Game: There is no game "Canasta"; expected one of Räväytys, Rutupeli, '
        "Gin Römi, Tízlapos Römi."
    ]


@pytest.mark.parametrize(
    ("name", "extra", "method"),
    [
        ("event_screen", {}, "get"),
        ("event_screen_live", {}, "get"),
        ("event_live", {}, "get"),
        ("stage_standings", {"number": 1}, "get"),
        ("print_seating", {"number": 1}, "get"),
        ("print_bracket", {}, "get"),
        ("event_tables", {}, "get"),
        ("event_ranking_mode", {}, "post"),
        ("event_tie_breaks", {}, "post"),
        ("registration_create", {}, "post"),
        ("draw", {}, "post"),
        ("draw_confirm", {}, "post"),
        ("late_seat", {}, "post"),
        ("event_finish", {}, "post"),
        ("championship_stage_close", {}, "post"),
        ("series_round_draw", {}, "post"),
        ("h2h_round_pair", {}, "post"),
        ("print_job_start", {}, "post"),
    ],
)
def test_no_page_of_an_imported_event_gives_a_server_error(client, club, name, extra, method):
    history_import(club=club, upload=_file(GOOD))
    event = Event.objects.get(name="Autumn night")
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    url = reverse(name, kwargs={"slug": club.slug, "event_id": event.pk, **extra})
    response = getattr(client, method)(url, {"player": Player.objects.first().pk})
    assert response.status_code < 500
    assert not event.stages.exists() and not event.registrations.exists()


def test_a_whole_column_wrong_lists_fifty_problems_and_counts_the_rest():
    rows = "".join(f"2025-09-04,Canasta,Night,P{n},{n + 1},1,\n" for n in range(300))
    with pytest.raises(SpreadsheetError) as caught:
        history_preview(club=ClubFactory(), upload=_file(HEADER + rows))
    assert len(caught.value.problems) == 50 and caught.value.more == 250
    assert "300 problems" in str(caught.value.message)


def test_the_club_page_lists_players_whose_events_were_imported(client, club):
    history_import(club=club, upload=_file(GOOD))
    html = client.get(club.get_absolute_url()).content.decode()
    olli = Player.objects.get(club=club, name="Olli Uusi")
    assert reverse("player_record", args=[club.slug, olli.pk]) in html
