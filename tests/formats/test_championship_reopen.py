"""A closed championship stage reopened while the next stage has no score: after a correction
(the wrong player went on) or a no-show found after the close (the next of their table takes
the place). The change is previewed on the manage page and recorded with the new close; a
redraw without reopening never seats an absent player (their table plays one short)."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from formats.championship import (
    DRIFT_REOPENED,
    championship_bracket,
    closed_stage_decision_record,
    closed_stage_drift,
    no_shows_since_close,
    reopen_refusal,
)
from printing.boards import bracket_file
from rules import RuleViolation
from standings.standings import event_standings
from tests.support.championship import (
    FLIP,
    closed_stage,
    correct,
    names,
    play,
    seated,
    winner_scheme,
)
from tournaments.models import Player, Seat, Stage, StageStatus
from tournaments.services import registration_status_set, stage_confirm, stage_draw

pytestmark = pytest.mark.django_db


def _second_stage_players(event) -> set[int]:
    return set(Seat.objects.filter(table__stage__event=event, table__stage__number=2)
               .values_list("player_id", flat=True))  # fmt: skip


def test_a_corrected_stage_is_reopened_and_the_right_player_goes_on():
    event, stage, director, tables = closed_stage()
    old_winner, new_winner = seated(tables[0])[0], seated(tables[0])[1]
    assert old_winner in _second_stage_players(event)
    correct(tables[0], director, FLIP)
    (drift,) = closed_stage_drift(event=event)
    assert [p for p, _n in drift.instead] == [new_winner]
    assert [p for p, _n in drift.of] == [old_winner]
    assert reopen_refusal(stage=drift.stage) is None
    closed_stage_decision_record(stage=stage, by=director, choice=DRIFT_REOPENED, token=drift.token)
    following = Stage.objects.get(event=event, number=2)
    assert following.status == StageStatus.PREVIEW
    assert new_winner in _second_stage_players(event)
    assert old_winner not in _second_stage_players(event)
    stage.refresh_from_db()
    (decision,) = stage.outcome["decisions"]
    assert decision["choice"] == "reopened" and decision["by"]["id"] == director.pk
    assert decision["seen"]["instead"][0][0] == new_winner
    assert new_winner in {row["player"] for row in stage.outcome["advancers"]}
    # Judged as it stands now: nothing left to decide.
    assert closed_stage_drift(event=event) == []


def test_a_no_show_found_after_the_close_is_replaced_by_the_next_of_their_table():
    event, stage, director, tables = closed_stage()
    absent = seated(tables[1])[0]
    registration_status_set(
        registration=event.registrations.get(player_id=absent), status="withdrawn", confirmed=True
    )
    (drift,) = closed_stage_drift(event=event)
    assert [p for p, _n in drift.of] == [absent]
    (replacement,) = [p for p, _n in drift.instead]
    assert replacement in seated(tables[1])
    closed_stage_decision_record(stage=stage, by=director, choice=DRIFT_REOPENED, token=drift.token)
    players = _second_stage_players(event)
    assert absent not in players and replacement in players
    stage.refresh_from_db()
    (row,) = [r for r in stage.outcome["advancers"] if r["player"] == replacement]
    assert row["reason"] == "replaces_no_show" and row["replaces"][0][0] == absent


def test_or_the_director_redraws_and_the_absent_players_table_plays_one_short():
    event, _stage, _director, tables = closed_stage(12)
    before = _second_stage_players(event)
    absent = seated(tables[0])[0]
    registration_status_set(
        registration=event.registrations.get(player_id=absent), status="withdrawn", confirmed=True
    )
    redrawn = stage_draw(event=event, seed=8)
    assert redrawn.number == 2
    assert _second_stage_players(event) == before - {absent}


def test_a_stage_is_not_reopened_once_the_next_has_a_score():
    event, stage, director, tables = closed_stage()
    following = Stage.objects.get(event=event, number=2)
    stage_confirm(stage=following)
    correct(tables[0], director, FLIP)
    (final,) = following.tables.all()
    play(final, winner_scheme(3, winner=0), upto=1)
    (drift,) = closed_stage_drift(event=event)
    refusal = reopen_refusal(stage=drift.stage)
    assert refusal is not None and refusal.code == "reopen_too_late"
    with pytest.raises(RuleViolation) as refused:
        closed_stage_decision_record(
            stage=stage, by=director, choice=DRIFT_REOPENED, token=drift.token
        )
    assert refused.value.code == "reopen_too_late"
    assert following.tables.get().deals.exists()  # nothing was undone


def test_the_manage_page_previews_the_reopen_and_the_director_does_it(client):
    event, _stage, director, tables = closed_stage()
    correct(tables[0], director, FLIP)
    client.force_login(director)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = client.get(manage).content.decode()
    new_name = names(tables[0])[1]
    assert f"{new_name} would go on instead of" in page
    assert 'value="reopened"' in page and "stage 2 is drawn again as a preview" in page
    (drift,) = closed_stage_drift(event=event)
    response = client.post(
        reverse("championship_drift_decision", args=[event.club.slug, event.pk]),
        {"stage": 1, "token": drift.token, "choice": "reopened"},
        follow=True,
    )
    assert "Stage 1 is judged again" in response.content.decode()
    assert seated(tables[0])[1] in _second_stage_players(event)


def test_a_no_show_after_the_close_is_said_on_the_public_bracket_and_standings(client):
    """The manage page knew; the public saw the absent player "goes on" with nothing said.
    One predicate (`no_shows_since_close`) marks them on both public outputs."""
    event, stage, _director, tables = closed_stage()
    absent = seated(tables[1])[0]
    registration_status_set(
        registration=event.registrations.get(player_id=absent), status="withdrawn", confirmed=True
    )
    assert no_shows_since_close(stage=stage) == {absent}
    assert championship_bracket(event=event).no_shows == {absent}
    rows = event_standings(event=event).rows
    assert [row.player_id for row in rows if row.no_show] == [absent]
    html = client.get(event.get_absolute_url()).content.decode()
    name = Player.objects.get(pk=absent).name
    section = html.split('id="bracket"', 1)[1].split("</section>", 1)[0]
    assert re.search(re.escape(name) + r"[^<]*<.*?no-show", section, re.S)
    ranking = html.split('class="table ranking-table"', 1)[1].split("</table>", 1)[0]
    (row,) = [r for r in re.findall(r"<tr.*?</tr>", ranking, re.S) if name in r]
    assert "no-show" in row
    # The printed bracket on the wall says it too.
    printed = bracket_file(event=event, language="en").content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(printed)).pages)
    assert re.search(re.escape(name) + r".{0,40}no-show", " ".join(text.split()))
