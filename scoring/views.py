"""Score entry at the table (no account: the table's private link)."""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable
from typing import Any

import segno
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.conditional import cache_get_many, if_none_match
from core.ratelimit import rate_limit
from core.views import no_index
from rules import RuleViolation, score_deal
from scoring.confirmation import Actor, deal_makers
from scoring.devices import device_of, with_device
from scoring.families import DealEntry
from scoring.forms import ConfirmForm, DealMetaForm, SeatForm
from scoring.i18n import contract_text, violation_text
from scoring.link_gone import link_gone
from scoring.models import Deal, SeatClaim
from scoring.polls import poll_from_cache, table_not_modified, table_tag
from scoring.public_cache import (
    table_keys,
    table_versions,
)
from scoring.selectors import (
    open_table,
    recorded_requests,
    seat_claim_of,
    table_names,
    table_sheet,
)
from scoring.services import (
    StaleDeal,
    TableClosed,
    deal_confirm,
    deal_confirm_verdict,
    deal_judge,
    deal_record,
    directs,
    seat_claim,
    seat_release,
)
from tournaments.event_formats import format_ids
from tournaments.models import EventStatus, StageStatus, Table


def table_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page of the table's private link: the key is the permission, nothing is cached, and
    a link that no longer works (replaced, its stage redrawn, its event finished) answers
    with a page that says so instead of a bare 404."""
    return _table_page(view, closed_stage=False)


def correction_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A table page that the club's director (signed in; never a phone) may also open on a
    closed championship stage, to correct one of its deals."""
    return _table_page(view, closed_stage=True)


def _table_page(
    view: Callable[..., HttpResponse], *, closed_stage: bool
) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    @no_index
    @never_cache
    def wrapper(request: HttpRequest, key: str, **kwargs: Any) -> HttpResponse:
        table = open_table(key=key)
        if table is None and closed_stage:
            table = _closed_stage_table(key, request)
        if table is None:
            return link_gone(request, key)
        try:
            response = view(request, table, **kwargs)
        except TableClosed:
            return link_gone(request, key)
        return with_device(request, response)

    return wrapper


def _closed_stage_table(key: str, request: HttpRequest) -> Table | None:
    # Only asked once the link is closed: the director's own pages reach it, phones never.
    if not request.user.is_authenticated:
        return None
    table = (
        Table.everything.select_related("stage__event__club")
        .filter(
            entry_key=key,
            stage__status=StageStatus.FINISHED,
            stage__event__format__in=format_ids(corrects_closed_stages=True),
        )
        .exclude(stage__event__status=EventStatus.FINISHED)
        .first()
    )
    if table is None or not directs(table=table, by=Actor(device="", user=request.user)):
        return None
    return table


def _visitor(request: HttpRequest, table: Table) -> tuple[Actor, bool]:
    """Who is at the table (the seat this phone holds, the signed-in person) and whether they
    direct the club; worked out once per request."""
    cached = request.__dict__.get("_lappu_visitor")
    if cached is None:
        claim = seat_claim_of(table=table, device=device_of(request))
        actor = Actor(
            device=device_of(request),
            seat=claim.position if claim else None,
            user=request.user,
            claimed_at=claim.claimed_at if claim else None,
            pin_given=bool(claim and claim.pin_given),
        )
        cached = request.__dict__["_lappu_visitor"] = (actor, directs(table=table, by=actor))
    return cached


def _actor(request: HttpRequest, table: Table) -> Actor:
    return _visitor(request, table)[0]


def _may_enter(request: HttpRequest, table: Table) -> bool:
    """A phone that has taken a seat, or the club's director, may enter and confirm."""
    actor, director = _visitor(request, table)
    return actor.seat is not None or director


def _entry_context(
    request: HttpRequest,
    table: Table,
    *,
    entry: DealEntry | None = None,
    stored: dict[str, Any] | None = None,
    expected_version: int = 0,
    reason: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """The entry page's context: `_live_context` and the deal's forms (`entry` as posted,
    else blank or showing the `stored` entry of a correction)."""
    context = _live_context(request, table)
    sheet = context["sheet"]
    # While a deal waits for confirmation the table confirms or corrects it; only the phone
    # correcting a deal gets a form (the next deal's would lead into the conflict screen).
    waiting = bool(sheet.unconfirmed) and "number" not in extra
    number = extra.get("number") or (None if waiting else sheet.next_number)
    variant = sheet.variant
    return {
        **context,
        "variant": variant,
        "my_seat": next((s for s in sheet.seats if s.position == context["actor"].seat), None),
        "number": number,
        "waiting": waiting,
        **_heading(sheet, number),
        "entry": entry or DealEntry(variant, sheet.seats, stored=stored),
        "blank": entry is None and stored is None,
        "meta": DealMetaForm.for_page(
            number=number, expected_version=expected_version, reason=reason
        ),
        **extra,
    }


def _live_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    """What the polled part shows (scoring/_table_live.html): the sheet, who is here, the
    deals waiting for confirmation; no forms, which the poll never shows and which cost
    most of building a page. `table` is the one the request's link loaded (its stage,
    event and club with it), not read again."""
    sheet = table_sheet(table=table, reload=False)
    actor, director = _visitor(request, table)
    return {
        "sheet": sheet,
        "names": [seat.player.name for seat in sheet.seats],
        "table": table,
        "event": table.stage.event,
        "actor": actor,
        "is_director": director,
        "pending": _pending(table, sheet.unconfirmed, actor, director),
    }


def _heading(sheet: Any, number: int | None) -> dict[str, Any]:
    """What the page says above deal `number`'s form: its contract and who deals."""
    variant = sheet.variant
    contract = number is not None and variant.is_contract_game and number <= len(variant.deals)
    return {
        "number": number,
        "contract": contract_text(variant.contract(number).to_dict()) if contract else "",
        "dealer": sheet.dealer(number) if number else None,
    }


# How many deals ahead a page carries the headings of, for a phone entering them offline.
OFFLINE_AHEAD = 8


def _page_context(request: HttpRequest, table: Table, **kwargs: Any) -> dict[str, Any]:
    """The entry page's whole context: `_entry_context` and what the page's offline queue
    needs (static/js/offline.js): the request ids of this phone's saves that landed, and
    the headings of the next deals, which a phone with no network enters one after another."""
    context = _entry_context(request, table, **kwargs)
    number, sheet = context["number"], context["sheet"]
    ahead = []
    if number and not context.get("editing"):
        last = (
            len(sheet.variant.deals) if sheet.variant.is_contract_game else number + OFFLINE_AHEAD
        )
        ahead = [
            _heading(sheet, n) for n in range(number + 1, min(last, number + OFFLINE_AHEAD) + 1)
        ]
    recorded = recorded_requests(table=table, device=device_of(request))
    return {**context, "ahead": ahead, "recorded": " ".join(recorded)}


def _pending(
    table: Table, deals: list[Deal], actor: Actor, director: bool
) -> list[tuple[Deal, RuleViolation | None]]:
    """Each deal waiting for confirmation, with why this phone may not confirm it (None: it
    may), by the confirm service's own rule."""
    makers = deal_makers(deals)
    return [
        (
            deal,
            deal_confirm_verdict(
                deal=deal, table=table, by=actor, director=director, makers=makers
            ).refusal,
        )
        for deal in deals
    ]


@correction_page
def table_entry(request: HttpRequest, table: Table) -> HttpResponse:
    return _table_answer(request, table)


# The page's own script asks for (and sends its saves, confirmations and seat claims with) this
# header, and is answered the page's main part (scoring/_table_main.html) instead of a
# redirect to the whole page: static/js/offline.js swaps it in. The answer says what it is
# in the same header: "sent" (recorded; the offline queue counts it sent, as it counts a
# redirect), "refused" (the entry with its errors) or "page".
PART_HEADER = "X-Lappu-Part"


def _wants_part(request: HttpRequest) -> bool:
    return request.headers.get(PART_HEADER) == "1"


def _back_to_table(
    request: HttpRequest, table: Table, *, seat_changed: bool = False
) -> HttpResponse:
    """After a save, confirmation or seat claim: a plain form is redirected to the table's
    page; the page's script is answered its main part as it now is, in the same request.
    `seat_changed`: this phone's seat may have changed (a claim), so it is read again."""
    if not _wants_part(request):
        return redirect("table_entry", key=table.entry_key)
    if seat_changed:
        request.__dict__.pop("_lappu_visitor", None)
    return _table_answer(request, table, kind="sent")


def _table_answer(
    request: HttpRequest, table: Table, *, kind: str = "page", status: int = 200, **kwargs: Any
) -> HttpResponse:
    """The table's page, or its main part when the page's script asks: the seat pick for a
    phone without a seat, else the entry page (`kwargs`: a refused entry's or a correction's)."""
    part = _wants_part(request)
    if not _may_enter(request, table):
        context = _entry_context(request, table)
        claimed = set(SeatClaim.objects.filter(table=table).values_list("position", flat=True))
        template = "scoring/_seat_main.html" if part else "scoring/seat_pick.html"
        context = {**context, "claimed": claimed}
    else:
        # The versions are read before the page is built, as the poll's are: the page's first
        # poll is then a 304 unless something changed meanwhile, and its parts that every
        # phone at the table shares are cached for that version.
        versions = _versions(table)
        context = {
            **_page_context(request, table, **kwargs),
            "poll_tag": _live_tag(request, table, versions) if not kwargs else None,
            "fragments": _fragments(table, versions),
        }
        context["blank_fields"] = context["fragments"] and _blank_fields(context["sheet"])
        template = "scoring/_table_main.html" if part else "scoring/table_entry.html"
    response = render(request, template, {**context, "part": part}, status=status)
    if part:
        response[PART_HEADER] = kind
    patch_vary_headers(response, (PART_HEADER,))
    return response


@no_index
def table_live(request: HttpRequest, key: str) -> HttpResponse:
    """The table's totals and deals waiting for confirmation, polled by every phone every few
    seconds: 304 from one cache read while nothing changed for this phone (this table's
    deals and seats, what concerns every table), before the link or the rate limit is
    looked at; once its stage is closed, the notice saying so from that same read."""
    return poll_from_cache(request, key) or _table_live(request, key=key)


@correction_page
@rate_limit(scope="table_live")
def _table_live(request: HttpRequest, table: Table) -> HttpResponse:
    # The versions are read before the page is, so a change made meanwhile is seen next time.
    versions = _versions(table)
    tag = _live_tag(request, table, versions)
    if tag is not None and tag in if_none_match(request):
        return table_not_modified(tag)  # the link works and nothing changed: nothing to build
    context = {**_live_context(request, table), "fragments": _fragments(table, versions)}
    response = render(request, "scoring/_table_live.html", context)
    if tag is not None:
        response["ETag"] = tag
    return response


def _versions(table: Table) -> tuple[str, str] | None:
    """The table's versions now (`table_versions`); None: the cache cannot be read."""
    event_id = table.stage.event_id
    found = cache_get_many(table_keys(event_id, table.pk))
    return table_versions(event_id, table.pk, found, event=table.stage.event)


def _live_tag(request: HttpRequest, table: Table, versions: tuple[str, str] | None) -> str | None:
    """The ETag of the table's live part as this phone is shown it now."""
    ids = (table.stage.event_id, table.stage.number, table.pk)
    return table_tag(request, table.entry_key, ids, versions)


def _fragments(table: Table, versions: tuple[str, str] | None) -> str:
    """What the page's cached parts (its totals, a waiting deal as entered) are keyed by:
    the table, its versions and the page's language; "" (nothing cached) without versions."""
    return "" if versions is None else ".".join((str(table.pk), *versions, get_language()))


def _blank_fields(sheet: Any) -> str:
    """What a blank deal's fields depend on: the game as the event plays it, the seats and
    who sits there, the language (not the deal's number, nor the deals before it), so the
    next deal's form is built once per table and evening, not once per deal."""
    seats = [(seat.position, seat.player_id, seat.player.name) for seat in sheet.seats]
    text = repr((sheet.table.pk, sheet.variant, seats, get_language()))
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


@require_POST
@table_page
@rate_limit(scope="table_write")
def table_seat(request: HttpRequest, table: Table) -> HttpResponse:
    form = SeatForm(request.POST)
    if not form.is_valid():
        error = form.errors.get("pin") or [_("Pick your seat from the list.")]
        messages.error(request, str(error[0]))
    elif form.cleaned_data["seat"] is None:
        # "Not you?": this phone lets its seat go and asks again.
        seat_release(table=table, device=device_of(request))
    else:
        try:
            seat_claim(
                table=table,
                position=form.cleaned_data["seat"],
                device=device_of(request),
                pin=form.cleaned_data["pin"] or None,
                by=_actor(request, table),
            )
        except RuleViolation as error:
            messages.error(request, violation_text(error, table_names(table)))
    return _back_to_table(request, table, seat_changed=True)


def _posted_entry(request: HttpRequest, table: Table) -> tuple[DealEntry, DealMetaForm]:
    """The posted deal's forms, and the form saying which save this is."""
    seats = list(table.seats.select_related("player").order_by("position"))
    meta = DealMetaForm(request.POST)
    meta.is_valid()
    return DealEntry(table.variant, seats, data=request.POST), meta


@require_POST
@correction_page
@rate_limit(scope="table_check")
def table_check(request: HttpRequest, table: Table) -> HttpResponse:
    """Live check while typing (htmx): the engine's verdict and the points, nothing saved."""
    entry, meta = _posted_entry(request, table)
    score = None
    if entry.is_valid():
        try:
            score = deal_judge(
                table=table,
                number=meta.deal_number,
                entry=entry.to_entry(),
                seats=len(entry.seats),
            )
        except RuleViolation as error:
            entry.add_violation(error)
    rows = (
        list(zip(entry.seats, score.points, strict=True))
        if score and len(score.points) == len(entry.seats)
        else []
    )
    return render(request, "scoring/_check.html", {"entry": entry, "rows": rows, "score": score})


@require_POST
@correction_page
@rate_limit(scope="table_write")
def deal_save(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    if not _may_enter(request, table):
        return _back_to_table(request, table)
    actor = _actor(request, table)
    entry, meta = _posted_entry(request, table)
    if not entry.is_valid():
        return _entry_refused(request, table, number, entry, meta)
    try:
        deal = deal_record(table=table, number=number, entry=entry.to_entry(), by=actor,
                           expected_version=meta.base_version, request_id=meta.save_id,
                           reason=meta.correction_reason)  # fmt: skip
    except StaleDeal as stale:
        return _stale(request, table, stale, number)
    except RuleViolation as error:
        entry.add_violation(error)
        return _entry_refused(request, table, number, entry, meta)
    return _saved(request, table, deal)


def _saved(request: HttpRequest, table: Table, deal: Deal) -> HttpResponse:
    if deal.is_confirmed:
        # Only the director corrects a confirmed deal, and it stays confirmed.
        text = _("Deal %(number)d corrected by the director. It stays confirmed.")
    else:
        text = _("Deal %(number)d saved. Someone at another seat confirms it.")
    messages.success(request, text % {"number": deal.number})
    return _back_to_table(request, table)


def _entry_refused(
    request: HttpRequest, table: Table, number: int, entry: DealEntry, meta: DealMetaForm
) -> HttpResponse:
    """The entry page again, with what was typed and each error next to its field."""
    # A correction that failed stays a correction on the page.
    editing = Deal.objects.filter(table=table, number=number).first() if meta.base_version else None
    return _table_answer(
        request,
        table,
        kind="refused",
        status=422,
        number=number,
        entry=entry,
        expected_version=meta.base_version,
        editing=editing,
        reason=meta.correction_reason,  # what was typed stays, as the entry does
        page_kind="refused",
    )


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
    return render(request, "scoring/stale.html", context, status=409)


def _points_of(sheet: Any, number: int, entry: dict[str, Any]) -> list[tuple[Any, int]]:
    """What an entry that was not saved would have scored, to compare with the saved one."""
    try:
        points = score_deal(sheet.variant, number, entry).points
    except RuleViolation:
        return []
    return list(zip(sheet.seats, points, strict=False))


@correction_page
def deal_edit(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    deal = get_object_or_404(Deal, table=table, number=number)
    context = _page_context(
        request,
        table,
        number=number,
        stored=deal.entry if isinstance(deal.entry, dict) else None,
        expected_version=deal.version,
        editing=deal,
    )
    return render(request, "scoring/table_entry.html", context)


@require_POST
@table_page
@rate_limit(scope="table_write")
def deal_confirm_view(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    # Through the table's own manager: the deal comes with its table, not read again.
    deal = get_object_or_404(table.deals, number=number)
    if not _may_enter(request, table):
        return _back_to_table(request, table)
    actor = _actor(request, table)
    form = ConfirmForm(request.POST)
    form.is_valid()
    try:
        deal_confirm(deal=deal, by=actor, expected_version=form.base_version,
                     request_id=form.save_id, pin=form.cleaned_data.get("pin") or None)  # fmt: skip
    except StaleDeal as stale:
        return _stale(request, table, stale, number)
    except RuleViolation as error:
        messages.error(request, violation_text(error, table_names(table)))
    else:
        messages.success(request, _("Deal %(number)d confirmed.") % {"number": number})
    return _back_to_table(request, table)


@no_index
def table_qr(request: HttpRequest, key: str) -> HttpResponse:
    table = open_table(key=key)
    if table is None:
        raise Http404
    qr = segno.make(request.build_absolute_uri(table.get_entry_url()), error="m")
    # A file of its own, with its namespace: the inline form (for inside an HTML page)
    # leaves it out, and a browser then shows an <img> of it as a broken picture.
    svg = io.BytesIO()
    qr.save(svg, kind="svg", scale=6, border=2)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=300"
    return response
