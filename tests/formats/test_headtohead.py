"""Head-to-head Gin Römi events played through the site's services: Swiss and round robin
rounds paired, played to 150 and settled, the standings with head-to-head, the refusals,
the pages, constant queries and who may pair."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from formats.headtohead import h2h_event_standings, h2h_round_draw
from rules import RuleViolation
from tests.support.factories import MembershipFactory
from tests.support.headtohead import (
    h2h_confirm,
    h2h_deal,
    h2h_event,
    pair_and_confirm,
    pairs_of,
    play,
)
from tournaments.models import EventFormat, Player, Role, Stage, StageStatus
from tournaments.services import registration_status_set, seat_swap, stage_confirm

pytestmark = pytest.mark.django_db


def names() -> dict[int, str]:
    return dict(Player.objects.values_list("pk", "name"))


# A settled Gin game to 150, the loser at 0: 150 + extra points, two deals won (25 each),
# the game (150) and the shutout (150).
def settled(extra: int = 0) -> int:
    return 150 + extra + 50 + 150 + 150


def test_an_eight_player_swiss_plays_four_rounds_without_a_rematch():
    event = h2h_event(players=8, format=EventFormat.SWISS, rounds=4)
    strength = {pk: -int(name[1:]) for pk, name in names().items()}  # P01 beats everyone
    met: list[frozenset[int]] = []
    for number in range(1, 5):
        stage = pair_and_confirm(event, seed=number)
        assert stage.number == number and stage.format["bye"] is None
        assert len(pairs_of(stage)) == 4
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            met.append(frozenset(pair))
            play(table, max(pair, key=strength.__getitem__), extra=number)
    assert len(met) == len(set(met)) == 16  # nobody met anyone twice
    assert list(Stage.objects.filter(event=event).values_list("status", flat=True)) == [
        StageStatus.FINISHED,
        StageStatus.FINISHED,
        StageStatus.FINISHED,
        StageStatus.CONFIRMED,
    ]
    board = h2h_event_standings(event=event)
    top = board.rows[0]
    assert (top.name, top.standing.wins, top.place_label) == ("P01", 4, "1")
    assert top.standing.points == sum(settled(n) for n in range(1, 5))
    assert sum(row.standing.wins for row in board.rows) == 16
    assert [row.standing.played for row in board.rows] == [4] * 8
    # The grid: P01 won every match it played, and the row reads its own points first.
    played = [cell for cells in top.cells for cell in cells]
    assert len(played) == 4 and all(cell.won for cell in played)
    assert {cell.against for cell in played} == {0}
    # A fifth round is refused: the event has four.
    with pytest.raises(RuleViolation) as refused:
        h2h_round_draw(event=event)
    assert refused.value.code == "h2h_all_rounds"


def test_a_five_player_round_robin_gives_everyone_one_bye_and_ranks_by_head_to_head():
    event = h2h_event(players=5, format=EventFormat.ROUND_ROBIN, bye_wins=1, bye_points=0)
    pk = {name: player for player, name in names().items()}
    # P01 beats everyone; P02 beats P03 and P05; P03 beats P04 and P05; P04 beats P02;
    # P05 beats P04. P02 and P03 are level (2 wins), P02 won their match; P04 and P05 too.
    beats = {("P01", x) for x in ("P02", "P03", "P04", "P05")} | {
        ("P02", "P03"),
        ("P02", "P05"),
        ("P03", "P04"),
        ("P03", "P05"),
        ("P04", "P02"),
        ("P05", "P04"),
    }
    winner = {frozenset((pk[a], pk[b])): pk[a] for a, b in beats}
    met: list[frozenset[int]] = []
    byes = []
    for number in range(1, 6):
        stage = pair_and_confirm(event, seed=3)
        assert stage.number == number
        byes.append(stage.format["bye"])
        if number == 1:
            assert len(stage.format["schedule"]) == 5
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            met.append(frozenset(pair))
            play(table, winner[frozenset(pair)])
    assert sorted(byes) == sorted(pk.values())  # each player sat out exactly once
    assert len(met) == len(set(met)) == 10  # every pair met exactly once
    rows = h2h_event_standings(event=event).rows
    assert [(row.name, row.place_label, row.standing.wins) for row in rows] == [
        ("P01", "1", 5),
        ("P02", "2", 3),
        ("P03", "3", 3),
        ("P05", "4", 2),
        ("P04", "5", 2),
    ]
    assert [row.standing.tiebreak for row in rows[1:]] == [
        "wins",
        "head_to_head",
        "wins",
        "head_to_head",
    ]
    assert all(row.standing.byes == 1 and row.bye_rounds for row in rows)
    assert rows[1].standing.points == 2 * settled()  # the bye is worth no points here
    with pytest.raises(RuleViolation) as refused:
        h2h_round_draw(event=event)
    assert refused.value.code == "h2h_all_rounds"


def test_a_swap_in_round_one_still_meets_every_pair_exactly_once():
    event = h2h_event(players=6, format=EventFormat.ROUND_ROBIN)
    stage = h2h_round_draw(event=event, seed=8)
    one, two = stage.tables.order_by("number")[:2]
    seat_swap(first=one.seats.get(position=1), second=two.seats.get(position=0))
    stage_confirm(stage=stage)
    met = []
    for number in range(1, 6):
        if number > 1:
            stage = pair_and_confirm(event)
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            met.append(frozenset(pair))
            play(table, min(pair))
    assert len(met) == len(set(met)) == 15


def test_players_the_matches_cannot_separate_share_a_place():
    event = h2h_event(players=3, format=EventFormat.ROUND_ROBIN, bye_points=40)
    pk = {name: player for player, name in names().items()}
    cycle = {frozenset((pk["P01"], pk["P02"])): pk["P01"]}
    cycle[frozenset((pk["P02"], pk["P03"]))] = pk["P02"]
    cycle[frozenset((pk["P03"], pk["P01"]))] = pk["P03"]
    for _round in range(3):
        stage = pair_and_confirm(event)
        (table,) = stage.tables.all()
        play(table, cycle[frozenset(pairs_of(stage)[0])])
    rows = h2h_event_standings(event=event).rows
    assert [row.place_label for row in rows] == ["=1", "=1", "=1"]
    assert {row.standing.points for row in rows} == {settled() + 40}  # the bye's 40 points


def test_the_next_round_waits_for_every_match_to_finish_and_be_confirmed():
    event = h2h_event(players=4, format=EventFormat.SWISS, rounds=3)
    first = pair_and_confirm(event, seed=1)
    done, playing = first.tables.order_by("number")
    play(done, pairs_of(first)[0][0])
    deal = h2h_deal(playing, 1, winner=0, loser_deadwood=100)  # 125: not over yet
    with pytest.raises(RuleViolation) as refused:
        h2h_round_draw(event=event)
    assert refused.value.code == "h2h_round_playing"
    assert refused.value.params["table"] == 2
    h2h_confirm(deal)
    second = h2h_deal(playing, 2, winner=0, loser_deadwood=10)  # over, but not confirmed
    with pytest.raises(RuleViolation):
        h2h_round_draw(event=event)
    assert Stage.objects.filter(event=event).count() == 1
    h2h_confirm(second)
    stage = h2h_round_draw(event=event, number=2)
    assert stage.number == 2
    first.refresh_from_db()
    assert first.status == StageStatus.FINISHED and first.closed_at is not None
    # The winners of round 1 meet, and so do its losers.
    winners = {pairs_of(first)[0][0], pairs_of(first)[1][0]}
    assert winners in [set(pair) for pair in pairs_of(stage)]
    # A second tap for round 2 pairs it again (a preview), never a round 3.
    again = h2h_round_draw(event=event, number=2, seed=99)
    assert again.pk == stage.pk and again.tables.count() == 2
    with pytest.raises(RuleViolation) as stale:
        h2h_round_draw(event=event, number=3)
    assert stale.value.code == "h2h_stale"


def test_a_rematch_in_the_preview_is_marked_on_the_manage_page(client):
    event = h2h_event(players=2, format=EventFormat.SWISS, rounds=2)
    first = pair_and_confirm(event)
    play(first.tables.get(), pairs_of(first)[0][1])
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = client.get(manage).content.decode()
    assert "Pair round 2" in page
    response = client.post(
        reverse("h2h_round_pair", args=[event.club.slug, event.pk]), {"round": 2}
    )
    assert response.status_code == 302 and response["Location"].endswith("#rounds")
    second = Stage.objects.get(event=event, number=2)
    assert second.status == StageStatus.PREVIEW and len(second.format["rematches"]) == 1
    page = client.get(manage).content.decode()
    assert "Preview of round 2" in page and "rematch" in page and "Confirm round 2" in page
    # The draw's confirm confirms the newest preview: round 2.
    client.post(reverse("draw_confirm", args=[event.club.slug, event.pk]))
    second.refresh_from_db()
    assert second.status == StageStatus.CONFIRMED


def test_the_manage_page_shows_the_bye_and_the_public_page_the_grid(client):
    event = h2h_event(players=5, format=EventFormat.ROUND_ROBIN)
    first = pair_and_confirm(event, seed=5)
    for table, pair in zip(first.tables.order_by("number"), pairs_of(first), strict=True):
        play(table, pair[0])
    h2h_round_draw(event=event)
    second = Stage.objects.get(event=event, number=2)
    bye_name = Player.objects.get(pk=second.format["bye"]).name
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    page = client.get(reverse("event_manage", args=[event.club.slug, event.pk])).content.decode()
    assert f"Bye: {bye_name} sits out this round." in page
    assert 'id="late"' not in page  # the bye is not a late arrival waiting for a seat
    client.logout()
    public = client.get(reverse("event_live", args=[event.club.slug, event.pk])).content.decode()
    assert "Standings" in public and "h2h-grid" in public
    first_bye = Player.objects.get(pk=first.format["bye"]).name
    assert first_bye in public and "bye R1" in public
    assert public.count(">W</strong>") == 2 and public.count(">L</span>") == 2


def test_only_a_director_pairs_a_round(client, member, outsider):
    event = h2h_event(players=4, format=EventFormat.SWISS, club=member.memberships.get().club)
    url = reverse("h2h_round_pair", args=[event.club.slug, event.pk])
    assert client.post(url, {"round": 1}).status_code == 302  # to sign in
    for user in (member, outsider):
        client.force_login(user)
        assert client.post(url, {"round": 1}).status_code == 403
    assert not Stage.objects.filter(event=event).exists()
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    assert client.get(url).status_code == 405
    client.post(url, {"round": 1})
    assert Stage.objects.get(event=event).tables.count() == 2


def test_a_night_has_no_rounds_to_pair(client):
    event = h2h_event(players=4, format=EventFormat.NIGHT)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    client.post(reverse("h2h_round_pair", args=[event.club.slug, event.pk]), {"round": 1})
    assert not Stage.objects.filter(event=event).exists()
    page = client.get(reverse("event_manage", args=[event.club.slug, event.pk])).content.decode()
    assert "Pair round" not in page


def _two_swiss_rounds(players: int):
    event = h2h_event(players=players, format=EventFormat.SWISS, rounds=3)
    for number in (1, 2):
        stage = pair_and_confirm(event, seed=number)
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            play(table, min(pair))
    return event


@pytest.mark.parametrize("players", [8, 16])
def test_the_standings_take_the_same_queries_for_8_and_16_players(
    players, django_assert_max_num_queries
):
    event = _two_swiss_rounds(players)
    h2h_round_draw(event=event)  # a preview too: its pairs are read as well
    with django_assert_max_num_queries(7):
        board = h2h_event_standings(event=event)
    assert len(board.rows) == players and len(board.preview_pairs) == players // 2


def test_the_public_page_takes_the_same_queries_for_8_and_16_players(client):
    counts = []
    for players in (8, 16):
        event = _two_swiss_rounds(players)
        url = reverse("event_live", args=[event.club.slug, event.pk])
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_a_player_who_withdraws_holds_up_no_round_of_a_round_robin():
    event = h2h_event(players=4, format=EventFormat.ROUND_ROBIN)
    first = pair_and_confirm(event, seed=1)
    gone = pairs_of(first)[0][1]
    for table in first.tables.order_by("number"):
        a, b = table.seats.order_by("position").values_list("player_id", flat=True)
        if gone not in (a, b):
            play(table, a)
    # The withdrawn player's match stays unfinished: it must not block round 2.
    registration = event.registrations.get(player_id=gone)
    registration_status_set(registration=registration, status="withdrawn", confirmed=True)
    second = pair_and_confirm(event)
    paired = [p for pair in pairs_of(second) for p in pair]
    assert gone not in paired
    assert len(pairs_of(second)) == 1  # the other scheduled match; its opponent sits out
