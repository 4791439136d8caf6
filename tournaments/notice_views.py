"""The pages of the players' mail and the calendar: a mail's unsubscribe link, the
director's *Send again*, and the club's and an event's .ics."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from core.ratelimit import rate_limit
from core.views import no_index
from tournaments.calendar import events_calendar
from tournaments.models import Club, Notice, NoticeKind
from tournaments.notice_mail import unsubscribe_read
from tournaments.notices import mail_opt_out_record, notice_resend
from tournaments.permissions import event_for, manage_page, public_event, published_events
from tournaments.visibility import is_public


# Exempt from CSRF: a mail client's one-click unsubscribe (RFC 8058) POSTs with no cookie.
# The signed token is what authorises it, and it can only stop mail to its own address.
@csrf_exempt
@no_index
@rate_limit(scope="notice_unsubscribe", rate="60/h", methods=("POST",))
def notice_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Asks first (a mail scanner's GET changes nothing), then records the opt-out."""
    found = unsubscribe_read(token)
    club = Club.objects.filter(pk=found[0]).first() if found else None
    if found is None or club is None:
        return render(request, "tournaments/notices/unsubscribe.html", {"bad": True}, status=400)
    _club_id, email, kind = found
    done = request.method == "POST"
    if done:
        mail_opt_out_record(club_id=club.pk, email=email, kind=kind)
    context = {"club": club, "email": email, "kind": NoticeKind(kind).label, "done": done}
    return render(request, "tournaments/notices/unsubscribe.html", context)


@login_required
@require_POST
def notice_send_again(
    request: HttpRequest, slug: str, event_id: int, notice_id: int
) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    notice = notice_resend(notice=get_object_or_404(Notice, pk=notice_id, event=event))
    messages.success(
        request, _("The mail to %(email)s is being sent again.") % {"email": notice.email}
    )
    return manage_page(slug, event_id, "mail")


def club_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    events = published_events(club=club).select_related("club")
    return _ics(events_calendar(club=club, events=events), f"{club.slug}.ics")


def event_calendar(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """One event's .ics: found only where its page is (a private event is not found)."""
    event = public_event(slug=slug, event_id=event_id, user=request.user)
    if event is None or not is_public(event):
        raise Http404
    return _ics(events_calendar(club=event.club, events=[event]), f"event-{event.pk}.ics")


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "public, max-age=900"
    return response
