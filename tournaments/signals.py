from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db.models import QuerySet
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest

from tournaments.club_language import club_language_forget
from tournaments.middleware import remember_language
from tournaments.models import Club, Membership, Player
from tournaments.selectors import user_language
from tournaments.services import (
    HISTORY_RECORDED,
    membership_change_record,
    profile_language_set,
)

# The role a membership had before this save, read by the pre_save receiver.
_ROLE_BEFORE = "_membership_role_before_save"


@receiver(post_save, sender=Membership)
def membership_player(
    sender: type[Membership], instance: Membership, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """Every member can be seated: make sure the club has a player for them.

    A signal, because memberships are also made in the admin, and a member who cannot be
    registered for the club night would be a surprise there. Not while a backup is loaded
    (`raw`): the member's player is in it, and a second one would refuse to load.
    """
    if created and not raw:
        user = instance.user
        Player.objects.get_or_create(
            club_id=instance.club_id,
            user=user,
            defaults={"name": user.get_full_name() or user.get_username()},
        )


@receiver(user_logged_in)
def language_kept_on_sign_in(
    sender: Any, request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    """A language picked while signed out (in the cookie) is the latest choice: it wins over
    the stored one and becomes it, so signing in never switches the page's language."""
    if request is None or not hasattr(request, "session"):
        return
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if chosen not in dict(settings.LANGUAGES):
        return
    if chosen != user_language(user=user):
        profile_language_set(user=user, language=chosen)
    # The middleware's cache for this session, filled now so it never holds the old choice.
    remember_language(request, chosen, user_id=user.pk)


@receiver(post_save, sender=Club, dispatch_uid="tournaments.signals.club_language_saved")
def club_language_saved(
    sender: type[Club],
    instance: Club,
    created: bool,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """The kept language of the club's pages and table links follows its new setting (a
    save of other fields, as the members' recount, keeps it)."""
    if update_fields is None or {"language", "slug"} & set(update_fields):
        club_language_forget(club=instance, tables=not created)  # a new club has none


@receiver(post_delete, sender=Club, dispatch_uid="tournaments.signals.club_language_deleted")
def club_language_deleted(sender: type[Club], instance: Club, **kwargs: Any) -> None:
    club_language_forget(club=instance, tables=False)  # its tables went before it


# The role history's safety net. The membership services record each change with the person
# who made it; a change made around them (the shell, a script, a data fix) is recorded here,
# by no one. A service marks the membership it saves, so nothing is recorded twice.
# QuerySet.update() and bulk_create() send no signals: nothing on the site uses them on
# memberships, and nothing should.


def _recorded_by_a_service(instance: Membership) -> bool:
    return bool(instance.__dict__.get(HISTORY_RECORDED))


@receiver(pre_save, sender=Membership)
def membership_role_before_save(
    sender: type[Membership], instance: Membership, raw: bool, **kwargs: Any
) -> None:
    if raw or instance.pk is None or _recorded_by_a_service(instance):
        return
    instance.__dict__[_ROLE_BEFORE] = (
        Membership.objects.filter(pk=instance.pk).values_list("role", flat=True).first()
    )


@receiver(post_save, sender=Membership)
def membership_saved_history(
    sender: type[Membership], instance: Membership, created: bool, raw: bool, **kwargs: Any
) -> None:
    old_role = instance.__dict__.pop(_ROLE_BEFORE, None) or ""
    # Loading a fixture restores history rather than making it.
    if raw or _recorded_by_a_service(instance) or (old_role == instance.role and not created):
        return
    membership_change_record(
        club_id=instance.club_id,
        user_id=instance.user_id,
        by=None,
        old_role="" if created else old_role,
        new_role=instance.role,
    )


@receiver(post_delete, sender=Membership)
def membership_deleted_history(
    sender: type[Membership], instance: Membership, origin: Any = None, **kwargs: Any
) -> None:
    if _recorded_by_a_service(instance):
        return
    # Deleted along with its club or its account: not a change within the club. The club's
    # history goes with the club; an account's rows stay, with no user. Recording here would
    # also point a new row at the club or account being deleted.
    deleted_itself = isinstance(origin, Membership) or (
        isinstance(origin, QuerySet) and origin.model is Membership
    )
    if not deleted_itself:
        return
    membership_change_record(
        club_id=instance.club_id,
        user_id=instance.user_id,
        by=None,
        old_role=instance.role,
        new_role="",
    )
