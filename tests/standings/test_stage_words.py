"""One word for a stage throughout: a championship's "Stage", a series' or a night's
"Round", on its standings page, its score sheets, its print job and its messages, in every
language."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from formats.finish import event_finish_refusal
from printing.models import PrintJob
from tests.support.championship import championship
from tests.support.factories import MembershipFactory
from tests.support.series import series_event
from tournaments.models import Role, StageStatus

pytestmark = pytest.mark.django_db


def _stage_page(client, event) -> str:
    url = reverse("stage_standings", args=[event.club.slug, event.pk, 1])
    return client.get(url).content.decode()


def _sheet_text(client, event, table) -> str:
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    url = reverse("print_table_sheet", args=[event.club.slug, event.pk, table.pk])
    return PdfReader(io.BytesIO(client.get(url, {"lang": "en"}).content)).pages[0].extract_text()


def test_a_championship_says_stage_and_a_series_says_round(client):
    cup, stage, _director = championship(9)
    series, tables = series_event(8)
    assert "<h1>Stage 1</h1>" in _stage_page(client, cup)
    assert "<h1>Round 1</h1>" in _stage_page(client, series)
    assert "Stage 1" in _sheet_text(client, cup, stage.tables.first())
    sheet = _sheet_text(client, series, tables[0])
    assert "Round 1" in sheet and "Stage" not in sheet
    job = PrintJob(event=cup, kind="table_sheets", params={"stage": 1})
    assert job.title == "Score sheets · Stage 1"
    job = PrintJob(event=series, kind="result_sheets", params={"stage": 1})
    assert job.title == "Result sheets · Round 1"


@pytest.mark.parametrize(("language", "word"), [("fi", "Vaihe 1"), ("hu", "1. szakasz")])
def test_each_language_keeps_its_one_word_for_a_championships_stage(language, word):
    cup, stage, _director = championship(9)
    stage.status = StageStatus.PREVIEW
    stage.save()
    with translation.override(language):
        assert stage.label == word
        refusal = event_finish_refusal(event=cup)
        assert refusal is not None and word in str(refusal.params["stage"])
