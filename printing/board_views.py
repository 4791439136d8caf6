"""The notice-board sheets as PDF downloads: an event's standings, a stage's seating list,
a championship's bracket, a season's league table. Each is seen by whoever may see the
public page it prints (a private event is not found, but for its directors)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from core.conditional import cache_get, cache_set
from core.tasks import QueueUnavailable
from core.waiting import waiting_page
from leagues.selectors import public_season
from printing import boards as print_boards
from printing.forms import BoardPrintForm, SeatingPrintForm, StandingsPrintForm
from printing.jobs import DONE, STANDINGS, print_job_filename, print_job_request, print_job_state
from printing.pdf import PDF, PrintFile
from standings.parts import public_event_or_404
from standings.selectors import public_stage
from tournaments.changes import event_results_version
from tournaments.models import Event, Stage
from tournaments.visibility import confirmed_only, is_public

Form = TypeVar("Form", bound=BoardPrintForm)


def _form(request: HttpRequest, form_class: type[Form]) -> Form:
    form = form_class(request.GET)
    if not form.is_valid():
        raise Http404
    return form


def _stage_or_404(event: Event, number: int) -> Stage:
    stage = public_stage(event=event, number=number)
    if stage is None:
        raise Http404
    return stage


def _download(file: PrintFile, language: str) -> HttpResponse:
    response = HttpResponse(file.content, content_type=file.mime)
    response["Content-Disposition"] = f'inline; filename="{file.filename}"'
    # A sheet of a private event (its director's preview) is never kept by a shared cache.
    response["Cache-Control"] = "private, no-cache"
    response["Content-Language"] = language
    return response


# How long a made sheet is kept at most; a result change makes another key at once.
SHEET_KEPT = 6 * 3600


def _kept(event: Event, parts: tuple[object, ...], make: Callable[[], PrintFile]) -> PrintFile:
    """A sheet made once per state of the event's results: a big event's standings take
    WeasyPrint many seconds, and a hall asking for them at once must not make them each
    time. Keyed by the results' last change, so a new result is never shown late. A private
    event's sheet (a director's preview) is not kept; without the cache it is simply made."""
    if not is_public(event):
        return make()
    changed = event_results_version(event).isoformat()
    key = "print:" + ":".join(str(part) for part in (event.pk, changed, *parts))
    kept = cache_get(key)
    if isinstance(kept, PrintFile):
        return kept
    file = make()
    cache_set(key, file, SHEET_KEPT)
    return file


# An event of more players than this has its standings PDF made by a print job (in the
# background, like the tables' sheets): WeasyPrint takes seconds over a thousand rows.
IN_BACKGROUND_FROM = 300


def standings_pdf(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = public_event_or_404(request, slug, event_id)
    form = _form(request, StandingsPrintForm)
    number = form.cleaned_data.get("stage")
    stage = _stage_or_404(event, number) if number else None
    language = form.language(event.club.language)
    if event.registrations.count() > IN_BACKGROUND_FROM:
        params = {"stage": number, "language": language, "paper": form.size()}
        if (answer := _standings_job(request, event, params)) is not None:
            return answer
    file = _kept(
        event,
        ("standings", number, language, form.size(), confirmed_only(club=event.club)),
        lambda: print_boards.standings_file(
            event=event, language=language, size=form.size(), stage=stage
        ),
    )
    return _download(file, language)


def seating_pdf(request: HttpRequest, slug: str, event_id: int, number: int) -> HttpResponse:
    event = public_event_or_404(request, slug, event_id)
    form = _form(request, SeatingPrintForm)
    language = form.language(event.club.language)
    file = print_boards.seating_file(
        stage=_stage_or_404(event, number),
        language=language,
        size=form.size(),
        per_page=form.cleaned_data.get("per_page"),
    )
    return _download(file, language)


def bracket_pdf(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = public_event_or_404(request, slug, event_id)
    if "bracket" not in event.spec.boards:
        raise Http404
    form = _form(request, BoardPrintForm)
    language = form.language(event.club.language)
    file = print_boards.bracket_file(event=event, language=language, size=form.size())
    return _download(file, language)


def league_pdf(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = public_season(slug=slug, season_id=season_id)
    if season is None:
        raise Http404
    form = _form(request, BoardPrintForm)
    language = form.language(season.club.language)
    file = print_boards.league_file(season=season, language=language, size=form.size())
    return _download(file, language)


def _standings_job(
    request: HttpRequest, event: Event, params: dict[str, Any]
) -> HttpResponse | None:
    """The big event's standings from its print job (made from the results as they are):
    the file once it is made, else a page that waits for it. None when the job queue cannot
    be reached: the caller makes the file itself."""
    try:
        job = print_job_request(event=event, kind=STANDINGS, params=params)
    except QueueUnavailable:
        return None
    state = print_job_state(job)
    if state.kind == DONE:
        try:
            content = job.file.read()
        except OSError:
            return None  # the file went from the disk: made again here
        finally:
            job.file.close()
        return _download(PrintFile(print_job_filename(job), PDF, content), params["language"])
    context = {"event": event, "state": state, "back_url": event.get_absolute_url()}
    response = waiting_page(
        request,
        heading=f"{_('Standings')} (PDF)",
        part="printing/_standings_wait.html",
        context={**context, "back_label": event.name},
        refresh=not state.finished,
        status=202,
    )
    response["Retry-After"] = "2"
    response["Cache-Control"] = "no-store"
    return response
