"""Writes for score entry: submit, correct, confirm and void a deal; claim a seat.

Every write locks the table row, and only that row (see `core.db` for the lock order), so
two phones saving the same table queue up while other tables save freely; each carries the
version it was based on, so the second of two clashing saves is refused instead of silently
overwriting the first. A save is judged in the context of the whole table: the engine
scores every deal with the new one in place before anything is written.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError
from django.utils import timezone

from core.db import locked_write
from rules import DealScore, RuleViolation, score_deal
from rules.i18n import _, ngettext
from scoring.headtohead import h2h_event_standings, is_head_to_head
from scoring.judge import deal_scores, judge_change
from scoring.models import Deal, DealAction, DealStatus, DealVersion, SeatClaim
from scoring.selectors import event_sheets
from scoring.series import series_options
from tournaments.changes import results_change
from tournaments.models import Event, EventFormat, EventStatus, Role, Stage, StageStatus, Table
from tournaments.permissions import club_allows


@dataclass(frozen=True)
class Actor:
    """Who is saving: a seat at the table on some device, and/or a signed-in person.

    Whether the person directs the club is never taken from the caller: the services ask
    `directs()`, from the user itself."""

    device: str
    seat: int | None = None
    user: User | AnonymousUser | None = None
    # When this device took its seat: a confirmation from a seat taken after the deal was
    # entered is flagged for the director.
    claimed_at: datetime.datetime | None = None


class StaleDeal(Exception):
    """The deal changed since the form was opened; nothing was saved.

    `confirming` tells a confirmation of an outdated version from a clashing entry: the
    person then only needs to look at the new version and confirm again.
    """

    def __init__(
        self, current: Deal | None, attempted_entry: dict[str, Any], *, confirming: bool = False
    ) -> None:
        super().__init__("stale deal")
        self.current = current
        self.attempted_entry = attempted_entry
        self.confirming = confirming


def directs(*, table: Table, by: Actor) -> bool:
    """Whether `by` is a director of the club whose table this is (or a site admin)."""
    return by.user is not None and club_allows(
        club=table.stage.event.club, user=by.user, role=Role.DIRECTOR
    )


class TableClosed(Exception):
    """The table no longer takes scores: its link was replaced, its stage redrawn, or its
    event finished. Nothing was saved; the page says to ask the director."""


def _locked_table(table: Table, correcting: Actor | None = None) -> Table:
    # The table row only (of=self): joining the stage and event must not lock them too, or
    # a save at one table would wait on a director's work on the event.
    locked = (
        Table.objects.select_for_update(of=("self",))
        .select_related("stage__event__club")
        .filter(pk=table.pk, entry_key=table.entry_key)
        .first()
    )
    if locked is None or locked.stage.event.status == EventStatus.FINISHED:
        raise TableClosed
    if locked.stage.status == StageStatus.CONFIRMED:
        return locked
    # A closed championship stage takes only the director's corrections: the manage page
    # then flags what would change, and nothing is re-seated by itself.
    if (
        correcting is not None
        and locked.stage.status == StageStatus.FINISHED
        and locked.stage.event.format == EventFormat.CHAMPIONSHIP
        and directs(table=locked, by=correcting)
    ):
        return locked
    raise TableClosed


def _replayed(deal: Deal | None, request_id: str) -> bool:
    return (
        deal is not None and DealVersion.objects.filter(deal=deal, request_id=request_id).exists()
    )


def _version_row(deal: Deal, action: str, by: Actor, request_id: str, **extra: Any) -> DealVersion:
    return DealVersion.objects.create(
        deal=deal,
        version=deal.version,
        action=action,
        entry=deal.entry,
        points=deal.points,
        status=deal.status,
        by_user=by.user if isinstance(by.user, User) else None,
        by_seat=by.seat,
        device=by.device,
        request_id=request_id,
        **extra,
    )


def deal_judge(
    *, table: Table, number: int, entry: dict[str, Any], deals: list[Deal] | None = None
) -> DealScore:
    """Score `entry` as deal `number` and the whole table with it in place.

    RuleViolation when the entry is wrong, or when the table could no longer be scored with
    it (a re-entry of a player still in, a deal after the game ended, a correction that
    makes a later deal impossible: the message names that deal). The live check and the
    save both call this, so the check never calls right what the save will refuse.
    """
    variant = table.stage.event.variant
    seats = table.seats.count()
    deals = list(Deal.objects.filter(table=table).order_by("number")) if deals is None else deals
    score = score_deal(variant, number, entry)
    if len(score.points) != seats:
        raise RuleViolation(
            _("The entry has %(given)d players but the table seats %(seats)d."),
            code="wrong_player_count",
            given=len(score.points),
            seats=seats,
        )
    judge_change(variant, seats, deal_scores(deals), number=number, score=score)
    return score


@locked_write
def deal_record(
    *,
    table: Table,
    number: int,
    entry: dict[str, Any],
    by: Actor,
    expected_version: int,
    request_id: str,
) -> Deal:
    """Submit a new deal (expected_version 0) or correct an existing one.

    The rules engine checks the entry in the context of the whole table (RuleViolation
    when it is wrong). A correction of a confirmed deal is a director's; the table may
    correct its own deal until it is confirmed, and enter a voided deal again. A repeated
    request (same request_id) returns the deal it already made.
    """
    table = _locked_table(table, correcting=by)
    variant = table.stage.event.variant
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    deal = next((d for d in deals if d.number == number), None)
    if deal is None and table.stage.status != StageStatus.CONFIRMED:
        # A closed stage's deals are corrected, never added to.
        raise TableClosed
    if deal is not None and _replayed(deal, request_id):
        return deal
    current_version = deal.version if deal else 0
    if current_version != expected_version:
        raise StaleDeal(deal, entry)
    director = directs(table=table, by=by)
    if deal is None:
        _check_next(deals, number)
    elif deal.is_confirmed and not director:
        raise RuleViolation(
            _("This deal is confirmed: only the director can correct it now."), code="deal_locked"
        )
    score = deal_judge(table=table, number=number, entry=entry, deals=deals)
    contract = variant.contract(number).to_dict() if variant.is_contract_game else None
    if deal is None:
        deal = Deal(table=table, number=number, contract=contract, version=0)
        action = DealAction.SUBMIT
    else:
        action = DealAction.CORRECT
    deal.entry = entry
    deal.points = list(score.points)
    deal.flags = score.flags
    deal.status = DealStatus.CONFIRMED if (director and deal.is_confirmed) else DealStatus.SUBMITTED
    deal.version += 1
    deal.submitted_seat = by.seat
    deal.submitted_device = by.device
    deal.save()
    _version_row(deal, action, by, request_id)
    if not table.has_scores:
        # Under this table's own lock: the draw of its stage now stands.
        Table.objects.filter(pk=table.pk).update(has_scores=True)
    results_change(event_id=table.stage.event_id, table_id=table.pk, reason="deal_saved")
    return deal


def _check_next(deals: list[Deal], number: int) -> None:
    """A new deal is the next one. (Whether the game is still on is the whole table's
    judgement, made by `deal_judge`.)"""
    last = deals[-1].number if deals else 0
    if number != last + 1:
        raise RuleViolation(
            _("The next deal at this table is deal %(next)d."), code="deal_order", next=last + 1
        )


def _pin_matches(table: Table, seat: int | None, pin: str | None) -> bool:
    if seat is None or pin is None:
        return False
    expected = table.seats.filter(position=seat).values_list("pin", flat=True).first()
    return expected is not None and pin is not None and secrets.compare_digest(expected, pin)


@locked_write
def deal_confirm(
    *, deal: Deal, by: Actor, expected_version: int, request_id: str, pin: str | None = None
) -> Deal:
    """A second person at the table confirms the deal as it stands.

    Refused from the seat or the device that submitted it, except for a director; when the
    event asks for it, the confirming player's PIN. A phone that took its seat only after
    the deal was entered may still confirm, but the confirmation is flagged.
    """
    table = _locked_table(deal.table)
    deal = Deal.objects.get(pk=deal.pk)
    if _replayed(deal, request_id):
        return deal
    if deal.version != expected_version:
        raise StaleDeal(deal, deal.entry, confirming=True)
    if deal.is_confirmed:
        return deal
    if deal.is_voided:
        raise RuleViolation(
            _("This deal was voided by the director: enter it again first."), code="deal_voided"
        )
    director = directs(table=table, by=by)
    refusal = confirm_refusal(deal=deal, by=by, director=director)
    if refusal is not None:
        raise refusal
    if (
        not director
        and table.stage.event.confirm_needs_pin
        and not _pin_matches(table, by.seat, pin)
    ):
        raise RuleViolation(
            _("That is not your PIN. It is printed next to your name on the seating list."),
            code="wrong_pin",
            field="pin",
        )
    deal.status = DealStatus.CONFIRMED
    deal.version += 1
    deal.save(update_fields=["status", "version", "updated_at"])
    results_change(event_id=table.stage.event_id, table_id=table.pk, reason="deal_confirmed")
    late = not director and by.claimed_at is not None and by.claimed_at > deal_entered_at(deal)
    _version_row(deal, DealAction.CONFIRM, by, request_id, claimed_after_submit=late)
    return deal


def deal_entered_at(deal: Deal) -> datetime.datetime:
    """When the version being confirmed was saved (the last submit or correction)."""
    entered = (
        DealVersion.objects.filter(deal=deal, action__in=[DealAction.SUBMIT, DealAction.CORRECT])
        .order_by("-version")
        .values_list("created_at", flat=True)
        .first()
    )
    return entered or deal.updated_at


def confirm_refusal(*, deal: Deal, by: Actor, director: bool | None = None) -> RuleViolation | None:
    """Why `by` may not confirm `deal`, or None: the one rule for the service and the page.
    (`director`: whether `by` directs the club, when the caller has asked already.)"""
    if directs(table=deal.table, by=by) if director is None else director:
        return None
    if by.seat is None:
        # A confirmation says who at the table vouches for the deal.
        return RuleViolation(
            _("Pick your seat before you confirm a deal."), code="confirm_needs_seat"
        )
    if by.seat == deal.submitted_seat:
        return RuleViolation(
            _("Someone at another seat must confirm: this seat entered the deal."),
            code="confirm_same_seat",
        )
    if by.device and by.device == deal.submitted_device:
        return RuleViolation(
            _("Confirm on another phone: this one entered the deal."),
            code="confirm_same_device",
        )
    return None


@locked_write
def deal_void(*, deal: Deal, by: Actor, note: str, request_id: str) -> Deal:
    """The director sets a deal aside: it keeps its history, leaves the scores, and its
    number is entered again at the table. Refused when the rest of the table could then no
    longer be scored (a later deal that depends on it), naming that deal."""
    table = _locked_table(deal.table)
    if not directs(table=table, by=by):
        raise RuleViolation(_("Only the director can void a deal."), code="void_not_director")
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    deal = next(d for d in deals if d.pk == deal.pk)
    if _replayed(deal, request_id) or deal.is_voided:
        return deal
    judge_change(
        table.stage.event.variant, table.seats.count(), deal_scores(deals), number=deal.number
    )
    deal.status = DealStatus.VOIDED
    deal.version += 1
    deal.save(update_fields=["status", "version", "updated_at"])
    _version_row(deal, DealAction.VOID, by, request_id, note=note[:200])
    results_change(event_id=table.stage.event_id, table_id=table.pk, reason="deal_voided")
    return deal


# -- who sits where ----------------------------------------------------------------------------


@locked_write
def seat_claim(*, table: Table, position: int, device: str) -> SeatClaim:
    """This phone speaks for seat `position`; it lets go of any other seat it held here.

    Refused while another phone holds the seat: that phone lets go ("Not you? Change seat"),
    or the director frees the seat.
    """
    table = _locked_table(table)
    if not table.seats.filter(position=position).exists():
        raise RuleViolation(_("Pick your seat from the list."), code="bad_seat", field="seat")
    holder = SeatClaim.objects.filter(table=table, position=position).first()
    if holder is not None and holder.device != device:
        raise RuleViolation(
            _(
                "This seat is taken on another phone. If that phone is not this player's, "
                "ask the director to free the seat."
            ),
            code="seat_taken",
            field="seat",
        )
    if holder is not None:
        return holder
    SeatClaim.objects.filter(table=table, device=device).delete()
    try:
        return SeatClaim.objects.create(table=table, position=position, device=device)
    except IntegrityError:  # pragma: no cover - the table lock makes this a race we never lose
        raise RuleViolation(_("Pick your seat from the list."), code="bad_seat") from None


def seat_release(*, table: Table, device: str | None = None, position: int | None = None) -> int:
    """Let a seat go: the phone's own ("Not you?"), or, for the director, seat `position`."""
    claims = SeatClaim.objects.filter(table=table)
    if device is not None:
        claims = claims.filter(device=device)
    if position is not None:
        claims = claims.filter(position=position)
    deleted, _rows = claims.delete()
    return deleted


# -- the event's end ----------------------------------------------------------------------------


def event_finish_refusal(*, event: Event) -> RuleViolation | None:
    """Why the event cannot be finished yet, or None: the one rule for the service and the
    manage page's button. Every table's game must be over, every deal confirmed, and no
    table waiting for the director."""
    if event.status == EventStatus.FINISHED:
        return RuleViolation(_("This event is already finished."), code="event_finished")
    refusal = _format_finish_refusal(event)
    if refusal is not None:
        return refusal
    sheets = event_sheets(event=event)
    if not sheets:
        return RuleViolation(_("No table has played yet."), code="event_not_started")
    for sheet in sheets:
        if sheet.problem is not None or not sheet.standing.finished or sheet.unconfirmed:
            return RuleViolation(
                _("Table %(number)d is still playing or has deals to confirm."),
                code="tables_playing",
                number=sheet.table.number,
            )
    return None


def _format_finish_refusal(event: Event) -> RuleViolation | None:
    """What the event's format still asks for before it can end: no stage left as a draw
    preview, a championship's champion crowned, a series' or Swiss's rounds all played."""
    stages = list(event.stages.order_by("number"))
    preview = next((stage for stage in stages if stage.status == StageStatus.PREVIEW), None)
    if preview is not None:
        return RuleViolation(
            _("Stage %(number)d is drawn but not seated: confirm its tables or draw it again."),
            code="stage_preview",
            number=preview.number,
        )
    if event.format == EventFormat.CHAMPIONSHIP:
        if not any((stage.outcome or {}).get("champion") for stage in stages):
            return RuleViolation(
                _("Close the championship's stages first: the final crowns the champion."),
                code="championship_open",
            )
        return None
    if event.format == EventFormat.SERIES:
        rounds = series_options(event)["rounds"]
    elif is_head_to_head(event):
        rounds = h2h_event_standings(event=event).state.total
    else:
        return None
    if len(stages) < rounds:
        return RuleViolation(
            ngettext(
                "Round %(number)d of %(rounds)d is still to be played.",
                "Rounds %(number)d to %(rounds)d are still to be played.",
                rounds - len(stages),
            ),
            code="rounds_left",
            number=len(stages) + 1,
            rounds=rounds,
        )
    return None


@locked_write
def event_finish(*, event: Event) -> Event:
    """Close the event: its results stand and its tables' links stop taking scores."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    refusal = event_finish_refusal(event=event)
    if refusal is not None:
        raise refusal
    Stage.objects.filter(event=event, status=StageStatus.CONFIRMED).update(
        status=StageStatus.FINISHED
    )
    event.status = EventStatus.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    results_change(event_id=event.pk, reason="event_finished")
    return event
