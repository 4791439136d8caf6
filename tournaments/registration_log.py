"""The one way a registration's status changes: saved with a RegistrationChange row (who,
when, from what to what), so the director's list can show every step of every player."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AnonymousUser, User

from tournaments.models import Registration, RegistrationChange


def registration_status_change(
    *,
    registration: Registration,
    status: str,
    by: User | AnonymousUser | None,
    note: str = "",
    fields: Iterable[str] = (),
) -> Registration:
    """Set `status` (and save `fields` changed with it) and record the step. `by` None: the
    site itself (a promotion from the waitlist); an anonymous visitor counts as no one."""
    old = registration.status if registration.pk else ""
    registration.status = status
    if registration.pk:
        registration.save(update_fields=["status", *fields])
    else:
        registration.save()
    if old != status:
        registration_change_record(registration=registration, old_status=old, by=by, note=note)
    return registration


def registration_change_record(
    *, registration: Registration, old_status: str, by: User | AnonymousUser | None, note: str = ""
) -> RegistrationChange:
    """Record a step already saved (a registration just created: `old_status` "")."""
    (change,) = registration_changes_record(
        registrations=[registration], old_status=old_status, by=by, note=note
    )
    return change


def registration_changes_record(
    *,
    registrations: list[Registration],
    old_status: str,
    by: User | AnonymousUser | None,
    note: str = "",
) -> list[RegistrationChange]:
    """Record the same step of many registrations already saved (`bulk_update`), in one
    write: the door's "mark them as no-shows"."""
    return RegistrationChange.objects.bulk_create(
        RegistrationChange(
            registration=registration,
            old_status=old_status,
            new_status=registration.status,
            note=note[:200],
            changed_by_id=by.pk if by is not None and by.is_authenticated else None,
        )
        for registration in registrations
    )
