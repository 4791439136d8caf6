"""Late arrivals: players checked in after the draw, seated at a table that has not played its
first deal or at a new table of their own, through a proposal the director confirms."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from core.i18n import violation_text
from rules import RuleViolation
from scoring.models import Deal
from scoring.selectors import table_sheet
from scoring.services import Actor, _locked_table, deal_record
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tests.support.locks import waiting_for_a_lock
from tournaments.engine.draw import TableBounds
from tournaments.engine.late import OpenTable, late_placement
from tournaments.models import Player, Registration, Role, Seat, Stage, StageStatus, Table
from tournaments.selectors import late_arrivals
from tournaments.services import (
    late_arrivals_seat,
    registration_add,
    registration_status_set,
    stage_draw,
)

pytestmark = pytest.mark.django_db

CONTRACT = TableBounds(min_size=3, max_size=6, preferred=4)
GIN = TableBounds(min_size=2, max_size=2, preferred=2)


def entry(players: int) -> dict:
    """A Rutupeli deal 1: the first seat went out, the others hold one card each."""
    cards = ["A", "K", "Q", "J", "9", "8"]
    return {
        "out": 0,
        "players": [{"cards": None if i == 0 else cards[i - 1], "buys": 0} for i in range(players)],
    }


def first_deal(table: Table, players: int, request_id: str = "r1") -> Deal:
    return deal_record(
        table=table,
        number=1,
        entry=entry(players),
        by=Actor(device="phone", seat=0),
        expected_version=0,
        request_id=request_id,
    )


def late(event, name: str) -> Player:
    player = Player.objects.create(club=event.club, name=name)
    registration_add(event=event, player=player, checked_in=True)
    return player


@pytest.fixture
def night():
    """Eight players on two tables of four, seated; nobody has played yet."""
    event, tables = seated_event(variant_id="rutupeli", players=8)
    return event, tables


# -- the proposal (pure) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tables", "bounds", "joins", "new", "waiting"),
    [
        # One or two late: each joins the smallest open table (by number on a tie).
        (["a"], [(10, 1, 4), (20, 2, 3)], CONTRACT, {"a": 20}, [], []),
        (["a", "b"], [(10, 1, 4), (20, 2, 4)], CONTRACT, {"a": 10, "b": 20}, [], []),
        # Enough for a table: a new one, the seated tables undisturbed.
        (["a", "b", "c"], [(10, 1, 4)], CONTRACT, {}, [["a", "b", "c"]], []),
        (["a", "b", "c", "d", "e", "f", "g"], [], CONTRACT, {}, [["a", "b", "c", "d"], ["e", "f", "g"]], []),
        # Full tables (and no open ones): the lone late arrival waits.
        (["a"], [(10, 1, 6)], CONTRACT, {}, [], ["a"]),
        (["a"], [], CONTRACT, {}, [], ["a"]),
        # Gin is two a table: an odd one out waits for the next arrival.
        (["a", "b", "c"], [], GIN, {}, [["a", "b"]], ["c"]),
        (["a"], [(10, 1, 2)], GIN, {}, [], ["a"]),
    ],
)  # fmt: skip
def test_the_proposal(players, tables, bounds, joins, new, waiting):
    placement = late_placement(players, [OpenTable(*table) for table in tables], bounds)
    assert placement.joins == joins
    assert placement.new_tables == new
    assert placement.waiting == waiting


# -- the services -------------------------------------------------------------------------------


def test_a_player_checked_in_after_the_draw_is_late_and_waits(night):
    event, (one, _two) = night
    aino = late(event, "Aino Late")
    registration = Registration.objects.get(event=event, player=aino)
    assert registration.late
    plan = late_arrivals(event=event)
    assert [r.player for r in plan.waiting] == [aino]
    assert plan.seatable
    assert plan.proposal.joins == {aino.pk: one.pk}
    assert [(row.number, row.joining) for row in plan.preview] == [(1, ["Aino Late"])]


def test_withdrawn_and_back_is_not_waiting_when_still_seated(night):
    event, (one, _two) = night
    registration = one.seats.first().player.registrations.get(event=event)
    registration_status_set(registration=registration, status="withdrawn", confirmed=True)
    registration_status_set(registration=registration, status="checked_in")
    assert late_arrivals(event=event) is None


def test_seated_at_a_table_that_has_not_started(night):
    event, (one, two) = night
    first_dealer = two.seats.get(is_first_dealer=True).pk
    aino = late(event, "Aino Late")
    seats = late_arrivals_seat(stage=two.stage, joins={aino.pk: two.pk})
    seat = Seat.objects.get(player=aino)
    assert [s.pk for s in seats] == [seat.pk]
    assert (seat.table_id, seat.position, seat.is_first_dealer) == (two.pk, 4, False)
    assert len(seat.pin) == 6 and seat.pin.isdigit()
    assert list(two.seats.order_by("position").values_list("position", flat=True)) == [
        0,
        1,
        2,
        3,
        4,
    ]
    assert two.seats.get(is_first_dealer=True).pk == first_dealer
    assert one.seats.count() == 4
    assert late_arrivals(event=event) is None


def test_the_table_that_grew_scores_every_seat_and_keeps_its_first_dealer(night):
    event, (_one, two) = night
    aino = late(event, "Aino Late")
    late_arrivals_seat(stage=two.stage, joins={aino.pk: two.pk})
    with pytest.raises(RuleViolation) as refused:
        first_deal(two, players=4)  # a phone still showing four players
    assert refused.value.code == "wrong_player_count"
    deal = first_deal(two, players=5, request_id="r2")
    assert deal.points == [0, 20, 10, 10, 10]  # A, K, Q, J: the late seat is scored too
    sheet = table_sheet(table=two)
    assert sheet.problem is None
    assert {row["seat"].player.name for row in sheet.rows} >= {"Aino Late"}
    assert len(sheet.rows) == 5
    assert sheet.standing.totals[4] == 10
    first = two.seats.get(is_first_dealer=True)
    assert sheet.dealer(1).pk == first.pk and first.position == 0
    assert sheet.dealer(5).player == aino  # the new seat deals in its turn
    assert sheet.dealer(6).pk == first.pk


def test_refused_at_a_table_that_has_played_its_first_deal(night):
    event, (one, two) = night
    first_deal(two, players=4)
    aino = late(event, "Aino Late")
    plan = late_arrivals(event=event)
    assert [table.pk for table in plan.tables] == [one.pk]  # table 2 is no longer offered
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=two.stage, joins={aino.pk: two.pk})
    assert refused.value.code == "late_table_started"
    assert refused.value.params["number"] == 2
    assert not Seat.objects.filter(player=aino).exists()


def test_refused_at_a_full_table(night):
    event, (one, _two) = night
    players = [late(event, f"Late {i}") for i in range(3)]
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=one.stage, joins={p.pk: one.pk for p in players})
    assert refused.value.code == "late_table_full"
    assert refused.value.params == {"number": 1, "max": 6}
    with translation.override("en"):  # an earlier test's request may have left another active
        assert violation_text(refused.value) == (
            "Table 1 cannot take them: it seats at most 6 players."
        )
    assert one.seats.count() == 4  # nothing half-done
    late_arrivals_seat(stage=one.stage, joins={p.pk: one.pk for p in players[:2]})
    assert one.seats.count() == 6
    plan = late_arrivals(event=event)
    assert one.pk not in [table.pk for table in plan.tables]  # full: no longer offered


def test_a_new_table_for_late_arrivals(night):
    event, (one, two) = night
    keys = {one.entry_key, two.entry_key}
    players = [late(event, name) for name in ("Late A", "Late B", "Late C")]
    plan = late_arrivals(event=event)
    assert plan.proposal.new_tables == [[p.pk for p in players]]
    assert plan.new_numbers == [3]
    assert [(row.number, row.new, row.joining) for row in plan.preview] == [
        (3, True, ["Late A", "Late B", "Late C"])
    ]
    seats = late_arrivals_seat(stage=one.stage, joins={}, new_tables=[[p.pk for p in players]])
    table = Table.objects.get(stage=one.stage, number=3)
    assert table.entry_key and table.entry_key not in keys
    assert not table.has_scores
    assert [
        (s.player_id, s.position, s.is_first_dealer) for s in table.seats.order_by("position")
    ] == [
        (players[0].pk, 0, True),
        (players[1].pk, 1, False),
        (players[2].pk, 2, False),
    ]
    assert len({s.pin for s in seats}) >= 1 and all(len(s.pin) == 6 for s in seats)
    first_deal(table, players=3)  # the new table plays like any other
    assert Deal.objects.filter(table=table).count() == 1


def test_a_new_table_must_fit_the_game(night):
    event, (one, _two) = night
    players = [late(event, name) for name in ("Late A", "Late B")]
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=one.stage, joins={}, new_tables=[[p.pk for p in players]])
    assert refused.value.code == "late_new_table_size"
    assert refused.value.params["count"] == 2
    assert Table.objects.filter(stage=one.stage).count() == 2


def test_a_player_already_seated_or_not_checked_in_is_refused(night):
    event, (one, two) = night
    aino = late(event, "Aino Late")
    late_arrivals_seat(stage=one.stage, joins={aino.pk: one.pk})
    with pytest.raises(RuleViolation) as twice:  # another tab's stale proposal
        late_arrivals_seat(stage=one.stage, joins={aino.pk: two.pk})
    assert twice.value.code == "late_not_waiting"
    assert "Aino Late" in twice.value.message
    stranger = Player.objects.create(club=event.club, name="Not Here")
    with pytest.raises(RuleViolation):
        late_arrivals_seat(stage=one.stage, joins={stranger.pk: two.pk})
    assert Seat.objects.filter(player=aino).count() == 1


def test_a_draw_in_preview_takes_no_late_arrivals(club):
    event, (one, _two) = seated_event(variant_id="rutupeli", players=8, club=club)
    stage = one.stage
    Stage.objects.filter(pk=stage.pk).update(status=StageStatus.PREVIEW)
    aino = late(event, "Aino Late")
    plan = late_arrivals(event=event)
    assert plan.waiting[0].player == aino and not plan.seatable
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=stage, joins={aino.pk: one.pk})
    assert refused.value.code == "late_not_seated"
    stage_draw(event=event, seed=3)  # drawing again seats everyone checked in
    assert Seat.objects.filter(player=aino).exists()


def test_the_table_is_judged_as_stored_not_as_the_caller_saw_it(night):
    """The proposal was made while table 2 had not started; its first deal lands before the
    director confirms: the service reads the table under its lock and refuses."""
    event, (_one, two) = night
    aino = late(event, "Aino Late")
    seen = Table.objects.get(pk=two.pk)
    stage = seen.stage
    first_deal(two, players=4)
    assert seen.has_scores is False  # the caller's copy is stale
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=stage, joins={aino.pk: seen.pk})
    assert refused.value.code == "late_table_started"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_first_deal_saving_while_the_director_seats_is_waited_for_then_refused():
    """A save holds table 2's lock; the director's seating waits for it (the same row lock)
    and then sees the deal: refused, nothing half-seated."""
    event, (_one, two) = seated_event(variant_id="rutupeli", players=8)
    aino = late(event, "Aino Late")
    locked, release = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def save_in_progress():
        try:
            with transaction.atomic():
                _locked_table(two)
                locked.set()
                release.wait(timeout=20)
                Table.objects.filter(pk=two.pk).update(has_scores=True)
        finally:
            connection.close()

    def seat():
        try:
            outcome["seat"] = late_arrivals_seat(stage=two.stage, joins={aino.pk: two.pk})
        except Exception as error:
            outcome["seat"] = error
        finally:
            connection.close()

    holder = threading.Thread(target=save_in_progress)
    holder.start()
    assert locked.wait(timeout=10)
    seater = threading.Thread(target=seat)
    seater.start()
    try:
        # Until the seating is seen waiting for a row lock (not a timed assertion: a wait).
        assert waiting_for_a_lock()
    finally:
        release.set()
        holder.join(timeout=30)
        seater.join(timeout=30)
    assert isinstance(outcome["seat"], RuleViolation), outcome
    assert outcome["seat"].code == "late_table_started"
    assert not Seat.objects.filter(player=aino).exists()


# -- the pages ----------------------------------------------------------------------------------


def manage(event, name="event_manage"):
    return reverse(name, args=[event.club.slug, event.pk])


@pytest.fixture
def director(night):
    event, _tables = night
    return MembershipFactory(club=event.club, role=Role.DIRECTOR).user


def test_the_manage_page_proposes_and_the_director_confirms(client, night, director):
    event, (one, two) = night
    aino = late(event, "Aino Late")
    client.force_login(director)
    page = client.get(manage(event)).content.decode()
    section = page.split('id="late"', 1)[1].split("</section>", 1)[0]
    assert "Late arrivals" in section
    assert "1 player checked in after the draw and waits for a seat." in section
    assert "Proposed seating" in section and "<strong>Aino Late</strong>" in section
    assert f'name="p{aino.pk}"' in section
    assert f'<option value="t{one.pk}" selected>Table 1 (4 players)</option>' in section
    assert f'value="t{two.pk}"' in section and 'value=""' in section  # "Not yet"
    # The director prefers table 2.
    response = client.post(manage(event, "late_seat"), {f"p{aino.pk}": f"t{two.pk}"}, follow=True)
    assert "1 late arrival seated." in response.content.decode()
    assert Seat.objects.get(player=aino).table_id == two.pk
    page = response.content.decode()
    assert 'id="late"' not in page  # nobody waits any more
    tables = page.split('id="tables"', 1)[1]
    assert "Aino Late" in tables


def test_the_director_sees_why_a_table_was_refused(client, night, director):
    event, (_one, two) = night
    aino = late(event, "Aino Late")
    client.force_login(director)
    client.get(manage(event))  # the page proposed table 1 and offered table 2 ...
    first_deal(two, players=4)  # ... whose first deal lands before the director confirms
    response = client.post(manage(event, "late_seat"), {f"p{aino.pk}": f"t{two.pk}"}, follow=True)
    assert "Table 2 has played its first deal" in response.content.decode()
    assert not Seat.objects.filter(player=aino).exists()


def test_a_new_table_from_the_page_and_not_yet(client, night, director):
    event, _tables = night
    players = [late(event, f"Late {name}") for name in "ABCD"]
    client.force_login(director)
    page = client.get(manage(event)).content.decode()
    assert "Table 3 (new)" in page and '<option value="n0" selected>New table 3</option>' in page
    data = {f"p{p.pk}": "n0" for p in players[:3]} | {f"p{players[3].pk}": ""}
    client.post(manage(event, "late_seat"), data)
    table = Table.objects.get(stage__event=event, number=3)
    assert sorted(table.seats.values_list("player__name", flat=True)) == [
        "Late A",
        "Late B",
        "Late C",
    ]
    page = client.get(manage(event)).content.decode()
    assert "Late D" in page.split('id="late"', 1)[1]  # still waiting, proposed table 1


def test_a_bad_choice_seats_nobody(client, night, director):
    event, _tables = night
    aino = late(event, "Aino Late")
    client.force_login(director)
    other_event, (elsewhere,) = seated_event(variant_id="rutupeli", players=4, club=event.club)
    for value in (f"t{elsewhere.pk}", "t999999", "n5", "x"):
        response = client.post(manage(event, "late_seat"), {f"p{aino.pk}": value}, follow=True)
        assert response.status_code == 200
    assert not Seat.objects.filter(player=aino).exists()
    assert other_event.pk != event.pk


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("outsider", 403), ("member", 403)]
)
def test_only_the_clubs_director_seats_late_arrivals(client, night, who, status, request):
    event, (one, _two) = night
    aino = late(event, "Aino Late")
    if who == "member":
        client.force_login(MembershipFactory(club=event.club, role=Role.MEMBER).user)
    elif who == "outsider":
        client.force_login(request.getfixturevalue("outsider"))
    response = client.post(manage(event, "late_seat"), {f"p{aino.pk}": f"t{one.pk}"})
    assert response.status_code == status
    if who == "anonymous":
        assert "/accounts/login/" in response["Location"]
    assert client.get(reverse("late_seat", args=[event.club.slug, event.pk])).status_code in {
        302,
        403,
        405,
    }
    assert not Seat.objects.filter(player=aino).exists()


def test_the_page_with_late_arrivals_takes_the_same_queries_for_a_big_event(
    client, django_assert_max_num_queries
):
    def night_with_late(players: int, late_players: int):
        event, _tables = seated_event(variant_id="rutupeli", players=players)
        for index in range(late_players):
            late(event, f"Late {index:03d}")
        return event

    small = night_with_late(8, 1)
    director = MembershipFactory(club=small.club, role=Role.DIRECTOR).user
    client.force_login(director)
    with CaptureQueriesContext(connection) as queries:
        assert "Late arrivals" in client.get(manage(small)).content.decode()
    big = night_with_late(160, 7)
    MembershipFactory(club=big.club, role=Role.DIRECTOR, user=director)
    with django_assert_max_num_queries(len(queries)):
        page = client.get(manage(big)).content.decode()
    assert "Late 006" in page and "New table 41" in page


def test_a_draw_in_preview_says_to_draw_again(client, night, director):
    event, (one, _two) = night
    Stage.objects.filter(pk=one.stage_id).update(status=StageStatus.PREVIEW)
    aino = late(event, "Aino Late")
    client.force_login(director)
    section = client.get(manage(event)).content.decode().split('id="late"', 1)[1]
    assert "1 player checked in after this draw and has no seat: draw again" in section
    assert "Aino Late" in section and "Seat the late arrivals" not in section
    response = client.post(manage(event, "late_seat"), {f"p{aino.pk}": f"t{one.pk}"}, follow=True)
    assert "Nobody waits for a seat at these tables now." in response.content.decode()
    assert not Seat.objects.filter(player=aino).exists()


def test_gin_a_lone_late_arrival_waits_for_a_partner(client):
    event, tables = seated_event(variant_id="gin_romi", players=4)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    client.force_login(director)
    first = late(event, "Lone Late")
    section = client.get(manage(event)).content.decode().split('id="late"', 1)[1]
    assert "No table can take them yet: Lone Late" in section
    assert "Seat the late arrivals" not in section  # nowhere to seat them: nothing to confirm
    response = client.post(manage(event, "late_seat"), {f"p{first.pk}": ""}, follow=True)
    assert "Nobody was seated" in response.content.decode()
    second = late(event, "Second Late")
    plan = late_arrivals(event=event)
    assert plan.proposal.new_tables == [[first.pk, second.pk]]
    client.post(manage(event, "late_seat"), {f"p{first.pk}": "n0", f"p{second.pk}": "n0"})
    table = Table.objects.get(stage=tables[0].stage, number=3)
    assert list(table.seats.values_list("player__name", flat=True)) == ["Lone Late", "Second Late"]


def test_a_finished_event_seats_nobody(night):
    event, (one, _two) = night
    aino = late(event, "Aino Late")
    type(event).objects.filter(pk=event.pk).update(status="finished")
    event.refresh_from_db()
    assert late_arrivals(event=event) is None
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=one.stage, joins={aino.pk: one.pk})
    assert refused.value.code == "late_not_seated"
