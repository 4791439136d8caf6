"""Check-in at the door: who is here, one tap (or one scanned code) per person, walk-ins
by name, and the registered who never came marked no-shows before the draw.

Each registration has a personal code: a signed token of its own salt in a link (no field
in the database: the signature is the proof). The player shows the link's QR code at the
door; a director's or scorer's phone scans it and checks them in. A forged token, or one of
another club's event, finds nothing and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from rules import RuleViolation
from rules.i18n import _
from tournaments.models import (
    PLACE_HOLDING,
    Event,
    EventStatus,
    Player,
    Registration,
    RegistrationStatus,
)
from tournaments.names import name_key
from tournaments.registration_links import registration_qr_token
from tournaments.registration_log import registration_changes_record
from tournaments.services import (
    registration_add,
    registration_guest_add,
    registration_status_set,
)

# The registrations the door's list shows: those who hold a place, and the no-shows, who
# may still walk in (PLACE_HOLDING is the one "holds a place" rule).
CHECKIN_STATUSES = (*PLACE_HOLDING, RegistrationStatus.NO_SHOW)


def checkin_possible(registration: Registration) -> bool:
    """Whether the door may check this registration in (or undo it): it holds or may take a
    place. The service refuses the rest; the code page shows its button only then."""
    return registration.status in CHECKIN_STATUSES


def checkin_set(
    *, registration: Registration, here: bool, by: User | AnonymousUser | None
) -> Registration:
    """Check a registered player in (`here`) or take the check-in back. Doing it twice (a
    code scanned again, two phones at one door) changes nothing more; a player not holding
    a place is refused. After the draw a check-in is late (registration_status_set)."""
    status = RegistrationStatus.CHECKED_IN if here else RegistrationStatus.REGISTERED
    with transaction.atomic():
        # The row locked and read again: two phones tapping one name record one change.
        current = Registration.objects.select_for_update().get(pk=registration.pk)
        registration.status = current.status
        if not checkin_possible(registration):
            raise RuleViolation(
                _("%(name)s is not registered for this event: register them first."),
                code="not_registered",
                name=registration.player.name,
            )
        if registration.status == status:
            return registration
        registration_status_set(registration=registration, status=status, by=by)
    return registration


def walk_in_add(
    *,
    event: Event,
    player: Player | None = None,
    name: str = "",
    home_club: str = "",
    new_person: bool = False,
    by: User | AnonymousUser | None,
) -> Registration:
    """A walk-in checked in at once: one of the club's players, or a guest by name as the
    manage page adds one (a name that looks like one of the club's players is refused, code
    "lookalike", unless `new_person`)."""
    if player is not None:
        return registration_add(event=event, player=player, checked_in=True, by=by)
    return registration_guest_add(
        event=event, name=name, home_club=home_club, new_person=new_person, by=by
    )


def no_shows_allowed(*, event: Event) -> bool:
    """Whether the registered who have not come may be marked no-shows: before the draw
    only (after it a late arrival is still seated). The page and the service ask this."""
    return not event.stages.exists()


def no_shows_mark(*, event: Event, by: User | AnonymousUser | None, confirmed: bool = False) -> int:
    """Mark every registered player not checked in a no-show, at once, each recorded; how
    many. Asked first (the page confirms), before the draw only."""
    if not confirmed:
        raise RuleViolation(_("Confirm the no-shows first."), code="not_confirmed")
    if not no_shows_allowed(event=event):
        raise RuleViolation(
            _("The tables are drawn: no-shows are marked before the draw."), code="drawn"
        )
    with transaction.atomic():
        absent = list(
            Registration.objects.select_for_update()
            .filter(event=event, status=RegistrationStatus.REGISTERED)
            .order_by("pk")
        )
        for registration in absent:
            registration.status = RegistrationStatus.NO_SHOW
        Registration.objects.bulk_update(absent, ["status"])
        registration_changes_record(
            registrations=absent, old_status=RegistrationStatus.REGISTERED, by=by, note="no-show"
        )
    return len(absent)


# Reads.


@dataclass(frozen=True)
class CheckinCount:
    here: int
    expected: int
    absent: int  # registered, not (yet) here


def checkin_registrations(*, event: Event, search: str = "") -> QuerySet[Registration]:
    """The door's list: who holds or may take a place, by name; `search` narrows it by
    name, accents, case and spacing ignored (as the roster's search)."""
    registrations = (
        Registration.objects.filter(event=event, status__in=CHECKIN_STATUSES)
        .select_related("player")
        .order_by("player__name_key", "pk")
    )
    key = name_key(search)
    if key:
        registrations = registrations.filter(player__name_key__contains=key)
    return registrations


def checkin_count(*, event: Event) -> CheckinCount:
    """ "23 of 28 here": the checked in, of everyone on the door's list but the no-shows."""
    counts = Registration.objects.filter(event=event).aggregate(
        here=Count("pk", filter=Q(status=RegistrationStatus.CHECKED_IN)),
        absent=Count("pk", filter=Q(status=RegistrationStatus.REGISTERED)),
    )
    return CheckinCount(
        here=counts["here"], expected=counts["here"] + counts["absent"], absent=counts["absent"]
    )


def checkin_absent(*, event: Event) -> QuerySet[Registration]:
    """The registered who have not checked in, by name: the no-shows, if marked now."""
    return checkin_registrations(event=event).filter(status=RegistrationStatus.REGISTERED)


def my_checkin_codes(*, user: User | AnonymousUser) -> list[tuple[Registration, str]]:
    """The signed-in person's coming registrations that hold a place, soonest first, each
    with its code page's address: their account page shows them."""
    if not user.is_authenticated:
        return []
    registrations = (
        Registration.objects.filter(
            player__user=user,
            status__in=[RegistrationStatus.REGISTERED, RegistrationStatus.CHECKED_IN],
            event__date__gte=timezone.localdate(),
        )
        .exclude(event__status=EventStatus.FINISHED)
        .select_related("player", "event__club")
        .order_by("event__date", "event__name", "pk")
    )
    return [
        (registration, reverse("registration_qr", args=[registration_qr_token(registration)]))
        for registration in registrations
    ]
