"""A player's record gives each event's place and total as the event's standings give them
(a series' total, head to head's wins and settlement points, a championship's final place
and the stage reached, an imported result marked so), with the tables beneath; a Gin
record never calls a round's game points the "Total"."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse

from records.selectors import player_record
from standings.standings import event_standings
from tests.support.factories import ClubFactory
from tests.support.standings import FORMATS
from tournaments.history import history_import
from tournaments.models import Player
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_each_events_line_is_its_standings_row(client, kind):
    event = FORMATS[kind]()
    event_publish(event=event, published=True)
    for row in event_standings(event=event).rows:
        player = Player.objects.select_related("club").get(pk=row.player_id)
        (line,) = player_record(player=player).lines
        assert (line.place, line.shared, line.total) == (row.place, row.shared, row.total)
        assert (line.wins, line.stage, line.champion) == (row.wins, row.stage, row.champion)
        assert line.rounds and all(r.event == event for r in line.rounds)
    # The page says the same: the event's place and "Total", the tables beneath.
    top = event_standings(event=event).rows[0]
    player = Player.objects.get(pk=top.player_id)
    html = client.get(reverse("player_record", args=[player.club.slug, player.pk])).content
    page = html.decode()
    assert "points at the table" in page
    if kind == "swiss":
        # Gin: the settlement points are the event's Total, the game points are the table's.
        assert re.search(r"<th[^>]*>\s*(<a[^>]*>)?\s*Wins", page)


def test_an_imported_event_is_on_the_record_marked_imported(client):
    club = ClubFactory()
    upload = io.BytesIO(
        b"date,game,event name,player,place,total,stage\n"
        b"2025-09-04,Rutupeli,Old night,Aino,1,35,\n"
        b"2025-09-04,Rutupeli,Old night,Olli,2,50.5,\n"
        b"2025-10-04,Rutupeli,Old cup,Aino,2,70,3\n"
        b"2025-10-04,Rutupeli,Old cup,Olli,1,40,3\n"
    )
    history_import(club=club, upload=upload)
    olli = Player.objects.get(club=club, name="Olli")
    record = player_record(player=olli)
    assert [(x.event_name, x.place, x.total, x.stage, x.imported) for x in record.lines] == [
        ("Old cup", 1, 40, 3, True),
        ("Old night", 2, 50.5, None, True),
    ]
    assert record.events == 2
    page = client.get(reverse("player_record", args=[club.slug, olli.pk])).content.decode()
    assert "imported" in page and "50.5" in page
    csv = client.get(reverse("player_record_export", args=[club.slug, olli.pk, "csv"]))
    assert "Imported" in csv.content.decode("utf-8-sig")


def test_a_record_of_imported_events_costs_the_same_for_one_or_many(
    django_assert_max_num_queries,
):
    counts = []
    for events in (1, 12):
        club = ClubFactory()
        rows = "".join(
            f"2025-09-{day:02d},Rutupeli,Night {day},Aino,1,{day},\n"
            f"2025-09-{day:02d},Rutupeli,Night {day},Olli,2,{day + 10},\n"
            for day in range(1, events + 1)
        )
        history_import(
            club=club, upload=io.BytesIO(("date,game,event,player,place,total\n" + rows).encode())
        )
        aino = Player.objects.select_related("club").get(club=club, name="Aino")
        with django_assert_max_num_queries(12) as captured:
            assert len(player_record(player=aino).lines) == events
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
