"""The standings of many events read at once (a player's record reads them so) are the
standings each event's own page, downloads and feed show: same places, same figures."""

from __future__ import annotations

import pytest

from standings.standings import event_standings, events_standings, row_figures
from tests.support.standings import FORMATS

pytestmark = pytest.mark.django_db


def test_read_together_every_format_gives_each_events_own_standings():
    events = [make() for make in FORMATS.values()]
    together = events_standings(events=events, confirmed_only=False)
    for event in events:
        alone = event_standings(event=event, confirmed_only=False)
        assert [row_figures(r) for r in together[event.pk].rows] == [
            row_figures(r) for r in alone.rows
        ], event.format
        assert together[event.pk].ranked_by == alone.ranked_by


def test_read_together_costs_the_same_for_one_event_or_four(django_assert_max_num_queries):
    events = [make() for make in FORMATS.values()]
    for event in events:
        event.refresh_from_db()
    with django_assert_max_num_queries(9):
        events_standings(events=events[:1], confirmed_only=True)
    for event in events:
        event.refresh_from_db()
    with django_assert_max_num_queries(9):
        events_standings(events=events, confirmed_only=True)
