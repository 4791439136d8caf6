"""A slow job's progress page: it polls itself until the job ends, and offers a retry to
whoever may start the job again."""

from __future__ import annotations

import re
from urllib.parse import quote

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.redirects import local_path
from core.tasks import QueueUnavailable, TaskStatus, task_may_retry, task_run_retry, task_run_status
from core.waiting import waiting_page


def task_page(task_id: str, next_url: str) -> str:
    """The progress page of a job, returning to `next_url` when it is done."""
    return f"{reverse('task_status', args=[task_id])}?{urlencode({'next': next_url})}"


def _next(value: str | None) -> str:
    """Where to send the person afterwards: a path on this site, else home."""
    return local_path(value, fallback=reverse("home"))


TASK_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _task_status_or_404(task_id: str) -> TaskStatus:
    # Only ids the site hands out (Celery's uuids) are looked up; nobody queued any other.
    status = task_run_status(task_id=task_id) if TASK_ID.fullmatch(task_id) else None
    if status is None:
        raise Http404(_("No such job."))
    return status


@require_http_methods(["GET", "POST"])
def task_status(request: HttpRequest, task_id: str) -> HttpResponse:
    """A slow job's progress; the page polls itself (htmx) until the job ends. POST: retry."""
    status = _task_status_or_404(task_id)
    if request.method == "POST":
        return _task_retry(request, status)
    next_url = _next(request.GET.get("next"))
    context = {
        "task_id": task_id,
        "state": status,
        "can_retry": task_may_retry(status=status, user=request.user),
        "next": next_url,
    }
    heading = _("Job") if status.finished else _("Working on it")
    poll = f"{reverse('task_status', args=[task_id])}?next={quote(next_url, safe='/')}"
    return waiting_page(
        request, heading=heading, part="core/_task_progress.html", context=context, poll_url=poll
    )


def _task_retry(request: HttpRequest, status: TaskStatus) -> HttpResponse:
    next_url = _next(request.POST.get("next"))
    if not task_may_retry(status=status, user=request.user):
        raise PermissionDenied
    try:
        task_id = task_run_retry(run=status.run)
    except QueueUnavailable as error:
        messages.error(request, error.message)
        return redirect(task_page(status.run.task_id, next_url))
    return redirect(task_page(task_id, next_url))
