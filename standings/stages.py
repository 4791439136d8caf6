"""A stage's standings page (a permanent address per stage) and its downloads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from core.tables import EXPORT_FORMATS, csv_separator
from standings.parts import public_event_or_404
from standings.selectors import public_stage, public_stages
from standings.standings import event_standings
from standings.tables import ranking_table, standings_download
from tournaments.models import Event, Stage
from tournaments.visibility import confirmed_only


def _stage_or_404(request: HttpRequest, slug: str, event_id: int, number: int) -> Stage:
    event: Event = public_event_or_404(request, slug, event_id)
    stage = public_stage(event=event, number=number)
    if stage is None:
        raise Http404
    return stage


def stage_standings(request: HttpRequest, slug: str, event_id: int, number: int) -> HttpResponse:
    stage = _stage_or_404(request, slug, event_id, number)
    event = stage.event
    standings = event_standings(event=event, stage=stage)
    context = {
        "event": event,
        "stage": stage,
        "stages": public_stages(event=event),
        "table": ranking_table(standings, request=request, page_path=request.path),
        "pending": standings.pending,
        "confirmed_only": confirmed_only(club=event.club),
    }
    return render(request, "standings/stage/standings.html", context)


def stage_standings_export(
    request: HttpRequest, slug: str, event_id: int, number: int, export_format: str
) -> HttpResponse:
    if export_format not in EXPORT_FORMATS:
        raise Http404
    stage = _stage_or_404(request, slug, event_id, number)
    standings = event_standings(event=stage.event, stage=stage)
    title = stage.event.spec.stage_name(stage.number)
    return standings_download(standings, export_format, title, csv_separator(request))
