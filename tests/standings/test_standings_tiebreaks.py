"""The event's standings by its tie-break precedence: each row names what decided it, a tie no
rule breaks is a shared place, the director's recorded tie-break counts, the director sets the
precedence on the manage page; and standings from confirmed deals only."""

from __future__ import annotations

import csv
import importlib
import io
import re

import pytest
from django.apps import apps as django_apps
from django.test import RequestFactory
from django.urls import reverse

from rules import RuleViolation, get_variant
from scoring.selectors import confirmed_deals, event_sheets, table_sheet
from scoring.services import Actor, deal_confirm, deal_record
from standings.selectors import event_precedence, event_ranking, public_stage, stage_ranking
from standings.tables import ranking_table
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory, UserFactory
from tournaments.event_settings import event_tie_breaks_set
from tournaments.models import Event, Role, TieBreak
from tournaments.services import event_create, event_publish
from tournaments.tiebreak_forms import TieBreaksForm

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-0", seat=0)
SEAT1 = Actor(device="phone-1", seat=1)


def play(table, number, hands, out=0):
    entry = {"out": out, "players": [{"cards": hand or None, "buys": 0} for hand in hands]}
    return deal_record(
        table=table, number=number, entry=entry, by=SEAT0, expected_version=0,
        request_id=new_request_id(),
    )  # fmt: skip


def confirm(deal):
    return deal_confirm(
        deal=deal, by=SEAT1, expected_version=deal.version, request_id=new_request_id()
    )


def names(table):
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def fresh(event):
    return Event.objects.select_related("club").get(pk=event.pk)


def html_of(table):
    return table.as_html(RequestFactory().get("/"))


def by_name(ranking):
    return {row.player: row for row in ranking}


@pytest.fixture
def last_deal_against_deals_won():
    """One table of four: seats 0 and 1 both on 20. Seat 0 went out twice and was caught
    with 20 in the last deal; seat 1 went out only in the last deal (0 there)."""
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    play(table, 1, ["", "KD", "5D", "KD"], out=0)
    play(table, 2, ["", "KD", "5D", "KD"], out=0)
    play(table, 3, ["KD QS", "", "5D", "KD"], out=1)
    return fresh(event), table


def test_by_default_fewer_points_in_the_last_deal_decides(last_deal_against_deals_won):
    event, table = last_deal_against_deals_won
    zero, one, two, three = names(table)
    assert event_precedence(event) == (
        "total",
        "last_deal",
        "deals_won",
        "director",
        "head_to_head",
    )
    rows = by_name(event_ranking(event=event))
    assert (rows[zero].total, rows[one].total, rows[two].total) == (20, 20, 15)
    assert [(r.player, r.place, r.decided_by) for r in event_ranking(event=event)] == [
        (two, 1, None),
        (one, 2, "total"),
        (zero, 3, "last_deal"),
        (three, 4, "total"),
    ]


def test_the_directors_precedence_puts_deals_won_first(last_deal_against_deals_won):
    event, table = last_deal_against_deals_won
    zero, one, _two, _three = names(table)
    event_tie_breaks_set(event=event, order=["deals_won", "last_deal"])
    event = fresh(event)
    assert event.tie_breaks == ["total", "deals_won", "last_deal"]
    rows = by_name(event_ranking(event=event))
    assert (rows[zero].place, rows[zero].decided_by) == (2, "total")
    assert (rows[one].place, rows[one].decided_by) == (3, "deals_won")


def test_the_total_alone_leaves_a_shared_place(last_deal_against_deals_won):
    event, table = last_deal_against_deals_won
    zero, one, _two, _three = names(table)
    event_tie_breaks_set(event=event, order=["total"])
    rows = by_name(event_ranking(event=fresh(event)))
    assert (rows[zero].place_label, rows[one].place_label) == ("=2", "=2")
    assert rows[zero].decided_by in (None, "total") and rows[one].decided_by in (None, "total")


def two_tables_level():
    """Two tables that play the same deal: each table's players level with the other's."""
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    for table in (one, two):
        play(table, 1, ["", "AS KD", "KD", "QS KH QC"])
    return fresh(event), one, two


def test_players_who_never_met_share_until_the_director_records_a_tie_break():
    event, one, _two = two_tables_level()
    ranking = event_ranking(event=event)
    # The two 30s of a table are level on everything there too: four share the place.
    assert [row.place_label for row in ranking] == ["=1", "=1", "=3", "=3", "=5", "=5", "=5", "=5"]
    first, second = ranking[0], ranking[1]
    TieBreak.objects.create(
        stage=one.stage, table=None, method="card_draw", order=[second.player_id, first.player_id]
    )
    ranking = event_ranking(event=fresh(event))
    assert [(row.player, row.place_label, row.decided_by) for row in ranking[:3]] == [
        (second.player, "1", None),
        (first.player, "2", "director"),
        (ranking[2].player, "=3", None),  # a shared place: decided by nothing
    ]


def test_players_level_on_everything_share_their_table_place_until_the_director_records_one():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    play(table, 1, ["", "KD", "KD", "QS KH QC"])  # seats 1 and 2 level on everything
    ranking = event_ranking(event=fresh(event))
    seat1, seat2 = ranking[1], ranking[2]
    # The seat decides nothing: they share second place at the table and in the ranking.
    assert (seat1.table_place, seat2.table_place) == (2, 2)
    assert (seat1.place_label, seat2.place_label) == ("=2", "=2")
    TieBreak.objects.create(
        stage=table.stage, table=table, method="playoff_deal",
        order=[seat2.player_id, seat1.player_id],
    )  # fmt: skip
    ranking = event_ranking(event=fresh(event))
    assert [(row.player, row.decided_by, row.table_place) for row in ranking[1:3]] == [
        (seat2.player, "total", 2),
        (seat1.player, "director", 3),
    ]


def test_the_ranking_table_shows_and_exports_what_decided_each_place(
    last_deal_against_deals_won,
):
    event, _table = last_deal_against_deals_won
    html = html_of(ranking_table(event_ranking(event=event)))
    assert "Decided by" in html
    assert re.search(
        r'<span class="decided" title="Fewer points in the last deal">last deal</span>', html
    )
    export = ranking_table(event_ranking(event=event))
    header, *rows = list(export.as_values())
    decided = header.index("Decided by")
    assert [row[decided] or "" for row in rows] == ["", "", "last deal", ""]


def test_the_column_stays_off_the_page_while_no_tie_break_decided():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    play(table, 1, ["", "KD", "QS KH", "QS KH QC"])
    table_html = html_of(ranking_table(event_ranking(event=fresh(event))))
    assert "Decided by" not in table_html
    header = next(iter(ranking_table(event_ranking(event=fresh(event))).as_values()))
    assert "Decided by" in header


def test_a_stored_precedence_the_site_refuses_reads_as_the_games_default():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    Event.objects.filter(pk=event.pk).update(tie_breaks=["coin"])
    assert event_precedence(fresh(event)) == (
        "total", "last_deal", "deals_won", "director", "head_to_head"
    )  # fmt: skip
    play(table, 1, ["", "KD", "KD", "QS KH QC"])
    assert len(event_ranking(event=fresh(event))) == 4


# -- the director's setting -------------------------------------------------------------------


def test_setting_the_precedence_is_a_results_change():
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    before = fresh(event).results_changed_at
    event_tie_breaks_set(event=event, order=["head_to_head"])
    event = fresh(event)
    assert event.tie_breaks == ["total", "head_to_head"]
    assert event.results_changed_at is not None and event.results_changed_at != before
    event_tie_breaks_set(event=event, order=[])
    assert fresh(event).tie_breaks == []


@pytest.mark.parametrize(
    ("order", "code_words"),
    [
        (["deals_won", "deals_won"], "listed twice"),
        (["ravaytys"], "records no räväytys"),
        (["coin"], "Unknown tie-break"),
    ],
)
def test_a_bad_precedence_is_refused_and_nothing_is_stored(order, code_words):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as caught:
        event_tie_breaks_set(event=event, order=order)
    assert code_words in caught.value.message
    assert fresh(event).tie_breaks == []


def test_the_form_offers_one_choice_per_position_and_starts_at_the_games_order():
    event, _tables = seated_event(variant_id="ravaytys", players=4)
    form = TieBreaksForm(event=fresh(event))
    positions = form.position_fields
    assert len(positions) == 5  # every tie-break but the total, räväytys included
    assert [field.initial for field in positions] == [
        "last_deal", "deals_won", "ravaytys", "director", "head_to_head"
    ]  # fmt: skip
    assert form.default_labels[:2] == ["Total points", "Fewer points in the last deal"]
    event_tie_breaks_set(event=event, order=["director"])
    assert [f.initial for f in TieBreaksForm(event=fresh(event)).position_fields][:2] == [
        "director", ""
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "valid", "order"),
    [
        ({"tie_break_1": "last_deal", "tie_break_2": "deals_won", "tie_break_3": "director",
          "tie_break_4": "head_to_head"}, True, []),  # the game's own: the event follows it
        ({"tie_break_1": "deals_won", "tie_break_3": "director"}, True,
         ["total", "deals_won", "director"]),
        ({"tie_break_1": "deals_won", "tie_break_2": "deals_won"}, False, None),
        ({"tie_break_1": "ravaytys"}, False, None),  # not offered in Rutupeli
        ({}, True, ["total"]),
    ],
)  # fmt: skip
def test_the_form_reads_the_positions_in_order(data, valid, order):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    form = TieBreaksForm(data, event=fresh(event))
    assert form.is_valid() is valid
    if valid:
        assert form.cleaned_data["order"] == order


def test_a_director_saves_the_precedence_from_the_manage_page(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = client.get(manage).content.decode()
    assert 'id="tie-breaks"' in page and 'name="tie_break_1"' in page
    url = reverse("event_tie_breaks", args=[event.club.slug, event.pk])
    response = client.post(url, {"tie_break_1": "deals_won"}, follow=True)
    assert response.redirect_chain == [(manage, 302)]
    assert "The tie-breaks are saved." in response.content.decode()
    assert fresh(event).tie_breaks == ["total", "deals_won"]
    refused = client.post(
        url, {"tie_break_1": "deals_won", "tie_break_2": "deals_won"}, follow=True
    )
    assert "A tie-break is listed twice: deals_won." in refused.content.decode()
    assert fresh(event).tie_breaks == ["total", "deals_won"]


def test_only_a_director_may_set_the_precedence(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    url = reverse("event_tie_breaks", args=[event.club.slug, event.pk])
    assert client.post(url, {"tie_break_1": "deals_won"}).status_code == 302  # to sign in
    client.force_login(MembershipFactory(club=event.club, role=Role.MEMBER).user)
    assert client.post(url, {"tie_break_1": "deals_won"}).status_code in (403, 404)
    client.force_login(UserFactory())
    assert client.post(url, {"tie_break_1": "deals_won"}).status_code in (403, 404)
    assert client.get(url).status_code in (403, 404, 405)
    assert fresh(event).tie_breaks == []


# -- confirmed results only --------------------------------------------------------------------


def test_confirmed_only_counts_the_deals_up_to_the_first_unconfirmed():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    first = play(table, 1, ["", "KD", "KH", "KS"])
    play(table, 2, ["", "QS", "QH", "QC"])
    confirm(first)
    third = play(table, 3, ["", "KD", "KH", "KS"])
    confirm(third)  # confirmed, but after an unconfirmed deal: it cannot count alone
    every = table_sheet(table=table)
    shown = table_sheet(table=table, confirmed_only=True)
    assert [deal.number for deal in confirmed_deals(every.deals)] == [1]
    assert (every.played, every.standing.totals[1], bool(every.unconfirmed)) == (3, 30, True)
    assert (shown.played, shown.standing.totals[1], shown.unconfirmed) == (1, 10, [])
    assert shown.withheld == 2 and every.withheld == 0
    ranking = by_name(event_ranking(event=fresh(event), confirmed_only=True))
    assert ranking[names(table)[1]].total == 10
    assert not any(row.unconfirmed for row in ranking.values())
    marked = by_name(event_ranking(event=fresh(event)))
    assert marked[names(table)[1]].total == 30 and marked[names(table)[1]].unconfirmed
    assert [s.played for s in event_sheets(event=fresh(event), confirmed_only=True)] == [1]


def stage_url(event, number=1):
    return reverse("stage_standings", args=[event.club.slug, event.pk, number])


def test_the_stage_page_shows_the_stages_standings_sorted_and_downloadable(client):
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    event_publish(event=event, published=True)
    play(one, 1, ["", "KD", "5D", "KD"])
    response = client.get(stage_url(event))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1" in html and names(two)[0] in html
    assert 'class="unconfirmed"' in html  # deals still to confirm are marked
    assert "sort=player" in html  # sortable headers
    csv_url = reverse("stage_standings_export", args=[event.club.slug, event.pk, 1, "csv"])
    download = client.get(csv_url)
    assert download["Content-Type"].startswith("text/csv")
    header, *rows = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig"))))
    assert header == [
        "#", "Player", "Total", "Per deal", "Includes unconfirmed deals", "Table", "Deals",
        "Decided by", "Shared place",
    ]  # fmt: skip
    assert len(rows) == 8
    assert client.get(stage_url(event, 2)).status_code == 404
    assert stage_ranking(stage=public_stage(event=fresh(event), number=1))[0].total == 0


def test_the_stage_page_of_a_club_showing_confirmed_results_only(client):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    event_publish(event=event, published=True)
    confirm(play(table, 1, ["", "KD", "KH", "KS"]))
    play(table, 2, ["", "QS KH QC", "KD", "KS"])
    html = client.get(stage_url(event)).content.decode()
    assert ">40<" in html and 'class="unconfirmed"' in html
    event.club.public_confirmed_only = True
    event.club.save(update_fields=["public_confirmed_only"])
    html = client.get(stage_url(event)).content.decode()
    assert ">40<" not in html and ">10<" in html and 'class="unconfirmed"' not in html
    assert "Only confirmed deals are counted here" in html


def test_a_private_events_stage_page_is_not_found(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4, published=False)
    assert client.get(stage_url(event)).status_code == 404
    csv_url = reverse("stage_standings_export", args=[event.club.slug, event.pk, 1, "csv"])
    assert client.get(csv_url).status_code == 404
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    assert client.get(stage_url(event)).status_code == 200  # its director sees it


# -- one tie order per event: the event's ---------------------------------------------------


def test_an_event_takes_no_tie_order_of_the_engine():
    """The engine's table tie order would be a second order beside the event's precedence
    (the printed sheet read one, the ranking the other): the event has one, its own."""
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as caught:
        event_create(
            club=event.club, name="Two orders", date=event.date, variant_id="rutupeli",
            options={"tie_order": ["deals_won", "last_deal", "seat"]},
        )  # fmt: skip
    assert caught.value.field == "tie_order"
    assert not Event.objects.filter(name="Two orders").exists()


def _migration():
    return importlib.import_module("tournaments.migrations.0016_event_tie_order_into_tie_breaks")


def test_the_migration_moves_a_stored_tie_order_into_the_events_precedence():
    event, _tables = seated_event(variant_id="ravaytys", players=4)
    options = dict(event.variant_options, tie_order=["deals_won", "last_deal", "seat"])
    Event.objects.filter(pk=event.pk).update(variant_options=options)
    chosen, _tables = seated_event(variant_id="rutupeli", players=4, club=event.club)
    Event.objects.filter(pk=chosen.pk).update(
        variant_options=dict(chosen.variant_options, tie_order=["seat"]),
        tie_breaks=["total", "head_to_head"],
    )
    _migration().move_tie_orders(django_apps, None)
    moved, kept = fresh(event), fresh(chosen)
    assert moved.tie_breaks == [
        "total", "deals_won", "last_deal", "ravaytys", "director", "head_to_head"
    ]  # fmt: skip
    assert moved.variant.tie_order == get_variant("ravaytys").tie_order
    # A precedence the director chose stays: it is what the ranking already followed.
    assert kept.tie_breaks == ["total", "head_to_head"]
    assert kept.variant.tie_order == get_variant("rutupeli").tie_order
