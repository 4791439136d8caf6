"""Writes for score entry: submit, correct and confirm a deal. Each keeps its history.

Every write locks the table row first, so two phones saving the same table queue up, and
carries the version it was based on, so the second of them is refused instead of silently
overwriting the first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from rules import DealScore, RuleViolation, score_deal, table_standing
from rules.i18n import _
from scoring.models import Deal, DealAction, DealStatus, DealVersion
from tournaments.models import Table


@dataclass(frozen=True)
class Actor:
    """Who is saving: a seat at the table on some device, and/or a signed-in person."""

    device: str
    seat: int | None = None
    user: AbstractBaseUser | None = None
    is_director: bool = False


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


def _locked_table(table: Table) -> Table:
    # One lock per table: cheap, and exactly the unit two people at one table contend for.
    return Table.objects.select_for_update().select_related("stage__event").get(pk=table.pk)


def _replayed(deal: Deal | None, request_id: str) -> bool:
    return (
        deal is not None and DealVersion.objects.filter(deal=deal, request_id=request_id).exists()
    )


def _version_row(deal: Deal, action: str, by: Actor, request_id: str) -> DealVersion:
    return DealVersion.objects.create(
        deal=deal,
        version=deal.version,
        action=action,
        entry=deal.entry,
        points=deal.points,
        status=deal.status,
        by_user=by.user if by.user is not None and by.user.is_authenticated else None,
        by_seat=by.seat,
        device=by.device,
        request_id=request_id,
    )


@transaction.atomic
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

    The rules engine checks the entry (RuleViolation when it is wrong). A correction of a
    confirmed deal is a director's; the table may correct its own deal until it is confirmed.
    A repeated request (same request_id) returns the deal it already made.
    """
    table = _locked_table(table)
    variant = table.stage.event.variant
    seats = table.seats.count()
    deal = Deal.objects.filter(table=table, number=number).first()
    if _replayed(deal, request_id):
        return deal
    current_version = deal.version if deal else 0
    if current_version != expected_version:
        raise StaleDeal(deal, entry)
    _check_number(table=table, number=number, variant=variant, seats=seats, is_new=deal is None)
    if deal is not None and deal.is_confirmed and not by.is_director:
        raise RuleViolation(
            _("This deal is confirmed: only the director can correct it now."), code="deal_locked"
        )
    score = score_deal(variant, number, entry)
    if len(score.points) != seats:
        raise RuleViolation(
            _("The entry has %(given)d players but the table seats %(seats)d."),
            code="wrong_player_count",
            given=len(score.points),
            seats=seats,
        )
    contract = variant.contract(number).to_dict() if variant.is_contract_game else None
    if deal is None:
        deal = Deal(table=table, number=number, contract=contract, version=0)
        action = DealAction.SUBMIT
    else:
        action = DealAction.CORRECT
    deal.entry = entry
    deal.points = list(score.points)
    deal.flags = score.flags
    deal.status = (
        DealStatus.CONFIRMED if (by.is_director and deal.is_confirmed) else DealStatus.SUBMITTED
    )
    deal.version += 1
    deal.submitted_seat = by.seat
    deal.submitted_device = by.device
    deal.save()
    _version_row(deal, action, by, request_id)
    return deal


def _check_number(*, table: Table, number: int, variant: Any, seats: int, is_new: bool) -> None:
    """A new deal is the next one, and only while the table's game is still on."""
    if not is_new:
        return
    played = list(
        Deal.objects.filter(table=table).order_by("number").values_list("number", "points", "flags")
    )
    last = played[-1][0] if played else 0
    if number != last + 1:
        raise RuleViolation(
            _("The next deal at this table is deal %(next)d."), code="deal_order", next=last + 1
        )
    scores = [DealScore(points=tuple(points), flags=dict(flags)) for _n, points, flags in played]
    if table_standing(variant, seats, scores).finished:
        raise RuleViolation(_("This table's game is over: no more deals."), code="game_over")


@transaction.atomic
def deal_confirm(*, deal: Deal, by: Actor, expected_version: int, request_id: str) -> Deal:
    """A second person at the table confirms the deal as it stands.

    Refused from the seat or the device that submitted it, except for a director.
    """
    _locked_table(deal.table)
    deal = Deal.objects.get(pk=deal.pk)
    if _replayed(deal, request_id):
        return deal
    if deal.version != expected_version:
        raise StaleDeal(deal, deal.entry, confirming=True)
    if deal.is_confirmed:
        return deal
    if not by.is_director:
        if by.seat is None:
            # A confirmation says who at the table vouches for the deal.
            raise RuleViolation(
                _("Pick your seat before you confirm a deal."), code="confirm_needs_seat"
            )
        if by.seat == deal.submitted_seat:
            raise RuleViolation(
                _("Someone at another seat must confirm: this seat entered the deal."),
                code="confirm_same_seat",
            )
        if by.device and by.device == deal.submitted_device:
            raise RuleViolation(
                _("Confirm on another phone: this one entered the deal."),
                code="confirm_same_device",
            )
    deal.status = DealStatus.CONFIRMED
    deal.version += 1
    deal.save(update_fields=["status", "version", "updated_at"])
    _version_row(deal, DealAction.CONFIRM, by, request_id)
    return deal
