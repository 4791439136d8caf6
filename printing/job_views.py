"""Print jobs for the club's directors: start a batch, follow it, download it, retry it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.i18n import violation_text
from core.tasks import QueueUnavailable
from core.waiting import waiting_page
from printing.forms import PrintJobForm
from printing.jobs import (
    print_job_filename,
    print_job_request,
    print_job_retry,
    print_job_state,
)
from printing.models import PrintJob
from printing.pdf import PDF
from printing.tasks import print_job_watch
from rules import RuleViolation
from tournaments.permissions import event_for, manage_page


def _director_job(request: HttpRequest, slug: str, event_id: int, job_id: int) -> PrintJob:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    jobs = PrintJob.objects.select_related("event__club", "run")
    return get_object_or_404(jobs, pk=job_id, event=event)


def _job_page(job: PrintJob) -> HttpResponse:
    return redirect("print_job", job.event.club.slug, job.event_id, job.pk)


@login_required
@require_POST
def print_job_start(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = PrintJobForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Pick what to print."))
        return manage_page(slug, event_id, "print")
    data = form.cleaned_data
    params = {"stage": data["stage"], "paper": data["paper"], "language": get_language()}
    try:
        job = print_job_request(
            event=event, kind=form.cleaned_data["kind"], params=params, by=request.user
        )
    except QueueUnavailable as error:
        # Said on a page of its own, with the button again: a message above the manage page
        # would be out of sight of its print box, where the director is looking.
        context = {"event": event, "club": event.club, "form": form, "reason": error.message}
        return render(request, "printing/queue_down.html", context, status=503)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return manage_page(slug, event_id, "print")
    return _job_page(job)


@login_required
@require_GET
def print_job_page(request: HttpRequest, slug: str, event_id: int, job_id: int) -> HttpResponse:
    """The job's progress (tables done of all); polls itself until the job ends."""
    job = _director_job(request, slug, event_id, job_id)
    # A job its worker or queue lost is given out again as its page watches it.
    sent = print_job_watch(job=job)
    context = {
        "job": job,
        "event": job.event,
        "club": job.event.club,
        "state": print_job_state(job, queue_unreachable=sent is None),
    }
    poll = reverse("print_job", args=[slug, event_id, job.pk])
    return waiting_page(
        request,
        heading=job.title,
        part="printing/_job_progress.html",
        context=context,
        poll_url=poll,
    )


@login_required
@require_GET
def print_job_download(request: HttpRequest, slug: str, event_id: int, job_id: int) -> FileResponse:
    job = _director_job(request, slug, event_id, job_id)
    if print_job_state(job).kind != "done":
        raise Http404(_("This print job has no file (yet)."))
    try:
        handle = job.file.open("rb")
    except FileNotFoundError as error:  # removed from the disk by hand: ask for a new one
        raise Http404(_("This print job has no file (yet).")) from error
    return FileResponse(
        handle, as_attachment=True, filename=print_job_filename(job), content_type=PDF
    )


@login_required
@require_POST
def print_job_retry_view(
    request: HttpRequest, slug: str, event_id: int, job_id: int
) -> HttpResponse:
    job = _director_job(request, slug, event_id, job_id)
    try:
        job = print_job_retry(job=job)
    except QueueUnavailable as error:
        messages.error(request, error.message)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    return _job_page(job)
