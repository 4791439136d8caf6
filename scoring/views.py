"""Score entry at the table (no account: the table's private link), and public results."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules import RuleViolation, score_deal
from scoring.forms import entry_from_post, field_for, post_from_entry
from scoring.history import entry_changes
from scoring.i18n import contract_text, violation_text
from scoring.models import Deal
from scoring.selectors import deal_history, event_ranking, event_sheets, table_sheet
from scoring.services import Actor, StaleDeal, deal_confirm, deal_record
from tournaments.models import Event, Role, StageStatus, Table
from tournaments.permissions import get_club_for
from tournaments.selectors import club_membership

DEVICE_COOKIE = "lappu_device"


def _table(key: str) -> Table:
    # Only a seated (confirmed) stage takes scores; a draw preview may still change.
    return get_object_or_404(
        Table.objects.select_related("stage__event__club"),
        entry_key=key,
        stage__status=StageStatus.CONFIRMED,
    )


def _device(request: HttpRequest) -> str:
    if not hasattr(request, "_lappu_device"):
        cookie = request.COOKIES.get(DEVICE_COOKIE, "")
        request._lappu_device = cookie if 16 <= len(cookie) <= 64 else secrets.token_urlsafe(16)
    return request._lappu_device


def _with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if request.COOKIES.get(DEVICE_COOKIE) != _device(request):
        response.set_cookie(
            DEVICE_COOKIE,
            _device(request),
            max_age=2 * 365 * 24 * 3600,
            samesite="Lax",
            httponly=True,
        )
    return response


def _is_director(request: HttpRequest, table: Table) -> bool:
    if request.user.is_superuser:
        return True
    membership = club_membership(club=table.stage.event.club, user=request.user)
    return bool(membership and membership.has_role(Role.DIRECTOR))


def _actor(request: HttpRequest, table: Table) -> Actor:
    return Actor(
        device=_device(request),
        seat=request.session.get(f"seat:{table.pk}"),
        user=request.user,
        is_director=_is_director(request, table),
    )


def _entry_context(request: HttpRequest, table: Table, **extra: Any) -> dict[str, Any]:
    sheet = table_sheet(table=table)
    actor = _actor(request, table)
    number = extra.get("number") or sheet.next_number
    return {
        "sheet": sheet,
        "table": table,
        "event": table.stage.event,
        "variant": sheet.variant,
        "actor": actor,
        "my_seat": next((s for s in sheet.seats if s.position == actor.seat), None),
        "number": number,
        "contract": contract_text(sheet.variant.contract(number).to_dict())
        if number and sheet.variant.is_contract_game and number <= len(sheet.variant.deals)
        else "",
        "dealer": sheet.dealer(number) if number else None,
        "request_id": uuid.uuid4().hex,
        "gin_endings": [
            ("knock", _("Knock")),
            ("romi", _("Römi")),
            ("void", _("Void: the stock ran out")),
        ],
        "special_hands": [
            ("royal", _("Royal flush")),
            ("piccolo", _("Piccolo")),
            ("colour_flush", _("Colour flush")),
            ("figure_flush", _("Figure flush")),
        ],
        "data": {},
        "errors": {},
        "expected_version": 0,
        **extra,
    }


def table_entry(request: HttpRequest, key: str) -> HttpResponse:
    table = _table(key)
    context = _entry_context(request, table)
    if context["actor"].seat is None and not context["actor"].is_director:
        return _with_device(request, render(request, "scoring/seat_pick.html", context))
    return _with_device(request, render(request, "scoring/table_entry.html", context))


def table_live(request: HttpRequest, key: str) -> HttpResponse:
    """The table's totals and deals waiting for confirmation, polled by every phone."""
    table = _table(key)
    return render(request, "scoring/_table_live.html", _entry_context(request, table))


@require_POST
def table_seat(request: HttpRequest, key: str) -> HttpResponse:
    table = _table(key)
    position = request.POST.get("seat", "")
    if position == "":
        # "Not you?": forget this phone's seat and ask again.
        request.session.pop(f"seat:{table.pk}", None)
        return redirect("table_entry", key=key)
    if not (
        position.isascii()
        and position.isdigit()
        and len(position) < 4
        and table.seats.filter(position=int(position)).exists()
    ):
        messages.error(request, _("Pick your seat from the list."))
        return redirect("table_entry", key=key)
    request.session[f"seat:{table.pk}"] = int(position)
    return _with_device(request, redirect("table_entry", key=key))


def _judge(request: HttpRequest, table: Table, seats: int) -> tuple[dict[str, Any], Any, Any]:
    """Read the posted entry and let the engine judge it: (entry, form, score or None)."""
    variant = table.stage.event.variant
    entry, form = entry_from_post(variant, seats, request.POST)
    score = None
    number = _posted_int(request, "number")
    if not form.errors:
        try:
            score = score_deal(variant, number, entry)
        except RuleViolation as error:
            form.add_error(field_for(error.field), violation_text(error))
    return entry, form, score


def _posted_int(request: HttpRequest, name: str) -> int:
    raw = request.POST.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 0


@require_POST
def table_check(request: HttpRequest, key: str) -> HttpResponse:
    """Live check while typing (htmx): the engine's verdict and the points, nothing saved."""
    table = _table(key)
    seats = list(table.seats.select_related("player").order_by("position"))
    _entry, form, score = _judge(request, table, len(seats))
    rows = (
        list(zip(seats, score.points, strict=True))
        if score and len(score.points) == len(seats)
        else []
    )
    context = {
        "errors": form.errors,
        "rows": rows,
        "score": score,
        "field_names": form.fields_on_page(),
    }
    return render(request, "scoring/_check.html", context)


@require_POST
def deal_save(request: HttpRequest, key: str, number: int) -> HttpResponse:
    table = _table(key)
    actor = _actor(request, table)
    if actor.seat is None and not actor.is_director:
        return redirect("table_entry", key=key)
    seats = table.seats.count()
    entry, form, _score = _judge(request, table, seats)
    expected = _posted_int(request, "expected_version")
    if not form.errors:
        try:
            deal_record(
                table=table,
                number=number,
                entry=entry,
                by=actor,
                expected_version=expected,
                request_id=request.POST.get("request_id", "")[:64] or uuid.uuid4().hex,
            )
        except StaleDeal as stale:
            return _stale(request, table, stale, number)
        except RuleViolation as error:
            form.add_error(field_for(error.field), violation_text(error))
    if form.errors:
        context = _entry_context(
            request,
            table,
            number=number,
            data=form.data,
            errors=form.errors,
            expected_version=expected,
            # A correction that failed stays a correction on the page.
            editing=Deal.objects.filter(table=table, number=number).first() if expected else None,
        )
        return _with_device(
            request, render(request, "scoring/table_entry.html", context, status=422)
        )
    messages.success(
        request,
        _("Deal %(number)d saved. Someone at another seat confirms it.") % {"number": number},
    )
    return _with_device(request, redirect("table_entry", key=key))


def _stale(request: HttpRequest, table: Table, stale: StaleDeal, number: int) -> HttpResponse:
    sheet = table_sheet(table=table)
    context = {
        "table": table,
        "sheet": sheet,
        "number": number,
        "current": stale.current,
        "confirming": stale.confirming,
        "current_rows": list(zip(sheet.seats, stale.current.points, strict=False))
        if stale.current
        else [],
        "attempted_rows": []
        if stale.confirming
        else _points_of(sheet, number, stale.attempted_entry),
    }
    return _with_device(request, render(request, "scoring/stale.html", context, status=409))


def _points_of(sheet: Any, number: int, entry: dict[str, Any]) -> list[tuple[Any, int]]:
    """What an entry that was not saved would have scored, to compare with the saved one."""
    try:
        points = score_deal(sheet.variant, number, entry).points
    except RuleViolation:
        return []
    return list(zip(sheet.seats, points, strict=False))


def deal_edit(request: HttpRequest, key: str, number: int) -> HttpResponse:
    table = _table(key)
    deal = get_object_or_404(Deal, table=table, number=number)
    variant = table.stage.event.variant
    context = _entry_context(
        request,
        table,
        number=number,
        data=post_from_entry(variant, deal.entry),
        expected_version=deal.version,
        editing=deal,
    )
    return _with_device(request, render(request, "scoring/table_entry.html", context))


@require_POST
def deal_confirm_view(request: HttpRequest, key: str, number: int) -> HttpResponse:
    table = _table(key)
    deal = get_object_or_404(Deal, table=table, number=number)
    actor = _actor(request, table)
    if actor.seat is None and not actor.is_director:
        return redirect("table_entry", key=key)
    try:
        deal_confirm(
            deal=deal,
            by=actor,
            expected_version=_posted_int(request, "expected_version"),
            request_id=request.POST.get("request_id", "")[:64] or uuid.uuid4().hex,
        )
    except StaleDeal as stale:
        return _stale(request, table, stale, number)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(request, _("Deal %(number)d confirmed.") % {"number": number})
    return _with_device(request, redirect("table_entry", key=key))


def table_qr(request: HttpRequest, key: str) -> HttpResponse:
    table = _table(key)
    qr = segno.make(request.build_absolute_uri(table.get_entry_url()), error="m")
    response = HttpResponse(qr.svg_inline(scale=6, border=2), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=300"
    return response


# -- public results -----------------------------------------------------------------------------


def _public_event(slug: str, event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), club__slug=slug, pk=event_id)


def event_public(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = _public_event(slug, event_id)
    return render(request, "scoring/event_public.html", _live_context(event))


def event_live(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The part of the public page that refreshes itself (htmx polling)."""
    event = _public_event(slug, event_id)
    return render(request, "scoring/_event_live.html", _live_context(event))


def _live_context(event: Event) -> dict[str, Any]:
    sheets = event_sheets(event=event)
    return {
        "event": event,
        "sheets": sheets,
        "ranking": event_ranking(event=event, sheets=sheets),
        "pending": any(sheet.unconfirmed for sheet in sheets),
    }


def table_history(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    from django.contrib.auth.views import redirect_to_login

    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    table = get_object_or_404(
        Table.objects.select_related("stage__event"),
        pk=table_id,
        stage__event_id=event_id,
        stage__event__club=club,
    )
    sheet = table_sheet(table=table)
    names = [seat.player.name for seat in sheet.seats]
    history = []
    for number, versions in sorted(deal_history(table=table).items()):
        lines = []
        for previous, version in zip([None, *versions], versions, strict=False):
            changes = entry_changes(previous.entry if previous else None, version.entry, names)
            if previous is not None and previous.status != version.status:
                changes.append(
                    (_("status"), previous.get_status_display(), version.get_status_display())
                )
            seat_name = (
                names[version.by_seat]
                if version.by_seat is not None and version.by_seat < len(names)
                else ""
            )
            lines.append((version, changes, seat_name))
        history.append((number, lines))
    return render(
        request,
        "scoring/table_history.html",
        {"table": table, "sheet": sheet, "history": history, "event": table.stage.event},
    )
