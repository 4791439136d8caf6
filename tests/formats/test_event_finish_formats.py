"""An event ends when its format is done: not after stage 1 of a championship, not with
rounds of a series left, never with a stage left as a draw preview."""

from __future__ import annotations

import pytest

from formats.finish import event_finish, event_finish_refusal
from formats.series import series_round_draw
from tests.support.championship import championship, play, winner_scheme
from tests.support.series import play_out, series_event
from tournaments.models import EventStatus
from tournaments.services import stage_confirm

pytestmark = pytest.mark.django_db


def test_a_championship_ends_with_its_champion_not_with_stage_one():
    event, stage, _director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3))
    refusal = event_finish_refusal(event=event)
    assert refusal is not None and refusal.code == "championship_open"
    with pytest.raises(type(refusal)):
        event_finish(event=event, confirmed=True)
    event.refresh_from_db()
    assert event.status != EventStatus.FINISHED


def test_a_series_ends_when_its_rounds_are_played_and_never_over_a_preview():
    event, tables = series_event(8, rounds=2)
    for table in tables:
        play_out(table)
    refusal = event_finish_refusal(event=event)
    assert refusal is not None and refusal.code == "rounds_left"
    assert refusal.params == {"number": 2, "rounds": 2}
    assert "Round 2 of 2 is still to be played." in refusal.message

    second = series_round_draw(event=event, seed=3)
    refusal = event_finish_refusal(event=event)
    assert refusal is not None and refusal.code == "stage_preview"

    stage_confirm(stage=second)
    for table in second.tables.all():
        play_out(table)
    assert event_finish_refusal(event=event) is None
    event_finish(event=event, confirmed=True)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
