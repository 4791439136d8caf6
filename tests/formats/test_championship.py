"""The table-winner championship on the site: closing stages, tie-breaks, the bracket."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from formats.championship import (
    championship_bracket,
    championship_close_preview,
    championship_close_state,
    championship_stage_close,
    tie_break_record,
)
from rules import RuleViolation
from scoring.models import Deal
from tests.support.championship import championship, names, play, seated, tied_scheme, winner_scheme
from tests.support.factories import ClubFactory, MembershipFactory
from tournaments.engine.advancement import Advancement, Reason
from tournaments.forms import EventForm
from tournaments.models import Event, EventFormat, EventStatus, Player, Role, Seat, StageStatus
from tournaments.selectors import late_arrivals
from tournaments.services import (
    late_arrivals_seat,
    registration_add,
    registration_status_set,
    stage_confirm,
    stage_draw,
)

pytestmark = pytest.mark.django_db


def test_a_nine_player_championship_with_a_tie_settled_by_the_director():
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [3, 3, 3]
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3, winner=2))

    refused = championship_close_preview(stage=stage)
    assert isinstance(refused, RuleViolation)
    assert refused.code == "tie_unresolved"
    first, second, _third = names(tables[0])
    assert first in refused.message and second in refused.message
    state = championship_close_state(stage=stage)
    ((tie, tie_table),) = state.ties
    assert tie_table == tables[0] and tie.table == 1
    with pytest.raises(RuleViolation):
        championship_stage_close(stage=stage, by=director)

    a, b, _c = seated(tables[0])
    tie_break_record(
        table=tables[0], method="card_draw", order=[b, a], note="high card", by=director
    )
    preview = championship_close_preview(stage=stage)
    assert isinstance(preview, Advancement)
    assert set(preview.players) == {b, seated(tables[1])[2], seated(tables[2])[2]}
    decided = preview.outcome(b)
    assert decided.tie_break is not None and "card draw: high card" in decided.text.text(str)

    following = championship_stage_close(stage=stage, by=director, seed=5)
    stage.refresh_from_db()
    assert stage.status == StageStatus.FINISHED and stage.closed_at is not None
    assert {row["player"] for row in stage.outcome["advancers"]} == set(preview.players)
    assert stage.outcome["champion"] is None
    assert (following.number, following.status, following.seed) == (2, StageStatus.PREVIEW, 5)
    (final,) = following.tables.all()
    assert set(seated(final)) == set(preview.players)

    # The next stage is the newest: it can be redrawn (same players) before it is confirmed.
    redrawn = stage_draw(event=event, seed=9)
    assert redrawn.pk == following.pk and redrawn.seed == 9
    (final,) = redrawn.tables.all()
    assert set(seated(final)) == set(preview.players)
    stage_confirm(stage=redrawn)
    play(final, winner_scheme(3, winner=1))
    champion = seated(final)[1]

    closed = championship_stage_close(stage=redrawn, by=director)
    closed.refresh_from_db()
    assert closed.outcome["champion"] == champion
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED

    bracket = championship_bracket(event=event)
    assert [s.number for s in bracket.stages] == [1, 2]
    assert bracket.champion == names(final)[1]
    advanced = [s.name for t in bracket.stages[0].tables for s in t.seats if s.advances]
    assert len(advanced) == 3
    # Table 1 is shown in its final order: the tie-break's winner first.
    assert [seat.name for seat in bracket.stages[0].tables[0].seats][:2] == [second, first]
    labels = [row.label for row in bracket.ranking]
    assert labels[:3] == ["1", "2", "3"] and bracket.ranking[0].player == champion
    # The stage-1 runners-up at tables 2 and 3 played alike: they share their place.
    assert "=5" in labels
    assert len(bracket.ranking) == 9


def test_a_tie_break_must_list_exactly_the_tied_players():
    _event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3))
    a, b, c = seated(tables[0])
    with pytest.raises(RuleViolation) as info:
        tie_break_record(table=tables[0], method="coin_toss", order=[a, c], note="", by=director)
    assert info.value.code == "tie_break_order"
    with pytest.raises(RuleViolation) as info:
        tie_break_record(table=tables[1], method="coin_toss", order=[a, b], note="", by=director)
    assert info.value.code == "tie_break_no_tie"


def test_the_stage_does_not_close_while_a_table_plays_or_waits_for_a_confirmation():
    _event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], winner_scheme(3), upto=6)
    play(tables[1], winner_scheme(3), confirmed=False)
    play(tables[2], winner_scheme(3))
    refused = championship_close_preview(stage=stage)
    assert isinstance(refused, RuleViolation) and refused.code == "table_not_finished"
    assert "Table 1" in refused.message
    with pytest.raises(RuleViolation):
        championship_stage_close(stage=stage, by=director)
    Deal.objects.filter(table=tables[0]).delete()
    play(tables[0], winner_scheme(3))
    refused = championship_close_preview(stage=stage)
    assert isinstance(refused, RuleViolation) and refused.code == "table_unconfirmed"
    stage.refresh_from_db()
    assert stage.status == StageStatus.CONFIRMED and not stage.outcome


def test_only_a_director_closes_a_stage_or_records_a_tie_break():
    event, stage, _director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3))
    member = MembershipFactory(club=event.club, role=Role.SCORER).user
    a, b, _c = seated(tables[0])
    with pytest.raises(PermissionDenied):
        tie_break_record(table=tables[0], method="coin_toss", order=[a, b], note="", by=member)
    with pytest.raises(PermissionDenied):
        championship_stage_close(stage=stage, by=member)
    assert not stage.tie_breaks.exists()


def test_closing_a_stage_takes_the_same_queries_whatever_its_size():
    counts = {}
    for tables in (10, 40):
        _event, stage, director = championship(tables * 4, preferred=4)
        for table in stage.tables.all():
            play(table, winner_scheme(4))
        with CaptureQueriesContext(connection) as queries:
            following = championship_stage_close(stage=stage, by=director, seed=1)
        counts[tables] = len(queries)
        # Every table's winner is seated at the next stage.
        assert following.tables.count() == {10: 3, 40: 10}[tables]
        assert Seat.objects.filter(table__stage=following).count() == tables
        assert stage.tie_breaks.count() == 0
    # The stage's reads, who has withdrawn, the locks, the writes, the ratings' "being
    # updated" mark, and the key its judgement is kept under for the manage page (six):
    # none of them per table (PostgreSQL adds its lock-timeout and savepoint statements,
    # the same for any size).
    assert counts[10] == counts[40] <= 27, counts


def test_the_reason_is_kept_with_the_stage():
    _event, stage, director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3))
    championship_stage_close(stage=stage, by=director)
    stage.refresh_from_db()
    reasons = {row["reason"] for row in stage.outcome["advancers"]}
    assert reasons == {Reason.WON_TABLE.value}
    assert len(stage.outcome["eliminated"]) == 6


def test_the_director_settles_the_tie_and_closes_the_stage_from_the_manage_page(client):
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play(table, winner_scheme(3))
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = client.get(manage).content.decode()
    first, second, _third = names(tables[0])
    assert "Close stage 1" in page and f"Tie at table 1: {first}, {second}" in page
    assert "Close the stage and draw stage 2" not in page
    a, b, _c = seated(tables[0])
    url = reverse("championship_tie_break", args=[event.club.slug, event.pk, tables[0].pk])
    client.post(url, {"tie1-method": "coin_toss", "tie1-place_1": b, "tie1-place_2": b})
    assert not stage.tie_breaks.exists()  # a player twice is refused by the form
    client.post(url, {"tie1-method": "coin_toss", "tie1-place_1": b, "tie1-place_2": a})
    (row,) = stage.tie_breaks.all()
    assert (row.method, row.order, row.recorded_by) == ("coin_toss", [b, a], director)
    page = client.get(manage).content.decode()
    assert "Decided by a tie-break: coin toss." in page
    assert "Close the stage and draw stage 2" in page
    close = reverse("championship_stage_close", args=[event.club.slug, event.pk])
    client.post(close, {"stage": 1})
    client.post(close, {"stage": 1})  # a second tap closes nothing more
    assert event.stages.count() == 2
    assert event.stages.get(number=2).status == StageStatus.PREVIEW
    public = client.get(event.get_absolute_url()).content.decode()
    assert "Championship" in public and "goes on" in public


def test_a_scorer_cannot_close_a_stage_through_the_page(client):
    event, stage, _director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3))
    client.force_login(MembershipFactory(club=event.club, role=Role.SCORER).user)
    close = reverse("championship_stage_close", args=[event.club.slug, event.pk])
    assert client.post(close, {"stage": 1}).status_code == 403
    stage.refresh_from_db()
    assert stage.status == StageStatus.CONFIRMED


def _choices(game: str) -> list[str]:
    return [value for value, _label in EventForm(game=game).fields["format"].choices]


def test_the_new_event_form_offers_the_formats_that_fit_the_game():
    assert _choices("gin_romi") == ["night", "round_robin", "swiss"]
    assert _choices("rutupeli") == ["night", "championship", "series"]


def _event_post(**extra):
    return {
        "name": "Cup",
        "date": "2026-12-05",
        "variant_id": "rutupeli",
        "preferred_table_size": 4,
        **extra,
    }


def test_a_championship_is_created_with_its_options(client):
    club = ClubFactory()
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    url = reverse("event_new", args=[club.slug])
    post = _event_post(format="championship", top_k=2, lucky_losers="on", series_rounds=9)
    response = client.post(url, post)
    assert response.status_code == 302, response.context["form"].errors
    event = Event.objects.get(club=club)
    assert event.format == EventFormat.CHAMPIONSHIP
    assert event.format_options == {"top_k": 2, "lucky_losers": True}


def test_top_k_must_be_below_the_smallest_table():
    form = EventForm(_event_post(format="championship", top_k=3), game="rutupeli")
    assert not form.is_valid() and "top_k" in form.errors
    form = EventForm(_event_post(format="swiss"), game="rutupeli")
    assert not form.is_valid() and "format" in form.errors  # not a format of Rutupeli


def test_a_series_and_a_swiss_keep_their_own_options():
    form = EventForm(_event_post(format="series", series_rounds=5, reseat="standings"))
    assert form.is_valid(), form.errors
    fields = form.event_fields()
    assert fields["format_options"] == {
        "rounds": 5,
        "reseat": "standings",
        "clubs_apart": False,
        "series_ranking": "points",
    }
    gin = {**_event_post(format="swiss", swiss_rounds=4, swiss_bye_wins="0", swiss_bye_points=30)}
    gin.update(variant_id="gin_romi", preferred_table_size=2)
    form = EventForm(gin)
    assert form.is_valid(), form.errors
    assert form.event_fields()["format_options"] == {"rounds": 4, "bye_wins": 0, "bye_points": 30}


def test_a_withdrawn_winner_is_replaced_by_the_next_at_their_table():
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    for table in tables:
        play(table, winner_scheme(3, winner=0))
    gone = seated(tables[1])[0]
    registration = event.registrations.get(player_id=gone)
    registration_status_set(registration=registration, status="withdrawn", confirmed=True)
    preview = championship_close_preview(stage=stage)
    assert isinstance(preview, Advancement)
    assert gone not in preview.players
    # The next in table 2's order goes on instead, and the page says why.
    replacement = next(p for p in preview.players if p in seated(tables[1]))
    assert preview.outcome(replacement).reason is Reason.REPLACES_NO_SHOW
    following = championship_stage_close(stage=stage, by=director, seed=2)
    assert gone not in [seat.player_id for seat in Seat.objects.filter(table__stage=following)]


def test_a_late_entry_between_stages_is_seated_at_the_next_stage_before_it_starts():
    event, stage, director = championship(9)
    for table in stage.tables.order_by("number"):
        play(table, winner_scheme(3, winner=0))
    following = championship_stage_close(stage=stage, by=director, seed=3)
    late_comer = Player.objects.create(club=event.club, name="Late Lauri")
    registration_add(event=event, player=late_comer, checked_in=True)
    stage_confirm(stage=following)
    plan = late_arrivals(event=event)
    # Only the late entry waits: those knocked out in stage 1 are not late arrivals.
    assert plan is not None and [r.player.name for r in plan.waiting] == ["Late Lauri"]
    (final,) = following.tables.all()
    # Past stage 1 only the director's override seats a late entry, and it is recorded.
    assert plan.needs_override is not None
    with pytest.raises(RuleViolation) as refused:
        late_arrivals_seat(stage=following, joins={late_comer.pk: final.pk})
    assert refused.value.code == "late_entry_past_first_stage"
    assert late_comer.pk not in seated(final)
    late_arrivals_seat(stage=following, joins={late_comer.pk: final.pk}, override=True, by=director)
    assert late_comer.pk in seated(final) and len(seated(final)) == 4
    registration = event.registrations.get(player=late_comer)
    assert registration.seated_late_by == director and registration.seated_late_at is not None


def test_the_manage_page_asks_for_the_override_of_a_late_entry_past_stage_1(client):
    event, stage, director = championship(9)
    for table in stage.tables.order_by("number"):
        play(table, winner_scheme(3, winner=0))
    following = championship_stage_close(stage=stage, by=director, seed=3)
    stage_confirm(stage=following)
    late_comer = Player.objects.create(club=event.club, name="Late Lauri")
    registration_add(event=event, player=late_comer, checked_in=True)
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = client.get(manage).content.decode()
    assert "joins a championship at stage 1 only" in page and 'name="override"' in page
    (final,) = following.tables.all()
    seat = reverse("late_seat", args=[event.club.slug, event.pk])
    client.post(seat, {f"p{late_comer.pk}": f"t{final.pk}"})
    assert late_comer.pk not in seated(final)
    client.post(seat, {f"p{late_comer.pk}": f"t{final.pk}", "override": "on"})
    assert late_comer.pk in seated(final)
    assert event.registrations.get(player=late_comer).seated_late_by == director


def test_six_entrants_at_one_table_are_told_why_the_first_stage_is_the_final(client):
    """Six players fit one table of up to six: there is one stage, and the bracket and the
    manage page say why, not only "the final"."""
    event, stage, director = championship(6)
    assert stage.tables.count() == 1
    (shown,) = championship_bracket(event=event).stages
    why = "6 players fit at one table of up to 6: this stage is the final."
    assert shown.final_note == why
    assert why in client.get(event.get_absolute_url()).content.decode()
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    assert why in client.get(manage).content.decode()
    # A first stage of several tables needs no such word.
    other, _stage, _director = championship(9)
    assert [s.final_note for s in championship_bracket(event=other).stages] == [""]


def test_the_public_bracket_is_drawn_from_the_sheets_the_standings_read():
    """At 250 tables a sheet read is most of the public part's cost: the bracket beside
    the standings takes theirs, and is what it would be read on its own."""
    from standings.parts import live_context

    event, stage, director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=2))
    following = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=following)
    (final,) = following.tables.all()
    play(final, winner_scheme(3, winner=1), upto=2)
    event.refresh_from_db()
    with CaptureQueriesContext(connection) as read:
        context = live_context(event)
    deal_reads = [q["sql"] for q in read.captured_queries if 'FROM "scoring_deal"' in q["sql"]]
    assert len(deal_reads) == 1
    assert [s.number for s in context["bracket"].stages] == [1, 2]
    assert context["bracket"] == championship_bracket(event=event)
