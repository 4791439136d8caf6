"""A score corrected in a closed championship stage: only the director corrects it, the
manage page flags what would now be decided otherwise, and the director's decision to keep
the stage as closed is recorded. Nothing is ever re-seated by itself."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from formats.championship import closed_stage_decision_record, closed_stage_drift
from rules import RuleViolation
from scoring.models import Deal, DealAction, DealVersion
from scoring.services import Actor, TableClosed, deal_record
from tests.support.championship import FLIP, closed_stage, correct, director_actor, names
from tests.support.factories import MembershipFactory
from tournaments.models import Player, Role, Stage
from tournaments.roster import player_rename
from tournaments.services import stage_confirm

pytestmark = pytest.mark.django_db


# Deal 7 entered again with other losers' points: the winner stays the winner.
SAME = {
    "out": 0,
    "players": [
        {"cards": None, "points": None, "buys": 0},
        {"cards": None, "points": 25, "buys": 0},
        {"cards": None, "points": 35, "buys": 0},
    ],
}


def test_the_director_corrects_a_closed_stage_and_the_changed_advancer_is_flagged():
    event, stage, director, tables = closed_stage()
    first = names(tables[0])
    assert closed_stage_drift(event=event) == []
    deal = correct(tables[0], director, FLIP)
    assert deal.is_confirmed and deal.points[0] == 200
    # Kept with who and when, like any correction.
    version = DealVersion.objects.get(deal=deal, action=DealAction.CORRECT)
    assert version.by_user == director
    [drift] = closed_stage_drift(event=event)
    assert drift.stage == stage
    assert [name for _p, name in drift.instead] == [first[1]]
    assert [name for _p, name in drift.of] == [first[0]]
    assert drift.decided is None and drift.refusal is None
    # Nothing was re-seated: the stored outcome and the next stage's seats stand.
    stage.refresh_from_db()
    assert first[0] in [row["name"] for row in stage.outcome["advancers"]]
    following = Stage.objects.get(event=event, number=2)
    seated_next = set(following.tables.values_list("seats__player__name", flat=True))
    assert first[0] in seated_next and first[1] not in seated_next


def test_phones_stay_refused_on_a_closed_stage(client):
    _event, _stage, _director, tables = closed_stage()
    table = tables[0]
    deal = Deal.objects.get(table=table, number=7)
    phone = Actor(device="phone-at-seat-1", seat=1)
    with pytest.raises(TableClosed):
        deal_record(
            table=table,
            number=7,
            entry=FLIP,
            by=phone,
            expected_version=deal.version,
            request_id="phone",
        )
    assert client.get(reverse("deal_edit", args=[table.entry_key, 7])).status_code == 404
    response = client.post(reverse("deal_save", args=[table.entry_key, 7]), {})
    assert response.status_code == 404
    deal.refresh_from_db()
    assert deal.points[0] == 0


def test_only_the_director_opens_the_correction_of_a_closed_stage():
    event, _stage, director, tables = closed_stage()
    key = tables[0].entry_key
    scorer = MembershipFactory(club=event.club, role=Role.SCORER).user
    signed_in = Client()
    signed_in.force_login(scorer)
    assert signed_in.get(reverse("deal_edit", args=[key, 7])).status_code == 404
    with pytest.raises(TableClosed):
        correct(tables[0], scorer, FLIP)
    directing = Client()
    directing.force_login(director)
    assert directing.get(reverse("deal_edit", args=[key, 7])).status_code == 200
    # A closed stage's deals are corrected, never added to; nor confirmed, nor seated.
    with pytest.raises(TableClosed):
        deal_record(
            table=tables[0],
            number=8,
            entry=FLIP,
            by=director_actor(director),
            expected_version=0,
            request_id="new",
        )
    history = directing.get(
        reverse("table_history", args=[event.club.slug, event.pk, tables[0].pk])
    )
    assert reverse("deal_edit", args=[key, 7]) in history.content.decode()
    assert "This stage is closed. You can still correct its deals" in history.content.decode()


def test_a_correction_that_changes_nothing_is_not_flagged():
    event, _stage, director, tables = closed_stage()
    stored = Deal.objects.get(table=tables[0], number=7).entry
    correct(tables[0], director, stored)
    assert closed_stage_drift(event=event) == []


def test_a_correction_that_only_reorders_the_final_ranking_is_flagged(client):
    event, _stage, director, tables = closed_stage()
    correct(tables[0], director, SAME)
    [drift] = closed_stage_drift(event=event)
    # The same players go on, but those knocked out would rank otherwise.
    assert drift.instead == [] and drift.of == []
    assert drift.moved and all(before != now for _name, before, now in drift.moved)
    client.force_login(director)
    page = client.get(reverse("event_manage", args=[event.club.slug, event.pk])).content.decode()
    name, before, now = drift.moved[0]
    assert "The final ranking would change:" in page and f"{name} {before} → {now}" in page


def test_keeping_the_decision_records_who_and_when_and_clears_the_flag(client):
    event, stage, director, tables = closed_stage()
    first = names(tables[0])
    correct(tables[0], director, FLIP)
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = client.get(manage).content.decode()
    assert f"With the corrected scores, {first[1]} would go on instead of {first[0]}." in page
    assert "Keep the decision" in page
    [drift] = closed_stage_drift(event=event)
    response = client.post(
        reverse("championship_drift_decision", args=[event.club.slug, event.pk]),
        {"stage": stage.number, "token": drift.token, "choice": "kept"},
    )
    assert response.status_code == 302
    stage.refresh_from_db()
    [decision] = stage.outcome["decisions"]
    assert decision["by"]["id"] == director.pk
    assert decision["choice"] == "kept"
    assert decision["at"]
    assert decision["seen"]["instead"][0][1] == first[1]
    assert decision["seen"]["of"][0][1] == first[0]
    [drift] = closed_stage_drift(event=event)
    assert drift.decided == decision
    page = client.get(manage).content.decode()
    assert "Keep the decision" not in page
    assert "Kept as closed by" in page
    # Who went on is what the closing decided.
    assert first[0] in [row["name"] for row in stage.outcome["advancers"]]


def test_a_decision_on_a_drift_the_page_did_not_show_is_refused():
    _event, stage, director, tables = closed_stage()
    correct(tables[0], director, FLIP)
    with pytest.raises(RuleViolation):
        closed_stage_decision_record(stage=stage, by=director, choice="kept", token="other")
    stage.refresh_from_db()
    assert "decisions" not in stage.outcome


def test_a_decision_needs_a_drift_and_a_director():
    event, stage, director, tables = closed_stage()
    with pytest.raises(RuleViolation):
        closed_stage_decision_record(stage=stage, by=director, choice="kept")
    correct(tables[0], director, FLIP)
    scorer = MembershipFactory(club=event.club, role=Role.SCORER).user
    with pytest.raises(PermissionDenied):
        closed_stage_decision_record(stage=stage, by=scorer, choice="kept")
    client = Client()
    client.force_login(scorer)
    [drift] = closed_stage_drift(event=event)
    response = client.post(
        reverse("championship_drift_decision", args=[event.club.slug, event.pk]),
        {"stage": stage.number, "token": drift.token, "choice": "kept"},
    )
    assert response.status_code in (403, 404)
    stage.refresh_from_db()
    assert "decisions" not in stage.outcome


@pytest.mark.parametrize("players", [9, 18])
def test_the_drift_takes_the_same_queries_whatever_the_stage_size(
    players, django_assert_num_queries
):
    event, _stage, director, tables = closed_stage(players)
    correct(tables[0], director, FLIP)
    # One for the stages, three for who went on and is absent since (the next stage, its
    # scores, the absent), three for the judgement's key (tables, seats, tie-breaks) and,
    # the first time after the correction, four to judge it (tables, seats, deals,
    # tie-breaks).
    with django_assert_num_queries(11):
        [drift] = closed_stage_drift(event=event)
    assert drift.instead
    with django_assert_num_queries(7):
        [kept] = closed_stage_drift(event=event)
    assert kept.token == drift.token


@pytest.fixture
def judgements(monkeypatch):
    """How many times a closed stage is judged (its sheets read and scored)."""
    import formats.championship as championship

    made = []
    judge = championship._close_state

    def counted(*args, **kwargs):
        made.append(args[0].pk)
        return judge(*args, **kwargs)

    monkeypatch.setattr(championship, "_close_state", counted)
    return made


def test_the_close_keeps_its_judgement_for_the_page_it_leads_to(
    judgements, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        event, stage, _director, _tables = closed_stage()
    assert judgements == [stage.pk]  # the close's own
    assert closed_stage_drift(event=event) == []
    assert judgements == [stage.pk]


def test_the_closed_stage_is_judged_again_only_when_what_it_reads_changes(judgements):
    event, stage, director, tables = closed_stage()
    judgements.clear()  # the close's own (kept only once committed: not in a test)
    assert closed_stage_drift(event=event) == []
    assert closed_stage_drift(event=event) == []
    assert judgements == [stage.pk]
    # Seating the next stage and a deal at its table are not what the closed stage reads.
    following = Stage.objects.get(event=event, number=2)
    stage_confirm(stage=following)
    deal_record(
        table=following.tables.get(), number=1, entry=SAME,
        by=Actor(device="final-seat-0", seat=0), expected_version=0, request_id="final-1",
    )  # fmt: skip
    event.refresh_from_db()
    assert closed_stage_drift(event=event) == []
    assert judgements == [stage.pk]
    # A corrected score is: judged again, and the drift shown at once.
    correct(tables[0], director, FLIP)
    [drift] = closed_stage_drift(event=event)
    assert judgements == [stage.pk] * 2
    assert drift.instead


def test_a_renamed_player_is_shown_by_the_new_name(judgements):
    event, _stage, director, tables = closed_stage()
    correct(tables[0], director, FLIP)
    [drift] = closed_stage_drift(event=event)
    ((player, _name),) = drift.instead
    player_rename(player=Player.objects.get(pk=player), name="Renamed Réka")
    judged = len(judgements)
    [drift] = closed_stage_drift(event=event)
    assert drift.instead == [(player, "Renamed Réka")]
    assert len(judgements) == judged + 1
