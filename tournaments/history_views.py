"""A club's past results on the director's pages: upload a file, see what it would import,
confirm (tournaments.history does the work)."""

from __future__ import annotations

import io
import logging
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.history import history_import, history_preview
from tournaments.history_forms import HistoryConfirmForm, HistoryUploadForm
from tournaments.models import Club, Role
from tournaments.permissions import get_club_for
from tournaments.spreadsheet import SpreadsheetError

log = logging.getLogger(__name__)

# How long a previewed file waits for the director's confirmation.
PREVIEW_SECONDS = 60 * 60
TEMPLATE = "tournaments/history_import.html"


def _kept(club: Club, token: str) -> str:
    return f"history-import:{club.pk}:{token}"


@login_required
def history_import_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The upload form; a posted file is previewed (nothing saved) and kept for confirming."""
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = HistoryUploadForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"club": club, "form": form}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        try:
            context["preview"] = history_preview(club=club, upload=io.BytesIO(data))
        except SpreadsheetError as error:
            context.update(error=violation_text(error), problems=error.problems)
        except RuleViolation as error:
            form.add_error("file", violation_text(error))
        else:
            token = secrets.token_urlsafe(24)
            if _keep(_kept(club, token), data):
                context["confirm_form"] = HistoryConfirmForm(initial={"token": token})
            else:
                context["preview"] = None
                form.add_error("file", _(CACHE_DOWN))
    return render(request, TEMPLATE, context)


# The previewed file waits in the cache (Redis when deployed); with the cache away, the page
# says so instead of failing, and nothing is imported.
CACHE_DOWN = gettext_noop("The preview cannot be kept just now: upload the file again in a minute.")


def _keep(key: str, data: bytes) -> bool:
    try:
        cache.set(key, data, PREVIEW_SECONDS)
    except Exception:
        log.warning("history import: the cache cannot be reached", exc_info=True)
        return False
    return True


def _kept_file(key: str) -> bytes | None:
    """The previewed file, taken (a second confirm finds nothing: one import per preview)."""
    try:
        data = cache.get(key)
        cache.delete(key)
    except Exception:
        log.warning("history import: the cache cannot be reached", exc_info=True)
        return None
    return data


@login_required
@require_POST
def history_import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """Import the previewed file: all of it in one transaction, or nothing."""
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = HistoryConfirmForm(request.POST)
    data = _kept_file(_kept(club, form.cleaned_data["token"])) if form.is_valid() else None
    if data is None:
        messages.error(request, _("The preview has expired: upload the file again."))
        return redirect("history_import", slug=slug)
    try:
        done = history_import(club=club, upload=io.BytesIO(data))
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return redirect("history_import", slug=slug)
    messages.success(
        request,
        _("Events imported: %(events)d. New players: %(new)d.")
        % {"events": len(done.events), "new": len(done.new_players)},
    )
    return redirect(f"{club.get_absolute_url()}#events")
