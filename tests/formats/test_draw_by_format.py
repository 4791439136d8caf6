"""The plain draw knows its place: head-to-head rounds are paired, a series' later rounds
are drawn as rounds, and a swap never crosses from a preview into a round already played."""

from __future__ import annotations

import datetime

import pytest

from formats.series import series_round_draw
from rules import RuleViolation
from tests.support.factories import ClubFactory
from tests.support.series import play_out, series_event
from tournaments.forms import SwapForm
from tournaments.models import EventFormat, Player, Seat
from tournaments.selectors import event_draw_state
from tournaments.services import event_create, registration_add, seat_swap, stage_draw

pytestmark = pytest.mark.django_db


def test_a_head_to_head_event_is_paired_not_drawn():
    club = ClubFactory()
    event = event_create(
        published=True,
        club=club,
        name="Gin Swiss",
        date=datetime.date(2026, 12, 6),
        variant_id="gin_romi",
        format=EventFormat.SWISS,
        format_options={"rounds": 3},
    )
    for index in range(4):
        player = Player.objects.create(club=club, name=f"P{index}")
        registration_add(event=event, player=player, checked_in=True)
    assert event_draw_state(event=event)["can_draw"] is False
    with pytest.raises(RuleViolation) as refused:
        stage_draw(event=event)
    assert refused.value.code == "draw_paired"
    assert not event.stages.exists()


def test_a_series_later_round_is_drawn_as_a_round_and_swaps_stay_in_it():
    event, tables = series_event(8, rounds=2)
    for table in tables:
        play_out(table)
    second = series_round_draw(event=event, seed=4)
    assert event_draw_state(event=event)["can_draw"] is False
    with pytest.raises(RuleViolation) as refused:
        stage_draw(event=event)
    assert refused.value.code == "draw_round"

    new_seat = Seat.objects.filter(table__stage=second).first()
    old_seat = Seat.objects.filter(table__stage__number=1, table__stage__event=event).first()
    before = (new_seat.player_id, old_seat.player_id)
    form = SwapForm({"first": new_seat.pk, "second": old_seat.pk}, event=event)
    assert not form.is_valid()  # round 1's seats are not offered
    with pytest.raises(RuleViolation) as refused:
        seat_swap(first=new_seat, second=old_seat)
    assert refused.value.code == "swap_across_stages"
    new_seat.refresh_from_db()
    old_seat.refresh_from_db()
    assert (new_seat.player_id, old_seat.player_id) == before
