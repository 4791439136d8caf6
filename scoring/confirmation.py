"""What a confirmation proves, written once: the rule the confirm service applies, the table
page asks before it shows *Confirm*, and the director's "Confirmations to look at" reads.

A deal is confirmed by a second person at the table: a seat that made no version of the
deal (neither its entry nor any correction), on a phone that made none, signed in (if at
all) as nobody who made one. When the event asks for PINs, the confirming seat was taken
with its PIN (or seated by a director), and the PIN is typed again at the confirm. A seat
taken after the deal was first entered may confirm, but the confirmation is flagged: it may
be the person who entered it, on a second phone; so is one of a deal that such a seat
corrected. A director (or a site admin) may confirm a deal entered by the table; one they
entered or corrected themselves only where the club lets directors confirm alone, and then
it is flagged as one person's; so may a scorer, from a seat.

Seat PINs are four digits; PIN_TRIES wrong ones for a seat lock its PIN, counted in the
database (`PinAttempt`), until a director unlocks it.
"""

from __future__ import annotations

import datetime
import secrets
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from rules import RuleViolation
from rules.i18n import _, ngettext
from scoring.models import ConfirmFlag, Deal, DealAction, DealVersion, PinAttempt, PinOutcome
from tournaments.models import Event, Table

# Wrong PINs for one seat before its PIN locks: a guess at a four-digit PIN then succeeds
# once in 2,000 (5 in 10,000), and the director hears of it.
PIN_TRIES = 5


@dataclass(frozen=True)
class Actor:
    """Who is saving: a seat at the table on some device, and/or a signed-in person.

    Whether the person directs the club is never taken from the caller: the services ask
    `directs()`, from the user itself."""

    device: str
    seat: int | None = None
    user: User | AnonymousUser | None = None
    # When this device took its seat, and whether with the seat's PIN (or seated by a
    # director): what a confirmation from it proves.
    claimed_at: datetime.datetime | None = None
    pin_given: bool = False


@dataclass(frozen=True)
class Maker:
    """Who made one version (an entry or a correction) of a deal, and when."""

    seat: int | None
    device: str
    user_id: int | None
    at: datetime.datetime
    flag: str


@dataclass(frozen=True)
class ConfirmVerdict:
    refusal: RuleViolation | None
    flag: str = ConfirmFlag.NONE

    @property
    def allowed(self) -> bool:
        return self.refusal is None


def deal_makers(deals: Iterable[Deal]) -> dict[int, list[Maker]]:
    """Deal id → who made each of its versions, in one query."""
    found: dict[int, list[Maker]] = defaultdict(list)
    versions = DealVersion.objects.filter(
        deal__in=list(deals), action__in=[DealAction.SUBMIT, DealAction.CORRECT]
    ).order_by("deal_id", "version")
    for row in versions.values("deal_id", "by_seat", "device", "by_user_id", "created_at", "flag"):
        found[row["deal_id"]].append(
            Maker(row["by_seat"], row["device"], row["by_user_id"], row["created_at"], row["flag"])
        )
    return dict(found)


def _user_id(user: User | AnonymousUser | None) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def confirm_verdict(
    *,
    by: Actor,
    makers: list[Maker],
    director: bool,
    scorer: bool,
    needs_pin: bool,
    directors_alone: bool,
) -> ConfirmVerdict:
    """Whether `by` may confirm the deal `makers` made, and what the director is to look at
    if so (see the module's text). `director`: whether `by` directs the club; `scorer`:
    whether they score for it (a director does too)."""
    user_id = _user_id(by.user)
    same_person = any(
        m.device == by.device or (user_id is not None and m.user_id == user_id) for m in makers
    )
    if (
        same_person
        and (director or scorer)
        and directors_alone
        and (director or by.seat is not None)
    ):
        # The club lets its staff confirm alone: allowed, and said so.
        return ConfirmVerdict(None, ConfirmFlag.SAME_PERSON)
    if same_person and (director or scorer):
        return _refuse(
            _("You entered or corrected this deal: someone else at the table confirms it."),
            "confirm_same_person",
        )
    if director:
        return ConfirmVerdict(None)
    if by.seat is None:
        # A confirmation says who at the table vouches for the deal.
        return _refuse(_("Pick your seat before you confirm a deal."), "confirm_needs_seat")
    if any(m.seat == by.seat for m in makers):
        return _refuse(
            _("Someone at another seat must confirm: this seat entered or corrected the deal."),
            "confirm_same_seat",
        )
    if any(m.device == by.device for m in makers):
        return _refuse(
            _("Confirm on another phone: this one entered or corrected the deal."),
            "confirm_same_device",
        )
    if same_person:
        return _refuse(
            _("You entered or corrected this deal: someone else at the table confirms it."),
            "confirm_same_person",
        )
    if needs_pin and not by.pin_given:
        return _refuse(
            _("Take your seat again with your PIN, then confirm: this phone took it without."),
            "confirm_seat_without_pin",
        )
    first = min((m.at for m in makers), default=None)
    late = (by.claimed_at is not None and first is not None and by.claimed_at > first) or any(
        m.flag == ConfirmFlag.LATE_SEAT for m in makers
    )
    return ConfirmVerdict(None, ConfirmFlag.LATE_SEAT if late else ConfirmFlag.NONE)


def entry_flag(*, by: Actor, makers: list[Maker], director: bool) -> str:
    """The flag of a new version made by `by`: a correction from a seat taken after the deal
    was first entered is pointed out (its confirmation will be too)."""
    first = min((m.at for m in makers), default=None)
    if director or first is None or by.claimed_at is None or by.claimed_at <= first:
        return ConfirmFlag.NONE
    return ConfirmFlag.LATE_SEAT


def _refuse(text: str, code: str) -> ConfirmVerdict:
    return ConfirmVerdict(RuleViolation(text, code=code))


# -- seat PINs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PinState:
    position: int
    wrong: int  # wrong PINs since the last right one or unlock
    locked: bool
    attempts: list[PinAttempt]  # those wrong ones, oldest first


def _states(attempts: Iterable[PinAttempt]) -> dict[tuple[int, int], PinState]:
    since: dict[tuple[int, int], list[PinAttempt]] = defaultdict(list)
    for attempt in attempts:
        seat = (attempt.table_id, attempt.position)
        if attempt.outcome == PinOutcome.WRONG:
            since[seat].append(attempt)
        else:
            since[seat] = []
    return {
        seat: PinState(seat[1], len(wrong), len(wrong) >= PIN_TRIES, wrong)
        for seat, wrong in since.items()
        if wrong
    }


def pin_states(*, table: Table) -> dict[int, PinState]:
    """Seat position → its PIN's state, for every seat with a wrong PIN since its last
    right one or unlock (one query)."""
    attempts = PinAttempt.objects.filter(table=table).order_by("at", "pk")
    return {position: state for (_table, position), state in _states(attempts).items()}


def locked_pins(*, event: Event) -> list[tuple[Table, PinState]]:
    """Every seat of the event whose PIN is locked, by table (one query)."""
    attempts = (
        PinAttempt.objects.filter(table__stage__event=event)
        .select_related("table")
        .order_by("at", "pk")
    )
    tables = {attempt.table_id: attempt.table for attempt in attempts}
    return sorted(
        ((tables[seat[0]], state) for seat, state in _states(attempts).items() if state.locked),
        key=lambda item: (item[0].stage_id, item[0].number, item[1].position),
    )


def pin_refusal(
    *, table: Table, position: int, pin: str | None, device: str
) -> RuleViolation | None:
    """Check `pin` for the seat and record the try (the caller holds the table's lock and
    must commit even when refusing: core.db.Refusal). None when it is right."""
    state = pin_states(table=table).get(position)
    if state is not None and state.locked:
        return _pin_locked()
    expected = table.seats.filter(position=position).values_list("pin", flat=True).first()
    right = expected is not None and pin is not None and secrets.compare_digest(expected, pin)
    PinAttempt.objects.create(
        table=table,
        position=position,
        outcome=PinOutcome.RIGHT if right else PinOutcome.WRONG,
        device=device,
    )
    if right:
        return None
    left = PIN_TRIES - (state.wrong if state else 0) - 1
    if left <= 0:
        return _pin_locked()
    return RuleViolation(
        ngettext(
            "That is not this seat's PIN (the director gives each player theirs). %(left)d try left before it locks.",
            "That is not this seat's PIN (the director gives each player theirs). %(left)d tries left before it locks.",
            left,
        ),
        code="wrong_pin",
        field="pin",
        left=left,
    )


def _pin_locked() -> RuleViolation:
    return RuleViolation(
        _("This seat's PIN is locked after too many wrong tries: ask the director to unlock it."),
        code="pin_locked",
        field="pin",
    )
