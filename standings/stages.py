"""A stage's standings page (a permanent address per stage) and its downloads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.tables import EXPORT_FORMATS, export_name, export_response
from standings.parts import public_event_or_404
from standings.selectors import public_stage, public_stages, stage_ranking
from standings.tables import ranking_table
from tournaments.models import Event, Stage


def _stage_or_404(request: HttpRequest, slug: str, event_id: int, number: int) -> Stage:
    event: Event = public_event_or_404(request, slug, event_id)
    stage = public_stage(event=event, number=number)
    if stage is None:
        raise Http404
    return stage


def stage_standings(request: HttpRequest, slug: str, event_id: int, number: int) -> HttpResponse:
    stage = _stage_or_404(request, slug, event_id, number)
    event = stage.event
    rows = stage_ranking(stage=stage, confirmed_only=event.club.public_confirmed_only)
    context = {
        "event": event,
        "stage": stage,
        "stages": public_stages(event=event),
        "table": ranking_table(rows, request=request, page_path=request.path),
        "pending": any(row.unconfirmed for row in rows),
        "confirmed_only": event.club.public_confirmed_only,
    }
    return render(request, "standings/stage/standings.html", context)


def stage_standings_export(
    request: HttpRequest, slug: str, event_id: int, number: int, export_format: str
) -> HttpResponse:
    if export_format not in EXPORT_FORMATS:
        raise Http404
    stage = _stage_or_404(request, slug, event_id, number)
    event = stage.event
    rows = stage_ranking(stage=stage, confirmed_only=event.club.public_confirmed_only)
    title = _("Round %(number)d") % {"number": stage.number}
    return export_response(
        ranking_table(rows),
        export_format=export_format,
        name=export_name(event.name, title),
        title=title,
    )
