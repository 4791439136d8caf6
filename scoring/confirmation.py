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

Seat PINs are six digits (four on events made before). Wrong ones are counted in the database
(`PinAttempt`) per phone and per seat. A phone that typed PIN_TRIES wrong ones for a seat
waits before its next try, longer each time (the guesser is slowed, not the player: the
seat's owner, on their own phone, sits with the right PIN at once). A seat's PIN locks, until
a director unlocks it, only after as many wrong tries from all phones together as keep a
guess at it to one chance in GUESS_ODDS per unlock: 500 for six digits, 5 for four.
"""

from __future__ import annotations

import datetime
import math
import secrets
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from rules import RuleViolation
from rules.i18n import _, ngettext
from scoring.models import ConfirmFlag, Deal, DealAction, DealVersion, PinAttempt, PinOutcome
from tournaments.models import Event, Seat, Table

# Wrong PINs one phone may type for a seat before it must wait; each further wrong one
# doubles the wait, from HOLD_OFF up to HOLD_OFF_MAX.
PIN_TRIES = 5
HOLD_OFF = datetime.timedelta(minutes=1)
HOLD_OFF_MAX = datetime.timedelta(hours=1)
# A guess at a seat's PIN succeeds at most once in GUESS_ODDS between two unlocks.
GUESS_ODDS = 2000


def seat_budget(pin: str) -> int:
    """Wrong PINs from all phones together before the seat's PIN locks: 500 for a
    six-digit PIN, 5 for a four-digit one."""
    return max(1, 10 ** len(pin) // GUESS_ODDS)


def hold_off(wrong: int) -> datetime.timedelta:
    """How long a phone waits after its `wrong`-th wrong PIN for one seat (none before
    PIN_TRIES)."""
    if wrong < PIN_TRIES:
        return datetime.timedelta(0)
    return min(HOLD_OFF * 2 ** (wrong - PIN_TRIES), HOLD_OFF_MAX)


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
    wrong: int  # wrong PINs from every phone since the last unlock
    budget: int  # how many lock the PIN
    attempts: list[PinAttempt]  # those wrong ones, oldest first
    # Each phone's wrong PINs since its last right one (or the unlock)...
    tries: dict[str, int]
    # ...and the phones waiting before their next try, until when.
    held_off: dict[str, datetime.datetime]

    @property
    def locked(self) -> bool:
        return self.wrong >= self.budget

    @property
    def to_look_at(self) -> bool:
        """What the director is shown (and may clear with an unlock): a locked PIN, a phone
        kept waiting, or as many wrong PINs as make a phone wait."""
        return self.locked or bool(self.held_off) or self.wrong >= PIN_TRIES


def _states(
    attempts: Iterable[PinAttempt], now: datetime.datetime | None = None
) -> dict[tuple[int, int], PinState]:
    """Each seat's state from its attempts, oldest first (each annotated with its seat's
    `seat_pin`). An unlock starts a seat over; a right PIN starts its phone over."""
    now = now or timezone.now()
    since: dict[tuple[int, int], list[PinAttempt]] = defaultdict(list)
    phones: dict[tuple[int, int], dict[str, list[PinAttempt]]] = defaultdict(dict)
    pins: dict[tuple[int, int], str] = {}
    for attempt in attempts:
        seat = (attempt.table_id, attempt.position)
        pins[seat] = getattr(attempt, "seat_pin", None) or "0000"
        if attempt.outcome == PinOutcome.WRONG:
            since[seat].append(attempt)
            phones[seat].setdefault(attempt.device, []).append(attempt)
        elif attempt.outcome == PinOutcome.UNLOCKED:
            since[seat], phones[seat] = [], {}
        else:
            phones[seat].pop(attempt.device, None)
    states = {}
    for seat, wrong in since.items():
        if not wrong:
            continue
        tries = {device: len(made) for device, made in phones[seat].items()}
        held = {
            device: made[-1].at + hold_off(len(made))
            for device, made in phones[seat].items()
            if made[-1].at + hold_off(len(made)) > now
        }
        states[seat] = PinState(seat[1], len(wrong), seat_budget(pins[seat]), wrong, tries, held)
    return states


def _attempts(**where: object) -> QuerySet[PinAttempt]:
    seat_pin = Seat.objects.filter(table=OuterRef("table"), position=OuterRef("position"))
    return (
        PinAttempt.objects.filter(**where)
        .annotate(seat_pin=Subquery(seat_pin.values("pin")[:1]))
        .order_by("at", "pk")
    )


def pin_states(*, table: Table) -> dict[int, PinState]:
    """Seat position → its PIN's state, for every seat with a wrong PIN since its last
    unlock (one query)."""
    return {position: state for (_t, position), state in _states(_attempts(table=table)).items()}


def locked_pins(*, event: Event) -> list[tuple[Table, PinState]]:
    """Every seat of the event whose PINs the director is to look at (`to_look_at`), by
    table (one query)."""
    attempts = _attempts(table__stage__event=event).select_related("table")
    tables = {attempt.table_id: attempt.table for attempt in attempts}
    return sorted(
        ((tables[seat[0]], state) for seat, state in _states(attempts).items() if state.to_look_at),
        key=lambda item: (item[0].stage_id, item[0].number, item[1].position),
    )


def pin_refusal(
    *, table: Table, position: int, pin: str | None, device: str
) -> RuleViolation | None:
    """Check `pin` for the seat and record the try (the caller holds the table's lock and
    must commit even when refusing: core.db.Refusal). None when it is right. A locked seat,
    or a phone still waiting, is refused without a look at the PIN (and nothing recorded)."""
    now = timezone.now()
    state = pin_states(table=table).get(position)
    if state is not None and state.locked:
        return _pin_locked()
    if state is not None and device in state.held_off:
        return _wait(state.held_off[device] - now)
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
    seat_wrong = (state.wrong if state else 0) + 1
    if expected is not None and seat_wrong >= seat_budget(expected):
        return _pin_locked()
    # This phone's wrong tries for the seat since its last right one, this one included.
    mine = (state.tries.get(device, 0) if state else 0) + 1
    if mine >= PIN_TRIES:
        return _wait(hold_off(mine))
    left = PIN_TRIES - mine
    return RuleViolation(
        ngettext(
            "That is not this seat's PIN (the director gives each player theirs). %(left)d try left on this phone before it must wait.",
            "That is not this seat's PIN (the director gives each player theirs). %(left)d tries left on this phone before it must wait.",
            left,
        ),
        code="wrong_pin",
        field="pin",
        left=left,
    )


def _wait(wait: datetime.timedelta) -> RuleViolation:
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    return RuleViolation(
        ngettext(
            "Too many wrong PINs for this seat on this phone: it may try again in %(minutes)d minute. The player whose seat it is can sit at once with the right PIN, on their own phone.",
            "Too many wrong PINs for this seat on this phone: it may try again in %(minutes)d minutes. The player whose seat it is can sit at once with the right PIN, on their own phone.",
            minutes,
        ),
        code="pin_wait",
        field="pin",
        minutes=minutes,
    )


def _pin_locked() -> RuleViolation:
    return RuleViolation(
        _("This seat's PIN is locked after too many wrong tries: ask the director to unlock it."),
        code="pin_locked",
        field="pin",
    )
