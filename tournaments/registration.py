"""Self-registration: who may register for an event, the places, the waitlist and approval.

A registration holds a place only while REGISTERED or CHECKED_IN (models.PLACE_HOLDING).
Every service that may take or free a place locks the event's row first, so two people
taking the last place at once get one place and one waitlist, and a freed place goes to the
first on the waitlist in the same transaction. Every status change goes through
`registration_status_change` (recorded), every mail to the player is a Notice row
(`notice_queue`) made in the same transaction.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Case, Count, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.formats import date_format

from core.mail import mail_send_on_commit
from rules import RuleViolation
from rules.i18n import _
from tournaments.models import (
    BEFORE_PLACE,
    PLACE_HOLDING,
    Event,
    EventStatus,
    NoticeKind,
    Player,
    Registration,
    RegistrationOpenTo,
    RegistrationStatus,
)
from tournaments.names import name_clean
from tournaments.notices import notice_queue
from tournaments.registration_log import registration_status_change
from tournaments.selectors import club_membership, user_language
from tournaments.tasks import registration_confirm_mail_task

Person = User | AnonymousUser


# -- reads ---------------------------------------------------------------------------------------


def places_taken(*, event: Event) -> int:
    return event.registrations.filter(status__in=PLACE_HOLDING).count()


def places_left(*, event: Event) -> int | None:
    """Free places; None when the event has no limit."""
    if event.capacity is None:
        return None
    return max(0, event.capacity - places_taken(event=event))


@dataclass(frozen=True)
class RegistrationCounts:
    taken: int
    capacity: int | None
    waiting: int
    pending: int
    unconfirmed: int

    @property
    def left(self) -> int | None:
        return None if self.capacity is None else max(0, self.capacity - self.taken)


def registration_counts(*, event: Event) -> RegistrationCounts:
    """What the manage page and the public page say of the places, in one query."""
    counts = event.registrations.aggregate(
        taken=Count("pk", filter=Q(status__in=PLACE_HOLDING)),
        waiting=Count("pk", filter=Q(status=RegistrationStatus.WAITLISTED)),
        pending=Count("pk", filter=Q(status=RegistrationStatus.PENDING)),
        unconfirmed=Count("pk", filter=Q(status=RegistrationStatus.UNCONFIRMED)),
    )
    return RegistrationCounts(capacity=event.capacity, **counts)


def event_registration_list(*, event: Event, status: str = "") -> QuerySet[Registration]:
    """Every registration of the event, for the director's list: places first, then those
    awaiting approval, the waitlist in its order, the unconfirmed, the gone; each row with
    its player and its history (prefetched)."""
    rows = event.registrations.select_related("player").prefetch_related("changes__changed_by")
    if status:
        rows = rows.filter(status=status)
    steps = [
        *PLACE_HOLDING,
        RegistrationStatus.PENDING,
        RegistrationStatus.WAITLISTED,
        RegistrationStatus.UNCONFIRMED,
    ]
    order = Case(
        *(When(status=step, then=Value(rank)) for rank, step in enumerate(steps)),
        default=Value(len(steps)),
    )
    return rows.order_by(order, "waitlisted_at", "player__name", "pk")


def user_registrations(*, user: Person) -> QuerySet[Registration]:
    """The registrations of the person's own players, upcoming events first."""
    if not user.is_authenticated:
        return Registration.objects.none()
    return (
        Registration.objects.filter(player__user=user)
        .select_related("event__club", "player")
        .order_by("-event__date", "event__name")
    )


def own_registration(*, event: Event, user: Person) -> Registration | None:
    """The signed-in person's registration for the event, if they have one."""
    if not user.is_authenticated:
        return None
    return event.registrations.filter(player__user_id=user.pk).first()


def waitlist(*, event: Event) -> QuerySet[Registration]:
    """The waitlist in its order: who joined it first is promoted first."""
    return event.registrations.filter(status=RegistrationStatus.WAITLISTED).order_by(
        "waitlisted_at", "pk"
    )


def _when(moment: datetime.datetime, event: Event) -> str:
    with timezone.override(event.club.time_zone):
        return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def _event_started(event: Event, now: datetime.datetime) -> bool:
    if event.status != EventStatus.REGISTRATION or event.stages.exists():
        return True
    today = timezone.localtime(now, timezone=_zone(event)).date()
    if event.date != today:
        return event.date < today
    if event.start_time is None:
        return False
    return timezone.localtime(now, timezone=_zone(event)).time() >= event.start_time


def _zone(event: Event) -> datetime.tzinfo:
    return ZoneInfo(event.club.time_zone)


def registration_window_refusal(*, event: Event) -> RuleViolation | None:
    """Why nobody may register themselves now (closed, not open yet, started), or None."""
    now = timezone.now()
    if event.registration_open_to == RegistrationOpenTo.NOBODY or event.spec.imported:
        return RuleViolation(
            _(
                "This event takes no registrations on the site: the club's directors add the players."
            ),
            code="registration_closed_to_all",
        )
    if event.status == EventStatus.FINISHED:
        return RuleViolation(_("This event is finished."), code="registration_event_finished")
    if _event_started(event, now):
        return RuleViolation(
            _("This event has started: registration is closed."), code="registration_started"
        )
    if event.registration_opens_at and now < event.registration_opens_at:
        return RuleViolation(
            _("Registration opens %(when)s."),
            code="registration_not_open",
            when=_when(event.registration_opens_at, event),
        )
    if event.registration_closes_at and now >= event.registration_closes_at:
        return RuleViolation(
            _("Registration closed %(when)s."),
            code="registration_over",
            when=_when(event.registration_closes_at, event),
        )
    return None


def registration_refusal(*, event: Event, user: Person) -> RuleViolation | None:
    """Why `user` may not register for `event` themselves now, or None: the one rule for the
    public page's button and the service."""
    if refusal := registration_window_refusal(event=event):
        return refusal
    if event.registration_open_to == RegistrationOpenTo.MEMBERS and not _is_member(event, user):
        if not user.is_authenticated:
            return RuleViolation(
                _("Only the club's members may register: sign in first."),
                code="registration_sign_in",
            )
        return RuleViolation(
            _("Only the club's members may register for this event."),
            code="registration_members_only",
        )
    return None


def _is_member(event: Event, user: Person) -> bool:
    return club_membership(club=event.club, user=user) is not None


# -- writes ----------------------------------------------------------------------------------------


def _locked(event: Event) -> Event:
    """The event's row, locked: every taking and freeing of places queues here."""
    return Event.objects.select_related("club").select_for_update().get(pk=event.pk)


def _place_or_waitlist(
    registration: Registration, event: Event, *, by: Person | None, note: str = ""
) -> Registration:
    """A place when one is free, else the end of the waitlist (the event is locked)."""
    left = places_left(event=event)
    if left is None or left > 0:
        registration.waitlisted_at = None
        registration_status_change(
            registration=registration,
            status=RegistrationStatus.REGISTERED,
            by=by,
            note=note,
            fields=["waitlisted_at"],
        )
        return registration
    registration.waitlisted_at = timezone.now()
    registration_status_change(
        registration=registration,
        status=RegistrationStatus.WAITLISTED,
        by=by,
        note=note,
        fields=["waitlisted_at"],
    )
    notice_queue(kind=NoticeKind.WAITLISTED, registration=registration)
    return registration


def waitlist_promote(*, event: Event) -> list[Registration]:
    """Give each free place to the first on the waitlist (the caller holds the event's
    lock); recorded with no one as the doer, and each promoted player told."""
    promoted: list[Registration] = []
    left = places_left(event=event)
    candidates = waitlist(event=event).select_related("event")
    for registration in candidates if left is None else candidates[:left]:
        registration.waitlisted_at = None
        registration_status_change(
            registration=registration,
            status=RegistrationStatus.REGISTERED,
            by=None,
            note=_("promoted from the waitlist"),
            fields=["waitlisted_at"],
        )
        notice_queue(kind=NoticeKind.PROMOTED, registration=registration)
        promoted.append(registration)
    return promoted


def _own_player(event: Event, user: User) -> Player:
    """The person's player at the club (their account's), made when they have none."""
    player = Player.objects.filter(club_id=event.club_id, user=user, merged_into=None).first()
    if player is not None:
        return player
    return Player.objects.create(
        club_id=event.club_id,
        user=user,
        name=name_clean(user.get_full_name() or user.get_username()),
        guest=not _is_member(event, user),
    )


def _guest_player(event: Event, name: str, email: str) -> Player:
    """A returning guest is one person: the address's earlier registration at this club
    finds its player (the one it was merged into, if it was); a new address a new guest."""
    earlier = (
        Registration.objects.filter(event__club_id=event.club_id, email__iexact=email)
        .select_related("player")
        .order_by("-registered_at", "-pk")
        .first()
    )
    if earlier is not None:
        player = earlier.player
        while player.merged_into_id is not None:
            player = Player.objects.get(pk=player.merged_into_id)
        return player
    return Player.objects.create(club_id=event.club_id, name=name_clean(name), guest=True)


def _already(registration: Registration) -> RuleViolation:
    if registration.status == RegistrationStatus.WAITLISTED:
        return RuleViolation(_("You are already on the waitlist."), code="already_waitlisted")
    if registration.status == RegistrationStatus.PENDING:
        return RuleViolation(
            _("Your registration is already waiting for the director's approval."),
            code="already_pending",
        )
    return RuleViolation(_("You are already registered for this event."), code="already")


@transaction.atomic
def registration_self_add(
    *, event: Event, user: Person, name: str = "", email: str = "", language: str = ""
) -> Registration:
    """Register oneself from the public page. A signed-in person registers with their
    account's address and language, confirmed at once; anyone else (an event open to
    anyone) with a name and an address, UNCONFIRMED (no place) until its mailed link is
    opened. RuleViolation when registration is not possible (`registration_refusal`) or
    the person is already in."""
    event = _locked(event)
    if refusal := registration_refusal(event=event, user=user):
        raise refusal
    if isinstance(user, User):
        player = _own_player(event, user)
        email, language = user.email, user_language(user=user) or language
    else:
        player = _guest_player(event, name, email)
    registration = Registration.objects.filter(event=event, player=player).first()
    if registration is not None and registration.status in (
        *PLACE_HOLDING,
        RegistrationStatus.PENDING,
        RegistrationStatus.WAITLISTED,
    ):
        raise _already(registration)
    if registration is None:
        registration = Registration(event=event, player=player, late=False)
    registration.email, registration.language = email, language or event.club.language
    registration.self_registered = True
    registration.approved_by, registration.approved_at = None, None
    registration_status_change(
        registration=registration,
        status=RegistrationStatus.UNCONFIRMED,
        by=user,
        note=_("registered on the public page"),
        fields=["email", "language", "self_registered", "approved_by", "approved_at"],
    )
    if not isinstance(user, User):
        mail_send_on_commit(registration_confirm_mail_task, registration.pk)
        return registration
    # An account's address is confirmed already.
    return _confirmed(registration, event, by=user)


def _confirmed(registration: Registration, event: Event, *, by: Person | None) -> Registration:
    """The address is confirmed: awaiting approval, or a place, or the waitlist."""
    if event.registration_approval:
        registration_status_change(
            registration=registration,
            status=RegistrationStatus.PENDING,
            by=by,
            note=_("address confirmed"),
        )
        notice_queue(kind=NoticeKind.RECEIVED, registration=registration)
        return registration
    _place_or_waitlist(registration, event, by=by, note=_("address confirmed"))
    if registration.status == RegistrationStatus.REGISTERED:
        notice_queue(kind=NoticeKind.RECEIVED, registration=registration)
    return registration


@transaction.atomic
def registration_confirm(*, registration: Registration) -> Registration:
    """The mailed link was opened (and its button pressed). A link used before changes
    nothing (RuleViolation): only an UNCONFIRMED registration is confirmed."""
    event = _locked(registration.event)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != RegistrationStatus.UNCONFIRMED:
        raise RuleViolation(
            _("This link has been used already: your registration is %(status)s."),
            code="link_used",
            status=registration.get_status_display(),
        )
    if refusal := registration_window_refusal(event=event):
        raise refusal
    return _confirmed(registration, event, by=registration.player.user)


def registration_cancel_refusal(*, registration: Registration) -> RuleViolation | None:
    """Whether the player may still cancel: not once gone, nor once the event has begun."""
    # Checked in is at the venue already: the director withdraws them there.
    if registration.status not in (RegistrationStatus.REGISTERED, *BEFORE_PLACE):
        return RuleViolation(
            _("This registration is %(status)s: there is nothing to cancel."),
            code="not_cancellable",
            status=registration.get_status_display(),
        )
    if _event_started(registration.event, timezone.now()):
        return RuleViolation(
            _("The event has started: tell the director at the venue."), code="cancel_started"
        )
    return None


def _leave(
    registration: Registration, *, status: str, by: Person | None, note: str
) -> Registration:
    """Take the registration out (the event locked) and give a freed place on."""
    event = _locked(registration.event)
    held = registration.status in PLACE_HOLDING
    registration.waitlisted_at = None
    registration_status_change(
        registration=registration, status=status, by=by, note=note, fields=["waitlisted_at"]
    )
    notice_queue(kind=NoticeKind.CANCELLED, registration=registration)
    if held:
        waitlist_promote(event=event)
    return registration


@transaction.atomic
def registration_cancel(*, registration: Registration, by: Person | None) -> Registration:
    """The player cancels (their account's page or their mail's link): a place they held
    goes to the first on the waitlist. A second cancel changes nothing (RuleViolation)."""
    registration = (
        Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
    )
    if refusal := registration_cancel_refusal(registration=registration):
        raise refusal
    return _leave(
        registration, status=RegistrationStatus.CANCELLED, by=by, note=_("cancelled by the player")
    )


# -- the director's actions ----------------------------------------------------------------------


DIRECTOR_ACTIONS = ("approve", "waitlist", "place", "remove")


def registration_action_refusal(*, registration: Registration, action: str) -> RuleViolation | None:
    """Why the director's `action` does not apply to the row (None: it does). The one rule
    for the list's buttons and the service."""
    status = registration.status
    if action == "approve" and status != RegistrationStatus.PENDING:
        return RuleViolation(
            _("Only a registration awaiting approval can be approved."), code="action_refused"
        )
    if action == "waitlist" and status not in (
        RegistrationStatus.REGISTERED,
        RegistrationStatus.PENDING,
    ):
        return RuleViolation(
            _("Only a registered player or one awaiting approval can be moved to the waitlist."),
            code="action_refused",
        )
    if action == "place" and status in PLACE_HOLDING:
        return RuleViolation(_("This player has a place already."), code="action_refused")
    if action == "remove" and status in (
        RegistrationStatus.WITHDRAWN,
        RegistrationStatus.CANCELLED,
    ):
        return RuleViolation(_("This registration is gone already."), code="action_refused")
    if action not in DIRECTOR_ACTIONS:
        return RuleViolation(_("Unknown action."), code="action_refused")
    return None


def registration_actions(*, registration: Registration) -> list[str]:
    """The director's actions that apply to the row, for its buttons."""
    return [
        action
        for action in DIRECTOR_ACTIONS
        if registration_action_refusal(registration=registration, action=action) is None
    ]


@transaction.atomic
def registration_director_act(
    *, registration: Registration, action: str, by: Person, confirmed: bool = False
) -> Registration:
    """A director's action on one registration: `approve` (a place if one is free, else
    the waitlist), `waitlist` (to its end; the place it held goes on), `place` (a place
    whatever the capacity) or `remove` (asked first: `confirmed`)."""
    event = _locked(registration.event)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if refusal := registration_action_refusal(registration=registration, action=action):
        raise refusal
    now = timezone.now()
    if action == "approve":
        registration.approved_by_id, registration.approved_at = by.pk, now
        registration.save(update_fields=["approved_by", "approved_at"])
        _place_or_waitlist(registration, event, by=by, note=_("approved"))
        if registration.status == RegistrationStatus.REGISTERED:
            notice_queue(kind=NoticeKind.APPROVED, registration=registration)
    elif action == "waitlist":
        held = registration.status in PLACE_HOLDING
        registration.waitlisted_at = now
        registration_status_change(
            registration=registration,
            status=RegistrationStatus.WAITLISTED,
            by=by,
            note=_("moved to the waitlist"),
            fields=["waitlisted_at"],
        )
        notice_queue(kind=NoticeKind.WAITLISTED, registration=registration)
        if held:
            _promote_others(event, registration)
    elif action == "place":
        registration.waitlisted_at = None
        if registration.approved_at is None:
            registration.approved_by_id, registration.approved_at = by.pk, now
        registration_status_change(
            registration=registration,
            status=RegistrationStatus.REGISTERED,
            by=by,
            note=_("given a place"),
            fields=["waitlisted_at", "approved_by", "approved_at"],
        )
        notice_queue(kind=NoticeKind.PROMOTED, registration=registration)
    else:
        if not confirmed:
            raise RuleViolation(_("Confirm the removal first."), code="not_confirmed")
        _leave(registration, status=RegistrationStatus.WITHDRAWN, by=by, note=_("removed"))
    return registration


def _promote_others(event: Event, moved: Registration) -> None:
    """The place a director moved to the waitlist goes to whoever waited before them; the
    one just moved waits behind (a lone waiter is not handed straight back its place)."""
    if waitlist(event=event).exclude(pk=moved.pk).exists():
        waitlist_promote(event=event)


@transaction.atomic
def registration_director_add(*, event: Event, name: str, email: str, by: Person) -> Registration:
    """A director registers someone by name and address (a place whatever the capacity);
    the address finds a returning guest's player as on the public page."""
    event = _locked(event)
    player = _guest_player(event, name, email)
    registration = Registration.objects.filter(event=event, player=player).first()
    if registration is not None and registration.status in PLACE_HOLDING:
        raise RuleViolation(_("%(name)s is already registered."), code="already", name=player.name)
    if registration is None:
        registration = Registration(event=event, player=player, late=event.stages.exists())
    registration.email, registration.language = email, registration.language or event.club.language
    registration.waitlisted_at = None
    registration.approved_by_id, registration.approved_at = by.pk, timezone.now()
    registration_status_change(
        registration=registration,
        status=RegistrationStatus.REGISTERED,
        by=by,
        note=_("added by a director"),
        fields=["email", "language", "waitlisted_at", "approved_by", "approved_at"],
    )
    notice_queue(kind=NoticeKind.APPROVED, registration=registration)
    return registration


@transaction.atomic
def registration_settings_set(
    *,
    event: Event,
    open_to: str,
    opens_at: datetime.datetime | None,
    closes_at: datetime.datetime | None,
    capacity: int | None,
    approval: bool,
) -> Event:
    """Save who may register, when, how many places and whether each is approved; places
    added go to the waitlist's first at once."""
    if opens_at and closes_at and closes_at <= opens_at:
        raise RuleViolation(
            _("Registration must close after it opens."), code="closes_before", field="closes_at"
        )
    locked = _locked(event)
    locked.registration_open_to = RegistrationOpenTo(open_to)
    locked.registration_opens_at, locked.registration_closes_at = opens_at, closes_at
    locked.capacity, locked.registration_approval = capacity, approval
    locked.save(
        update_fields=[
            "registration_open_to",
            "registration_opens_at",
            "registration_closes_at",
            "capacity",
            "registration_approval",
        ]
    )
    waitlist_promote(event=locked)
    return locked
