"""Merging two players who are one person: every reference moves, the standings and league
table follow, refusals leave everything as it was, and an undo puts back exactly what moved."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from formats.championship import championship_bracket, championship_stage_close, tie_break_record
from formats.headtohead import h2h_event_standings
from formats.series import series_standings
from leagues.services import league_recompute, season_league
from rules import RuleViolation
from tests.support.championship import championship, play, seated, tied_scheme, winner_scheme
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of
from tests.support.headtohead import play as h2h_play
from tests.support.leagues import night, players_of, season_of
from tests.support.series import play_out, series_event
from tournaments.merge import (
    json_player_swap,
    merge_candidates,
    merge_refusal,
    merge_undo_refusal,
    player_merge,
    player_merge_undo,
)
from tournaments.models import (
    Event,
    EventFormat,
    Player,
    PlayerMerge,
    Registration,
    Role,
    Season,
    Seat,
    Stage,
    Table,
    TieBreak,
)
from tournaments.selectors import club_public_players, registerable_players
from tournaments.services import stage_confirm

pytestmark = pytest.mark.django_db


def html_of(response) -> str:
    return " ".join(response.content.decode().split())


def snapshot(*players: Player) -> dict[str, Any]:
    """Every row a merge may touch, as plain values."""
    ids = [player.pk for player in players]
    return {
        "players": list(
            Player.objects.filter(pk__in=ids)
            .order_by("pk")
            .values("pk", "user_id", "guest", "merged_into_id")
        ),
        "registrations": list(Registration.objects.order_by("pk").values_list("pk", "player_id")),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "player_id")),
        "stages": list(Stage.objects.order_by("pk").values_list("pk", "format", "outcome")),
        "ties": list(TieBreak.objects.order_by("pk").values_list("pk", "order")),
    }


def league_rows(season: Season) -> list[tuple[int, str, int | None, float, int]]:
    """The table as recomputed now (a page within the grace shows the stored one)."""
    season = league_recompute(season_id=season.pk)
    return [
        (row.player_id, row.name, row.place, row.points, row.events)
        for row in season_league(season=season).rows
    ]


def ranking(event: Event) -> list[tuple[int, str]]:
    return [(row.player, row.label) for row in championship_bracket(event=event).ranking]


@pytest.fixture
def world():
    """A championship with a director's tie-break and two closed stages, then a club night,
    both in a season that ranks players with two events: "Olli Uusi" played the
    championship, and was typed in again as a guest at the night."""
    club = ClubFactory()
    season = season_of(club)
    Season.objects.filter(pk=season.pk).update(league_scheme={"min_events": 2})
    event, stage, director = championship(9, club=club)
    Event.objects.filter(pk=event.pk).update(season=season)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3, winner=2))
    a, b, _c = seated(tables[0])
    tie_break_record(table=tables[0], method="card_draw", order=[b, a], note="", by=director)
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    (table,) = final.tables.all()
    play(table, winner_scheme(3, winner=1))
    championship_stage_close(stage=final, by=director)
    olli = Player.objects.get(pk=b)  # won the tie, played the final
    Player.objects.filter(pk=olli.pk).update(name="Olli Uusi")
    olli.refresh_from_db()
    others = players_of(club, "Aino", "Eero")
    guest = Player.objects.create(club=club, name="Olli  Uusi", guest=True)
    evening = night(season, [guest, *others], day=20)
    event.refresh_from_db()
    return {
        "club": club,
        "season": season,
        "director": director,
        "championship": event,
        "night": evening,
        "olli": olli,
        "guest": guest,
    }


def test_a_merge_moves_every_reference_and_the_league_shows_one_ranked_player(world):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    season, event = world["season"], world["championship"]
    before_league = league_rows(season)
    named = [row for row in before_league if row[1].replace("  ", " ") == "Olli Uusi"]
    assert len(named) == 2 and all(place is None for _p, _n, place, _pt, _e in named)
    before_ranking = ranking(event)
    assert any(olli.pk in tie.order for tie in TieBreak.objects.all())

    merge = player_merge(kept=guest, merged=olli, by=director, confirmed=True)

    assert not Registration.objects.filter(player=olli).exists()
    assert not Seat.objects.filter(player=olli).exists()
    assert all(olli.pk not in tie.order for tie in TieBreak.objects.all())
    assert any(guest.pk in tie.order for tie in TieBreak.objects.all())
    for stage in Stage.objects.filter(event=event):
        assert json_player_swap(stage.outcome, old=olli.pk, new=-1, name="") == stage.outcome
    closed = Stage.objects.get(event=event, number=1).outcome
    assert any(row["player"] == guest.pk for row in closed["advancers"])
    assert {row["name"] for row in closed["advancers"] if row["player"] == guest.pk} == {
        "Olli  Uusi"
    }
    # The championship's standings: the same places, the kept player where Olli was.
    assert ranking(event) == [
        (guest.pk if player == olli.pk else player, label) for player, label in before_ranking
    ]
    olli.refresh_from_db()
    assert olli.merged_into_id == guest.pk
    assert set(merge.moved["registrations"]) and set(merge.moved["seats"])
    assert merge.moved["tie_breaks"] and merge.moved["stages"]
    # Marked out of date by the merge, then one ranked row of two events where there
    # were two unranked rows.
    assert Season.objects.get(pk=season.pk).league_stale_since is not None
    after = league_rows(season)
    mine = [row for row in after if row[0] in (olli.pk, guest.pk)]
    assert len(mine) == 1 and mine[0][0] == guest.pk
    assert mine[0][2] is not None and mine[0][4] == 2
    assert len(after) == len(before_league) - 1
    # Hidden from the picker and the public list; the kept player remains.
    assert olli not in club_public_players(club=world["club"])
    assert guest in club_public_players(club=world["club"])
    assert olli not in registerable_players(event=world["night"], past_guests=True)


def test_undo_puts_back_exactly_what_moved(world):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    season, event = world["season"], world["championship"]
    before = snapshot(olli, guest)
    before_league = league_rows(season)
    before_ranking = ranking(event)
    merge = player_merge(kept=guest, merged=olli, by=director, confirmed=True)
    assert snapshot(olli, guest) != before
    assert merge_undo_refusal(merge=merge) is None

    player_merge_undo(merge=merge, by=director, confirmed=True)

    assert snapshot(olli, guest) == before
    assert ranking(event) == before_ranking
    assert league_rows(season) == before_league
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == director
    assert merge_undo_refusal(merge=merge).code == "undone"


def test_the_account_moves_to_the_kept_player_and_back(world):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    user = UserFactory()
    Player.objects.filter(pk=olli.pk).update(user=user)
    olli.refresh_from_db()
    merge = player_merge(kept=guest, merged=olli, by=director, confirmed=True)
    guest.refresh_from_db()
    assert guest.user_id == user.pk and not guest.guest
    assert Player.objects.get(pk=olli.pk).user_id is None
    player_merge_undo(merge=merge, by=director, confirmed=True)
    guest.refresh_from_db()
    assert guest.user_id is None and guest.guest
    assert Player.objects.get(pk=olli.pk).user_id == user.pk


@pytest.mark.parametrize("case", ["accounts", "shared_event", "self", "unconfirmed", "member"])
def test_a_refused_merge_leaves_everything_as_it_was(world, case):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    kept, by, confirmed = guest, director, True
    if case == "accounts":
        Player.objects.filter(pk=olli.pk).update(user=UserFactory())
        Player.objects.filter(pk=guest.pk).update(user=UserFactory())
    elif case == "shared_event":
        kept = Player.objects.filter(seats__table__stage__event=world["championship"]).exclude(
            pk=olli.pk
        )[0]
    elif case == "self":
        kept = olli
    elif case == "unconfirmed":
        confirmed = False
    else:
        by = MembershipFactory(club=world["club"], role=Role.SCORER).user
    olli.refresh_from_db()
    kept.refresh_from_db()
    before = snapshot(olli, kept)
    with pytest.raises(RuleViolation) as refused:
        player_merge(kept=kept, merged=olli, by=by, confirmed=confirmed)
    assert snapshot(olli, kept) == before
    assert not PlayerMerge.objects.filter(club=world["club"]).exists()
    if case == "shared_event":
        assert refused.value.code == "merge_shared_event"
        assert refused.value.params["event"] == world["championship"].name


def test_undo_is_refused_while_something_newer_depends_on_it(world):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    merge = player_merge(kept=guest, merged=olli, by=director, confirmed=True)
    third = Player.objects.create(club=world["club"], name="Olli Uusi 3", guest=True)
    later = player_merge(kept=guest, merged=third, by=director, confirmed=True)
    before = snapshot(olli, guest)
    assert merge_undo_refusal(merge=merge).code == "later"
    with pytest.raises(RuleViolation):
        player_merge_undo(merge=merge, by=director, confirmed=True)
    assert snapshot(olli, guest) == before
    # Undoing the later one first frees the earlier.
    player_merge_undo(merge=later, by=director, confirmed=True)
    assert merge_undo_refusal(merge=merge) is None
    # A moved seat that changed player since blocks the undo.
    seat = Seat.objects.get(pk=merge.moved["seats"][0])
    Seat.objects.filter(pk=seat.pk).update(player=third)
    assert merge_undo_refusal(merge=merge).code == "changed"


def test_undo_is_refused_when_the_kept_player_played_there_since(world):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    event = world["championship"]
    merge = player_merge(kept=guest, merged=olli, by=director, confirmed=True)
    # A tie-break recorded since the merge names the kept player in an event that moved.
    stage = Stage.objects.get(event=event, number=2)
    TieBreak.objects.create(stage=stage, method="card_draw", order=[guest.pk, 1])
    refusal = merge_undo_refusal(merge=merge)
    assert refusal is not None and refusal.code == "changed"


def test_look_alikes_are_offered_first(world):
    olli = world["olli"]
    alike, rest = merge_candidates(player=olli)
    assert [player.pk for player in alike] == [world["guest"].pk]
    assert olli not in rest and world["guest"] not in rest
    assert merge_refusal(kept=world["guest"], merged=olli) is None


def _nights(club, season, count: int) -> tuple[Player, Player]:
    dup = Player.objects.create(club=club, name="Dup", guest=True)
    kept = Player.objects.create(club=club, name="Kept")
    others = players_of(club, *(f"Other {n}" for n in range(3)))
    for day in range(count):
        night(season, [dup, *others], day=day + 1, finish=False)
    return kept, dup


def test_the_merge_takes_the_same_queries_however_many_events(
    django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    counts = []
    for events in (2, 6):
        club = ClubFactory()
        director = MembershipFactory(club=club, role=Role.DIRECTOR).user
        kept, dup = _nights(club, season_of(club), events)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        # With what runs on commit (the public pages' versions, the league table's job).
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            merge = player_merge(kept=kept, merged=dup, by=director, confirmed=True)
        assert len(merge.moved["events"]) == events
        counts.append(len(queries))
    assert counts[0] == counts[1]
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    kept, dup = _nights(club, season_of(club), 10)
    with (
        django_assert_max_num_queries(counts[0]),
        django_capture_on_commit_callbacks(execute=True),
    ):
        player_merge(kept=kept, merged=dup, by=director, confirmed=True)


def test_json_swap_reaches_every_player_key():
    stored = {
        "advancers": [
            {"player": 5, "name": "Old", "replaces": [[5, "Old"]], "tie_break": {"order": [7, 5]}}
        ],
        "ranking": [[{"player": 5, "name": "Old"}, {"player": 6, "name": "X"}]],
        "champion": 5,
        "decisions": [{"seen": {"instead": [[5, "Old"]], "of": [[6, "X"]]}}],
        "pairs": [[5, 6]],
        "bye": 5,
        "schedule": [{"pairs": [[6, 5]], "bye": None}],
        "table": 5,
    }
    swapped = json_player_swap(stored, old=5, new=9, name="New")
    assert swapped == {
        "advancers": [
            {"player": 9, "name": "New", "replaces": [[9, "New"]], "tie_break": {"order": [7, 9]}}
        ],
        "ranking": [[{"player": 9, "name": "New"}, {"player": 6, "name": "X"}]],
        "champion": 9,
        "decisions": [{"seen": {"instead": [[9, "New"]], "of": [[6, "X"]]}}],
        "pairs": [[9, 6]],
        "bye": 9,
        "schedule": [{"pairs": [[6, 9]], "bye": None}],
        "table": 5,
    }
    assert stored["champion"] == 5  # the stored value is left as it was


def test_a_merged_players_record_page_leads_to_the_kept_one(world, client):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    player_merge(kept=guest, merged=olli, by=director, confirmed=True)
    slug = world["club"].slug
    response = client.get(f"/clubs/{slug}/players/{olli.pk}/")
    assert response.status_code == 302 and response["Location"].endswith(f"/players/{guest.pk}/")
    Event.objects.update(published_at=timezone.now())


# -- the pages ---------------------------------------------------------------------------------


def test_a_director_previews_confirms_merges_and_undoes_on_the_pages(world, client):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    slug = world["club"].slug
    client.force_login(director)
    page = client.get(f"/clubs/{slug}/players/{guest.pk}/merge/")
    assert page.status_code == 200
    html = page.content.decode()
    # The look-alike is offered first, in its own group.
    assert (
        html.index(f'value="{olli.pk}"') < html.index('value="', html.index("optgroup") + 1) + 200
    )
    preview = client.get(f"/clubs/{slug}/players/{guest.pk}/merge/?other={olli.pk}")
    assert world["championship"].name in preview.content.decode()
    # Two players of one name are told apart as the picker tells them.
    assert f"Olli Uusi · #{olli.pk} into Olli Uusi (guest) · #{guest.pk}" in html_of(preview)
    asked = client.post(f"/clubs/{slug}/players/{guest.pk}/merge/", {"other": olli.pk})
    assert asked.status_code == 200 and b'name="confirm"' in asked.content
    assert not PlayerMerge.objects.filter(club=world["club"]).exists()
    done = client.post(
        f"/clubs/{slug}/players/{guest.pk}/merge/", {"other": olli.pk, "confirm": "yes"}
    )
    assert done.status_code == 302 and done["Location"].endswith(f"/clubs/{slug}/merges/")
    merge = PlayerMerge.objects.get(club=world["club"])
    listing = client.get(f"/clubs/{slug}/merges/")
    assert listing.status_code == 200 and b"player_merge_undo" not in listing.content
    assert f"/merges/{merge.pk}/undo/".encode() in listing.content
    undo = client.post(f"/clubs/{slug}/merges/{merge.pk}/undo/")
    assert undo.status_code == 200 and b'name="confirm"' in undo.content
    client.post(f"/clubs/{slug}/merges/{merge.pk}/undo/", {"confirm": "yes"})
    merge.refresh_from_db()
    assert merge.undone_at is not None


def test_a_refused_merge_says_why_on_the_page(world, client):
    olli, director = world["olli"], world["director"]
    slug = world["club"].slug
    rival = Player.objects.filter(seats__table__stage__event=world["championship"]).exclude(
        pk=olli.pk
    )[0]
    client.force_login(director)
    preview = client.get(f"/clubs/{slug}/players/{rival.pk}/merge/?other={olli.pk}")
    assert world["championship"].name in preview.content.decode()
    assert b'role="alert"' in preview.content
    posted = client.post(
        f"/clubs/{slug}/players/{rival.pk}/merge/", {"other": olli.pk, "confirm": "yes"}
    )
    assert posted.status_code == 302
    assert not PlayerMerge.objects.filter(club=world["club"]).exists()


@pytest.mark.parametrize("role", [None, Role.MEMBER, Role.SCORER])
def test_only_directors_reach_the_merge_pages(world, client, role):
    user = UserFactory()
    if role is not None:
        MembershipFactory(club=world["club"], user=user, role=role)
    client.force_login(user)
    slug, guest, olli = world["club"].slug, world["guest"], world["olli"]
    assert client.get(f"/clubs/{slug}/merges/").status_code == 403
    assert client.get(f"/clubs/{slug}/players/{guest.pk}/merge/").status_code == 403
    response = client.post(
        f"/clubs/{slug}/players/{guest.pk}/merge/", {"other": olli.pk, "confirm": "yes"}
    )
    assert response.status_code == 403
    assert not PlayerMerge.objects.filter(club=world["club"]).exists()


@pytest.mark.parametrize(
    "query",
    ["?other=999999", "?other=abc", "?other=", "?q=%00", "?other=-1&q=" + "x" * 500],
)
def test_bad_input_on_the_merge_page_is_no_server_error(world, client, query):
    client.force_login(world["director"])
    slug, guest = world["club"].slug, world["guest"]
    # A NUL is refused by the site's middleware (400) before the page: never a 500.
    assert client.get(f"/clubs/{slug}/players/{guest.pk}/merge/{query}").status_code in (200, 400)
    assert (
        client.post(f"/clubs/{slug}/players/{guest.pk}/merge/", {"other": "x"}).status_code == 302
    )
    assert client.get(f"/clubs/{slug}/players/999999/merge/").status_code == 404
    assert client.post(f"/clubs/{slug}/merges/999999/undo/").status_code == 404
    assert client.get(f"/clubs/{slug}/merges/?keep=abc&page=zz").status_code == 200
    assert client.get(f"/clubs/{slug}/merges/?keep={guest.pk}").status_code == 302


def test_the_merges_page_takes_the_same_queries_however_many_merges(
    world, client, django_assert_max_num_queries
):
    director, club = world["director"], world["club"]
    client.force_login(director)

    others = players_of(club, "Third", "Fourth")

    def merges(count: int) -> None:
        for n in range(count):
            kept = Player.objects.create(club=club, name=f"Keep {n}")
            dup = Player.objects.create(club=club, name=f"Keep {n}", guest=True)
            night(world["season"], [dup, *others], day=40 + n, finish=False)
            player_merge(kept=kept, merged=dup, by=director, confirmed=True)

    merges(2)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as first:
        assert client.get(f"/clubs/{club.slug}/merges/").status_code == 200
    merges(6)
    with django_assert_max_num_queries(len(first)):
        assert client.get(f"/clubs/{club.slug}/merges/").status_code == 200


def test_a_round_robin_with_byes_and_a_series_keep_their_standings_through_a_merge():
    """A head-to-head event keeps player ids in its stages' pairs, schedule and bye; a series
    its rounds' seats: the merged player's place is the kept player's, nothing else moves."""
    rr = h2h_event(players=5, format=EventFormat.ROUND_ROBIN, bye_wins=1, bye_points=0)
    club = rr.club
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    for _number in range(2):
        stage = pair_and_confirm(rr, seed=3)
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            h2h_play(table, min(pair))
    bye = Stage.objects.get(event=rr, number=1).format["bye"]
    dup = Player.objects.get(pk=bye)
    kept = Player.objects.create(club=club, name="Kept Player")

    def board() -> list[tuple[int, str, int, int]]:
        rows = h2h_event_standings(event=rr).rows
        return [(r.standing.player, r.place_label, r.standing.wins, r.standing.byes) for r in rows]

    before = board()
    merge = player_merge(kept=kept, merged=dup, by=director, confirmed=True)
    assert board() == [(kept.pk if player == dup.pk else player, *rest) for player, *rest in before]
    first = Stage.objects.get(event=rr, number=1).format
    assert first["bye"] == kept.pk
    assert all(dup.pk not in pair for entry in first["schedule"] for pair in entry["pairs"])
    assert dup.pk not in [entry["bye"] for entry in first["schedule"]]
    player_merge_undo(merge=merge, by=director, confirmed=True)
    assert board() == before

    series, tables = series_event(8, rounds=1)
    for table in tables:
        play_out(table)
    seated_player = tables[0].seats.get(position=2).player
    other = Player.objects.create(club=seated_player.club, name="Series Kept")
    boss = MembershipFactory(club=seated_player.club, role=Role.DIRECTOR).user

    def series_rows() -> list[tuple[int, int, int, int]]:
        rows = series_standings(event=series).rows
        return [(r.player_id, r.place, r.score, r.total) for r in rows]

    before = series_rows()
    player_merge(kept=other, merged=seated_player, by=boss, confirmed=True)
    assert series_rows() == [
        (other.pk if player == seated_player.pk else player, *rest) for player, *rest in before
    ]


def test_undo_is_refused_when_the_kept_player_was_seated_there_since(world):
    olli, guest, director = world["olli"], world["guest"], world["director"]
    event = world["championship"]
    merge = player_merge(kept=guest, merged=olli, by=director, confirmed=True)
    stage = Stage.objects.create(event=event, number=3, seed=1)
    table = Table.objects.create(stage=stage, number=1)
    Seat.objects.create(table=table, player=guest, position=0)
    before = snapshot(olli, guest)
    refusal = merge_undo_refusal(merge=merge)
    assert refusal is not None and refusal.code == "newer_rows"
    assert refusal.params["event"] == event.name
    with pytest.raises(RuleViolation):
        player_merge_undo(merge=merge, by=director, confirmed=True)
    assert snapshot(olli, guest) == before
