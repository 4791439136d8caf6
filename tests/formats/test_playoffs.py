"""A play-off deal scored on the site: a one-deal table of the tied players, whose confirmed
result is the tie-break the stage closes with, and which no output counts as a table."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from formats.championship import (
    championship_close_state,
    championship_stage_close,
    tie_break_record,
)
from formats.playoffs import playoff_open, table_playoffs
from records.selectors import player_record
from rules import RuleViolation
from standings.standings import event_standings
from tests.support.championship import (
    championship,
    out_entry,
    play,
    play_off,
    seated,
    tied_scheme,
    winner_scheme,
)
from tests.support.factories import MembershipFactory
from tournaments.engine.advancement import TieBreakMethod
from tournaments.models import Player, Role, Table

pytestmark = pytest.mark.django_db


def tied_stage():
    """Nine players at three tables; table 1's first two seats level on every tie order."""
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3))
    return event, stage, director, tables


def test_the_tied_players_play_one_deal_and_its_result_is_the_tie_break():
    event, stage, director, tables = tied_stage()
    a, b, _c = seated(tables[0])
    playoff = playoff_open(table=tables[0], by=director)
    assert playoff_open(table=tables[0], by=director) == playoff  # a double tap opens one
    assert seated(playoff) == [a, b] and playoff.number == 4 and playoff.playoff_of == tables[0]
    assert playoff.variant.max_deals == 1 and playoff.variant.contract(1).runs == 3
    # No output counts the play-off as a table of the stage.
    assert list(stage.tables.order_by("number")) == tables
    assert len(championship_close_state(stage=stage).sheets) == 3
    before = event_standings(event=event).rows
    # B goes out, A keeps 25 points: B wins the play-off, and with it the tie.
    play_off(playoff, out_entry(1, [25, None]))
    (row,) = stage.tie_breaks.all()
    assert (row.method, row.order, row.table) == (TieBreakMethod.PLAYOFF_DEAL, [b, a], tables[0])
    state = championship_close_state(stage=stage)
    assert state.refusal is None and not state.ties
    winners = [outcome.placing.player for outcome in state.advancement.advancers]
    assert b in winners and a not in winners
    after = event_standings(event=event).rows
    assert len(after) == len(before) == 9  # nobody counted twice, the play-off's deal nowhere
    assert sorted((r.player, r.total, r.deals) for r in after) == sorted(
        (r.player, r.total, r.deals) for r in before
    )
    record = player_record(player=Player.objects.get(pk=b), private=True)
    (game,) = record.games
    assert (game.tables, game.deals, record.deals) == (1, 7, 7)  # not the play-off's
    nxt = championship_stage_close(stage=stage, by=director)
    assert b in [seat.player_id for t in nxt.tables.all() for seat in t.seats.all()]


def test_a_play_off_that_ends_level_leaves_the_tie_to_the_director():
    _event, stage, director, tables = tied_stage()
    playoff = playoff_open(table=tables[0], by=director)
    # Nobody went out and both keep 20 points: level again.
    play_off(playoff, out_entry(None, [20, 20]))
    assert not stage.tie_breaks.exists()
    (result,) = table_playoffs([tables[0]]).values()
    assert result.level and not result.playing
    assert len(championship_close_state(stage=stage).ties) == 1
    again = playoff_open(table=tables[0], by=director)
    assert again != playoff and again.number == 5


def test_a_tie_settled_by_hand_meanwhile_is_not_overwritten_by_the_play_off():
    _event, stage, director, tables = tied_stage()
    a, b, _c = seated(tables[0])
    playoff = playoff_open(table=tables[0], by=director)
    tie_break_record(table=tables[0], method="card_draw", order=[a, b], note="", by=director)
    play_off(playoff, out_entry(1, [25, None]))
    (row,) = stage.tie_breaks.all()
    assert (row.method, row.order) == ("card_draw", [a, b])


def test_no_play_off_without_a_tie_or_from_a_scorer():
    event, _stage, director, tables = tied_stage()
    with pytest.raises(RuleViolation) as no_tie:
        playoff_open(table=tables[1], by=director)
    assert no_tie.value.code == "tie_break_no_tie"
    scorer = MembershipFactory(club=event.club, role=Role.SCORER).user
    with pytest.raises(PermissionDenied):
        playoff_open(table=tables[0], by=scorer)
    assert not Table.everything.filter(playoff_of__isnull=False).exists()


def test_the_manage_page_opens_the_play_off_and_its_table_page_says_what_it_is(client):
    event, _stage, director, tables = tied_stage()
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    assert "Play a play-off deal on the site" in client.get(manage).content.decode()
    url = reverse("championship_playoff", args=[event.club.slug, event.pk, tables[0].pk])
    response = client.post(url, follow=True)
    page = response.content.decode()
    playoff = Table.everything.get(playoff_of=tables[0])
    assert "The play-off is table 4" in page
    assert playoff.get_entry_url() in page and "Play a play-off deal on the site" not in page
    client.logout()
    entry = client.get(playoff.get_entry_url()).content.decode()
    assert "Play-off 4 (table 1)" in entry
    public = client.get(event.get_absolute_url()).content.decode()
    assert "Play-off 4" not in public
