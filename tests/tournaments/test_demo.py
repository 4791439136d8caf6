from __future__ import annotations

import io
import itertools

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from demo.loader import (
    CHAMPIONSHIP,
    CHAMPIONSHIP_LIVE,
    FINISHED_NIGHT,
    FORMAT_PLAYERS,
    LATE_NIGHT,
    LEAGUE_NIGHTS,
    PRIVATE_EVENT,
    SEASON,
    SERIES,
    SWISS,
)
from demo.privacy import ERASED_INDEX
from demo.registration import OPEN_EVENT
from formats.championship import championship_bracket
from formats.headtohead import h2h_event_standings
from formats.series import series_standings
from printing.sheets import table_sheet_file
from scoring.models import Deal, DealStatus
from scoring.selectors import table_sheet
from tournaments.engine.seating import meetings
from tournaments.merge import merge_undo_refusal
from tournaments.models import (
    Club,
    Event,
    EventFormat,
    EventStatus,
    Membership,
    MembershipChange,
    Player,
    PlayerMerge,
    Role,
    Season,
    SeasonSchemeChange,
    Stage,
    StageStatus,
    Table,
    TieBreak,
)
from tournaments.selectors import late_arrivals, player_picker

# make run serves the demo from SQLite: the SQLite pass loads it too.
pytestmark = pytest.mark.sqlite


def signs_in(client, username: str, password: str) -> bool:
    # Through the sign-in page: the sign-in throttle's backend needs the request.
    response = client.post(reverse("login"), {"username": username, "password": password})
    client.logout()
    return response.status_code == 302


def test_demo_loader_is_repeatable_and_its_accounts_sign_in(db, client, capsys):
    call_command("demo_load")
    call_command("demo_load")
    club = Club.objects.get(slug="demo")
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"director": "director", "scorer": "scorer", "member": "member"}
    assert club.member_count == 3
    for name in [*roles, "admin"]:
        assert signs_in(client, name, name), name
    out = capsys.readouterr().out
    assert "password director" in out
    assert "password admin" in out


def test_the_director_is_no_superuser_and_the_admin_account_is(db, client):
    call_command("demo_load")
    users = get_user_model().objects
    director, admin = users.get(username="director"), users.get(username="admin")
    assert (director.is_staff, director.is_superuser) == (False, False)
    assert (admin.is_staff, admin.is_superuser) == (True, True)
    assert not Membership.objects.filter(user=admin).exists()  # a site admin, in no club
    client.force_login(director)
    assert client.get(reverse("admin:index")).status_code == 302  # the admin is not theirs
    club = Club.objects.get(slug="demo")
    assert client.get(reverse("club_roles", args=[club.slug])).status_code == 403
    client.force_login(admin)
    assert client.get(reverse("admin:index")).status_code == 200


def test_an_older_demos_superuser_director_is_demoted(db, client):
    old = get_user_model().objects.create_superuser("director", password="director")
    call_command("demo_load")
    old.refresh_from_db()
    assert (old.is_staff, old.is_superuser) == (False, False)
    assert signs_in(client, "director", "director")  # the password is left as it was


def test_reloading_only_puts_back_what_is_missing(db):
    call_command("demo_load")
    club = Club.objects.get(slug="demo")

    def counts():
        return (
            get_user_model().objects.count(),
            Membership.objects.count(),
            MembershipChange.objects.count(),
            Player.objects.count(),
            club.events.count(),
        )

    loaded = counts()
    call_command("demo_load")
    assert counts() == loaded  # nothing new: no second membership, no history of a non-change

    Membership.objects.get(club=club, user__username="scorer").delete()
    changed = Membership.objects.get(club=club, user__username="member")
    changed.role = Role.DIRECTOR  # a visitor's change, left alone
    changed.save()
    call_command("demo_load")
    assert Membership.objects.get(club=club, user__username="scorer").role == Role.SCORER
    assert Membership.objects.get(club=club, user__username="member").role == Role.DIRECTOR
    # The put-back membership is in the club's history, as the first one was.
    added = MembershipChange.objects.filter(club=club, old_role="", user__username="scorer")
    assert added.count() == 2


def test_demo_shows_a_night_for_every_game_with_each_state(db):
    from scoring.models import DealVersion
    from scoring.selectors import event_sheets
    from tournaments.models import Event

    call_command("demo_load")
    events = Event.objects.filter(club__slug="demo")
    assert set(events.values_list("variant_id", flat=True)) == {
        "rutupeli",
        "ravaytys",
        "gin_romi",
        "tizlapos_romi",
    }
    # A finished night: every game confirmed, the event closed, its PIN option shown.
    finished = events.get(name=FINISHED_NIGHT)
    assert finished.confirm_needs_pin
    (sheet,) = event_sheets(event=finished)
    assert sheet.standing.finished and not sheet.unconfirmed
    sheets = [sheet for event in events for sheet in event_sheets(event=event)]
    assert any(sheet.standing.finished and sheet.has_final for sheet in sheets)  # a Gin game over
    assert any(sheet.unconfirmed for sheet in sheets)
    assert any(deal.is_confirmed for sheet in sheets for deal in sheet.deals)
    assert DealVersion.objects.filter(action="correct").exists()


def test_demo_has_late_arrivals_to_seat_and_a_past_guest_out_of_the_picker(db):
    call_command("demo_load")
    night = Event.objects.get(club__slug="demo", name=LATE_NIGHT)
    plan = late_arrivals(event=night)
    assert plan is not None and plan.seatable
    assert sorted(r.player.name for r in plan.waiting) == ["Anna", "Bence"]
    # They are offered the table yet to play, not the one already playing.
    joining = {row.number: row.joining for row in plan.preview}
    assert sorted(joining.get(2, [])) == ["Anna", "Bence"] and not joining.get(1)
    picker = player_picker(event=night)
    assert "Vieras Ville" not in [p.name for p in picker.own + picker.guests]
    assert picker.hidden_guests >= 1
    assert "Vieras Ville" in [p.name for p in player_picker(event=night, past_guests=True).guests]


def stage_tables(stage: Stage) -> list[list[int]]:
    return [
        list(table.seats.order_by("position").values_list("player_id", flat=True))
        for table in stage.tables.order_by("number")
    ]


def test_demo_has_a_finished_forty_player_championship_with_a_settled_tie(db):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=CHAMPIONSHIP)
    assert (event.format, event.status) == (EventFormat.CHAMPIONSHIP, EventStatus.FINISHED)
    assert event.registrations.filter(status="checked_in").count() == 40
    stages = list(event.stages.order_by("number"))
    assert len(stages) >= 3  # stage after stage: 40 → 10 tables → … → a final table
    assert all(stage.status == StageStatus.FINISHED for stage in stages)
    assert len(stage_tables(stages[0])) == 10
    assert len(stage_tables(stages[-1])) == 1
    champion = stages[-1].outcome["champion"]
    assert champion in stage_tables(stages[-1])[0]
    # Each stage's table winners are exactly the next stage's players.
    for stage, following in itertools.pairwise(stages):
        advancers = {row["player"] for row in stage.outcome["advancers"]}
        assert advancers == {p for table in stage_tables(following) for p in table}
    # The tie was played off on the site: its one-deal table's confirmed result is the
    # recorded tie-break, and the stage's outcome cites it.
    (tie,) = TieBreak.objects.filter(stage__event=event)
    (playoff,) = Table.everything.filter(playoff_of__isnull=False, stage__event=event)
    assert tie.table == playoff.playoff_of and tie.method == "playoff_deal"
    assert tie.order == [seat.player_id for seat in playoff.seats.order_by("-position")]
    assert playoff.deals.get().is_confirmed
    cited = [row for row in tie.stage.outcome["advancers"] if row["tie_break"] is not None]
    assert [row["player"] for row in cited] == [tie.order[0]]
    assert tie.order[1] in {row["player"] for row in tie.stage.outcome["eliminated"]}
    # Every deal was entered and confirmed, as at a real table (and the play-off's one).
    deals = Deal.objects.filter(table__stage__event=event)
    assert deals.count() == 7 * sum(len(stage_tables(stage)) for stage in stages) + 1
    assert not deals.exclude(status=DealStatus.CONFIRMED).exists()
    assert championship_bracket(event=event) is not None


def test_demo_has_a_championship_in_progress(db):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=CHAMPIONSHIP_LIVE)
    assert (event.format, event.status) == (EventFormat.CHAMPIONSHIP, EventStatus.RUNNING)
    assert event.registrations.count() == 12
    first, second = event.stages.order_by("number")
    assert first.status == StageStatus.FINISHED and first.outcome["champion"] is None
    assert second.status == StageStatus.CONFIRMED
    going_on = {row["player"] for row in first.outcome["advancers"]}
    assert len(going_on) == 6  # the top two of each of three tables
    assert going_on == {p for table in stage_tables(second) for p in table}
    played = Deal.objects.filter(table__stage=second)
    assert 0 < played.count() < 7 * second.tables.count()  # partly played
    assert played.filter(status=DealStatus.CONFIRMED).exists()
    assert played.exclude(status=DealStatus.CONFIRMED).exists()  # one waits to be confirmed


def test_demo_series_reseats_sixteen_players_with_no_repeat(db):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=SERIES)
    assert (event.format, event.variant_id) == (EventFormat.SERIES, "ravaytys")
    stages = list(event.stages.order_by("number"))
    assert len(stages) == event.format_options["rounds"] == 5
    rounds = [stage_tables(stage) for stage in stages]
    assert all([len(table) for table in tables] == [4, 4, 4, 4] for tables in rounds)
    met = meetings(rounds)
    # 5 rounds × 3 tablemates = 15 = everyone else, each met exactly once.
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}
    assert all(stage.format["series"]["repeats"] == 0 for stage in stages)
    standings = series_standings(event=event)
    assert [r.finished for r in standings.rounds] == [True, True, True, True, False]
    assert len(standings.rows) == 16


def test_demo_swiss_pairs_eight_players_with_no_rematch(db):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=SWISS)
    assert (event.format, event.variant_id) == (EventFormat.SWISS, "gin_romi")
    stages = list(event.stages.order_by("number"))
    assert len(stages) == 3
    pairs = [frozenset(table) for stage in stages for table in stage_tables(stage)]
    assert len(pairs) == 12 and len(set(pairs)) == 12  # nobody met anyone twice
    assert all(len(pair) == 2 for pair in pairs)
    board = h2h_event_standings(event=event)
    assert len(board.rows) == 8
    assert board.rows[0].standing.wins >= 2  # two rounds played, the third under way
    assert [stage.status for stage in stages] == [
        StageStatus.FINISHED,
        StageStatus.FINISHED,
        StageStatus.CONFIRMED,
    ]


def test_reloading_plays_no_event_twice(db):
    call_command("demo_load")
    club = Club.objects.get(slug="demo")

    def counts():
        return (
            Player.objects.filter(club=club).count(),
            Stage.objects.filter(event__club=club).count(),
            Table.objects.filter(stage__event__club=club).count(),
            Deal.objects.filter(table__stage__event__club=club).count(),
            TieBreak.objects.filter(stage__event__club=club).count(),
        )

    loaded = counts()
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    # One of them is erased (demo.privacy): "Entinen pelaaja 1" now.
    erased = FORMAT_PLAYERS[ERASED_INDEX]
    assert len(FORMAT_PLAYERS) == 40 and set(FORMAT_PLAYERS) - {erased} <= names
    assert erased not in names and "Entinen pelaaja 1" in names
    call_command("demo_load")
    assert counts() == loaded
    # An event deleted is put back, and only it.
    Event.objects.get(club=club, name=SWISS).delete()
    call_command("demo_load")
    assert counts() == loaded


@pytest.mark.parametrize("name", [CHAMPIONSHIP, CHAMPIONSHIP_LIVE, SERIES, SWISS])
def test_the_demo_format_events_pages_show(db, client, name):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=name)
    args = [event.club.slug, event.pk]
    for address, who in [("event_public", None), ("event_manage", "director")]:
        if who:
            client.force_login(get_user_model().objects.get(username=who))
        response = client.get(reverse(address, args=args))
        assert response.status_code == 200
        page = response.content.decode()
        # No template syntax leaks onto the page (a comment Django did not take as one).
        assert "{#" not in page and "{%" not in page and "{{" not in page


def test_demo_season_has_a_league_table_with_dropped_events_and_a_scheme_change(db, client):
    call_command("demo_load")
    season = Season.objects.get(club__slug="demo", name=SEASON)
    counted = season.events.filter(status=EventStatus.FINISHED, published_at__isnull=False)
    assert set(LEAGUE_NIGHTS) | {FINISHED_NIGHT, CHAMPIONSHIP} == set(
        counted.values_list("name", flat=True)
    )
    change = SeasonSchemeChange.objects.filter(season=season).latest("changed_at")
    assert change.old_scheme.get("best_n") is None and change.new_scheme["best_n"] == 3
    page = client.get(reverse("season_league", args=["demo", season.pk])).content.decode()
    assert page.count('<s class="dropped"') >= 3  # events past the best three, struck through
    assert "Best three events count" in page  # the decision, with its reason
    rows = season.league_rows["rows"]
    assert any(sum(cell["counted"] for cell in row["cells"]) < len(row["cells"]) for row in rows)


def test_demo_private_event_is_seen_by_its_director_only(db, client):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=PRIVATE_EVENT)
    assert event.published_at is None
    address = reverse("event_public", args=["demo", event.pk])
    assert client.get(address).status_code == 404
    assert PRIVATE_EVENT not in client.get(reverse("club_detail", args=["demo"])).content.decode()
    client.force_login(get_user_model().objects.get(username="director"))
    assert client.get(address).status_code == 200


def test_demo_winter_cup_breaks_ties_by_deals_won_and_its_result_sheet_says_so(db):
    """The winter cup puts deals won before the last deal: its first table's two leaders are
    level on the total, and the one who won more deals is the winner on the printed result
    sheet, as on its page and in its standings."""
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=CHAMPIONSHIP_LIVE)
    assert event.tie_breaks[:3] == ["total", "deals_won", "last_deal"]
    first = event.stages.get(number=1)
    table = first.tables.get(number=1)
    sheet = table_sheet(table=table)
    won_more = table.seats.get(position=0)
    assert sheet.standing.totals[0] == sheet.standing.totals[1]
    assert sheet.winner == won_more
    # The game's own order (the last deal first) would crown the other: the demo shows an
    # order that matters, not one that happens to agree.
    assert sheet.standing.winner == 1
    printed = table_sheet_file(table=table, filled=True, language="en").content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed)).pages)
    assert f"Winner: {won_more.player.name}" in text


def test_demo_has_one_merged_duplicate_that_can_be_undone(db):
    call_command("demo_load")
    club = Club.objects.get(slug="demo")
    (merge,) = PlayerMerge.objects.filter(club=club)
    assert merge.merged.guest and merge.merged.merged_into_id == merge.kept_id
    assert merge.merged.name == merge.kept.name.lower()
    assert len(merge.moved["registrations"]) == 1 and len(merge.moved["seats"]) == 1
    assert merge_undo_refusal(merge=merge) is None
    call_command("demo_load")  # a reload adds no second merge
    assert PlayerMerge.objects.filter(club=club).count() == 1


def test_demo_has_an_event_open_for_registration_with_every_state(db, client):
    call_command("demo_load")
    event = Event.objects.get(club__slug="demo", name=OPEN_EVENT)
    statuses = sorted(event.registrations.values_list("status", flat=True))
    assert statuses.count("registered") == event.capacity
    assert {"waitlisted", "unconfirmed", "cancelled"} <= set(statuses)
    # Full: the public page offers the waitlist; the door has the registered to tick off.
    page = client.get(reverse("event_public", args=["demo", event.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "Join the waitlist" in page.content.decode()
    client.force_login(get_user_model().objects.get(username="scorer"))
    door = client.get(reverse("checkin", args=["demo", event.pk])).content.decode()
    assert f"0 of {event.capacity} here" in door
