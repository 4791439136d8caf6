"""Writes for score entry: submit, correct, confirm and void a deal; claim a seat.

Every write locks the table row, and only that row (see `core.db` for the lock order), so
two phones saving the same table queue up while other tables save freely; each carries the
version it was based on, so the second of two clashing saves is refused instead of silently
overwriting the first. A save is judged in the context of the whole table: the engine
scores every deal with the new one in place before anything is written.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError

from core.db import Refusal, locked_write
from rules import DealScore, RuleViolation, score_deal
from rules.i18n import _
from scoring.confirmation import (
    Actor,
    ConfirmVerdict,
    Maker,
    confirm_verdict,
    deal_makers,
    entry_flag,
    pin_refusal,
)
from scoring.judge import deal_scores, judge_change
from scoring.models import (
    ConfirmFlag,
    Deal,
    DealAction,
    DealStatus,
    DealVersion,
    PinAttempt,
    PinOutcome,
    SeatClaim,
)
from tournaments.changes import results_change
from tournaments.models import EventStatus, Role, StageStatus, Table
from tournaments.permissions import club_allows


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


def _scores(*, table: Table, by: Actor) -> bool:
    """Whether `by` is signed in as one of the club's scorers (or stronger)."""
    return (
        by.user is not None
        and by.user.is_authenticated
        and club_allows(club=table.stage.event.club, user=by.user, role=Role.SCORER)
    )


class TableClosed(Exception):
    """The table no longer takes scores: its link was replaced, its stage redrawn, or its
    event finished. Nothing was saved; the page says to ask the director."""


def _locked_table(table: Table, correcting: Actor | None = None) -> Table:
    # The table row only (of=self): joining the stage and event must not lock them too, or
    # a save at one table would wait on a director's work on the event.
    locked = (
        Table.everything.select_for_update(of=("self",))
        .select_related("stage__event__club")
        .filter(pk=table.pk, entry_key=table.entry_key)
        .first()
    )
    if locked is None or locked.stage.event.status == EventStatus.FINISHED:
        raise TableClosed
    if locked.stage.status == StageStatus.CONFIRMED:
        return locked
    # A closed stage of a format that corrects them (a championship's) takes only the
    # director's corrections: the manage page then flags what would change, and nothing is
    # re-seated by itself.
    if (
        correcting is not None
        and locked.stage.status == StageStatus.FINISHED
        and locked.stage.event.spec.corrects_closed_stages
        and directs(table=locked, by=correcting)
    ):
        return locked
    raise TableClosed


def _replayed(deal: Deal | None, request_id: str) -> bool:
    return (
        deal is not None and DealVersion.objects.filter(deal=deal, request_id=request_id).exists()
    )


def _first_save(deal: Deal, request_id: str) -> DealVersion | None:
    """The version a request already made (a double tap, a retry, the offline queue sent
    twice), if any."""
    return DealVersion.objects.filter(deal=deal, request_id=request_id).order_by("pk").first()


def _same_entry(stored: Any, sent: dict[str, Any]) -> bool:
    # The stored entry went through JSON (tuples became lists, keys strings): compare so.
    encode = functools.partial(json.dumps, sort_keys=True, cls=DjangoJSONEncoder)
    return bool(encode(stored) == encode(sent))


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
    *,
    table: Table,
    number: int,
    entry: dict[str, Any],
    deals: list[Deal] | None = None,
    seats: int | None = None,
) -> DealScore:
    """Score `entry` as deal `number` and the whole table with it in place.

    RuleViolation when the entry is wrong, or when the table could no longer be scored with
    it (a re-entry of a player still in, a deal after the game ended, a correction that
    makes a later deal impossible: the message names that deal). The live check and the
    save both call this, so the check never calls right what the save will refuse.
    `deals`, `seats` (how many): as the caller read them already.
    """
    variant = table.variant
    seats = table.seats.count() if seats is None else seats
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
    reason: str = "",
) -> Deal:
    """Submit a new deal (expected_version 0) or correct an existing one (`reason`: why,
    kept on the correction's history row).

    The rules engine checks the entry in the context of the whole table (RuleViolation
    when it is wrong). A correction of a confirmed deal is a director's; the table may
    correct its own deal until it is confirmed, and enter a voided deal again. A repeated
    request (same request_id) returns the deal it already made. When the event asks for
    PINs, only a seat taken with its PIN enters; a correction from a seat taken after the
    deal was first entered is flagged (scoring.confirmation).
    """
    table = _locked_table(table, correcting=by)
    variant = table.variant
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    deal = next((d for d in deals if d.number == number), None)
    if deal is None and table.stage.status != StageStatus.CONFIRMED:
        # A closed stage's deals are corrected, never added to.
        raise TableClosed
    if deal is not None and (first := _first_save(deal, request_id)) is not None:
        if _same_entry(first.entry, entry):
            return deal
        # The same request with other points is no double tap: kept as it was, it would be
        # told "saved" and thrown away. Both versions go to the conflict screen.
        raise StaleDeal(deal, entry)
    current_version = deal.version if deal else 0
    if current_version != expected_version:
        raise StaleDeal(deal, entry)
    director = directs(table=table, by=by)
    if not director and table.stage.event.confirm_needs_pin and not by.pin_given:
        raise RuleViolation(
            _("Take your seat again with your PIN: this phone took it without."),
            code="seat_without_pin",
        )
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
        action, flag = DealAction.SUBMIT, str(ConfirmFlag.NONE)
    else:
        action = DealAction.CORRECT
        flag = entry_flag(by=by, makers=deal_makers([deal]).get(deal.pk, []), director=director)
    deal.entry = entry
    deal.points = list(score.points)
    deal.flags = score.flags
    deal.status = DealStatus.CONFIRMED if (director and deal.is_confirmed) else DealStatus.SUBMITTED
    deal.version += 1
    deal.submitted_seat = by.seat
    deal.submitted_device = by.device
    deal.save()
    note = reason[:200] if action == DealAction.CORRECT else ""
    _version_row(deal, action, by, request_id, flag=flag, note=note)
    # Under this table's own lock, in its one write of the table's row: the draw of its
    # stage now stands (has_scores).
    results_change(
        event_id=table.stage.event_id,
        table_id=table.pk,
        reason="deal_saved",
        table=table,
        has_scores=True,
    )
    return deal


def _check_next(deals: list[Deal], number: int) -> None:
    """A new deal is the next one. (Whether the game is still on is the whole table's
    judgement, made by `deal_judge`.)"""
    last = deals[-1].number if deals else 0
    if number != last + 1:
        raise RuleViolation(
            _("The next deal at this table is deal %(next)d."), code="deal_order", next=last + 1
        )


@locked_write
def deal_confirm(
    *, deal: Deal, by: Actor, expected_version: int, request_id: str, pin: str | None = None
) -> Deal | Refusal:
    """A second person at the table confirms the deal as it stands: the rule of
    scoring.confirmation decides who may, and what the director is to look at. When the
    event asks for it, the confirming player's PIN too (a wrong one is counted, and a few
    lock the seat's PIN)."""
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
    verdict = deal_confirm_verdict(deal=deal, table=table, by=by, director=director)
    if verdict.refusal is not None:
        raise verdict.refusal
    if not director and table.stage.event.confirm_needs_pin:
        assert by.seat is not None  # the verdict refuses a confirmation from no seat
        wrong = pin_refusal(table=table, position=by.seat, pin=pin, device=by.device)
        if wrong is not None:
            return Refusal(wrong)  # committed: the try counts
    deal.status = DealStatus.CONFIRMED
    deal.version += 1
    deal.save(update_fields=["status", "version", "updated_at"])
    results_change(
        event_id=table.stage.event_id, table_id=table.pk, reason="deal_confirmed", table=table
    )
    _version_row(deal, DealAction.CONFIRM, by, request_id, flag=verdict.flag)
    return deal


def deal_confirm_verdict(
    *,
    deal: Deal,
    table: Table,
    by: Actor,
    director: bool | None = None,
    makers: dict[int, list[Maker]] | None = None,
) -> ConfirmVerdict:
    """Whether `by` may confirm `deal` (of `table`, loaded with its event and club), and
    what is flagged if so: the one rule for the service and the page. (`director`: whether
    `by` directs the club, when the caller has asked already; `makers`: `deal_makers` of
    the page's deals, read once for all.)"""
    event = table.stage.event
    found = makers if makers is not None else deal_makers([deal])
    director = directs(table=table, by=by) if director is None else director
    return confirm_verdict(
        by=by,
        makers=found.get(deal.pk, []),
        director=director,
        scorer=director or _scores(table=table, by=by),
        needs_pin=event.confirm_needs_pin,
        directors_alone=event.club.directors_confirm_alone,
    )


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
    judge_change(table.variant, table.seats.count(), deal_scores(deals), number=deal.number)
    deal.status = DealStatus.VOIDED
    deal.version += 1
    deal.save(update_fields=["status", "version", "updated_at"])
    _version_row(deal, DealAction.VOID, by, request_id, note=note[:200])
    results_change(event_id=table.stage.event_id, table_id=table.pk, reason="deal_voided")
    return deal


# -- who sits where ----------------------------------------------------------------------------


@locked_write
def seat_claim(
    *, table: Table, position: int, device: str, pin: str | None = None, by: Actor | None = None
) -> SeatClaim | Refusal:
    """This phone speaks for seat `position`; it lets go of any other seat it held here.

    Refused while another phone holds the seat: that phone lets go ("Not you? Change seat"),
    or the director frees the seat. When the event asks for PINs, the seat's PIN is needed
    (a wrong one is counted, and a few lock the seat's PIN), unless `by` directs the club:
    the director may seat a phone without it.
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
    director = by is not None and directs(table=table, by=by)
    needs_pin = table.stage.event.confirm_needs_pin and not director
    if needs_pin:
        wrong = pin_refusal(table=table, position=position, pin=pin, device=device)
        if wrong is not None:
            return Refusal(wrong)  # committed: the try counts
    SeatClaim.objects.filter(table=table, device=device).delete()
    try:
        return SeatClaim.objects.create(
            table=table,
            position=position,
            device=device,
            pin_given=needs_pin or director,
            seated_by=by.user
            if director and by is not None and isinstance(by.user, User)
            else None,
        )
    except IntegrityError:  # pragma: no cover - the table lock makes this a race we never lose
        raise RuleViolation(_("Pick your seat from the list."), code="bad_seat") from None


@locked_write
def seat_pin_unlock(*, table: Table, position: int, by: User | AnonymousUser) -> None:
    """The director unlocks a seat's PIN after too many wrong tries (the tries stay listed)."""
    table = _locked_table(table)
    if not club_allows(club=table.stage.event.club, user=by, role=Role.DIRECTOR):
        raise RuleViolation(_("Only the director can unlock a PIN."), code="unlock_not_director")
    PinAttempt.objects.create(
        table=table,
        position=position,
        outcome=PinOutcome.UNLOCKED,
        by_user=by if isinstance(by, User) else None,
    )


def seat_release(
    *,
    table: Table,
    device: str | None = None,
    position: int | None = None,
    confirmed: bool = False,
) -> int:
    """Let a seat go: the phone's own ("Not you?"), or, for the director, seat `position`
    once they confirmed it (the phone at that seat is cut off mid-evening)."""
    if position is not None and not confirmed:
        raise RuleViolation(_("Confirm freeing the seat first."), code="not_confirmed")
    claims = SeatClaim.objects.filter(table=table)
    if device is not None:
        claims = claims.filter(device=device)
    if position is not None:
        claims = claims.filter(position=position)
    deleted, _rows = claims.delete()
    return deleted
