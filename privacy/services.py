"""Erasing a person who asks: the name goes, the results stay.

An erased player is renamed "Former player N" (N counted per club, `Erasure.number`), in
the club's language, and keeps every registration, seat and deal: no standings, league
table or record changes but for the name. Their account (with its e-mail address) is
deleted. Every stored copy that held the old name is rewritten or dropped in the same
transaction: a championship stage's stored outcome, tie-break notes, the season's stored
league table (recomputed), the club's print jobs of those events (deleted with their
files, made again on the next print), the admin's log entries and the sign-in attempts
kept under the account's user name. The erasure is recorded without the name.
"""

from __future__ import annotations

import re
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Max, Q
from django.utils import translation
from django.utils.translation import gettext

from leagues.services import league_recompute
from printing.models import PrintJob
from rules import RuleViolation
from rules.i18n import _
from scoring.models import DealVersion
from tournaments.models import Club, Erasure, Event, Membership, Player, Role, Stage, TieBreak
from tournaments.names import name_key
from tournaments.privacy import announce_player_changed, player_events
from tournaments.services import membership_owner_refusal


def erased_name(*, club: Club, number: int) -> str:
    """What an erased player is called, in the club's language (a name is stored once)."""
    with translation.override(club.language):
        return gettext("Former player %(number)d") % {"number": number}


def account_erase_refusal(*, user_id: int) -> RuleViolation | None:
    """Why the account `user_id` may not be deleted now (None: it may): a club it is the
    only owner of would be left with none (the owners' rule, tournaments.services)."""
    owned = Membership.objects.filter(user_id=user_id, role=Role.OWNER).select_related("club")
    for membership in owned:
        if membership_owner_refusal(club_id=membership.club_id, losing={membership.pk}):
            return RuleViolation(
                _(
                    "The account is the only owner of %(club)s: make another member an owner "
                    "first, then erase it."
                ),
                code="last_owner",
                club=membership.club.name,
            )
    return None


def erase_refusal(*, player: Player, by: User) -> RuleViolation | None:
    """Why `by` may not erase `player` now (None: they may). The one rule for the service
    and for the page that offers the button. An account with players in other clubs is
    the person's to erase (from "My data"): a club's director cannot delete it."""
    if hasattr(player, "erasure"):
        return RuleViolation(_("This player has been erased already."), code="erased")
    account = player.user_id
    if account is None:
        return None
    if account != by.pk and Player.objects.filter(user_id=account).exclude(pk=player.pk).exists():
        return RuleViolation(
            _(
                "This player's account plays in other clubs too: only the person can erase it, "
                "from the My data page of their account."
            ),
            code="erase_refused",
        )
    return account_erase_refusal(user_id=account)


def player_erase(*, player: Player, by: User, confirmed: bool) -> Erasure:
    """Erase `player` (see the module). The account goes too: when the account is
    `by`'s own, with every player it has (`person_erase`)."""
    if not confirmed:
        raise RuleViolation(_("Confirm the erasure first."), code="not_confirmed")
    player = Player.objects.select_related("club").get(pk=player.pk)  # as it is now
    refusal = erase_refusal(player=player, by=by)
    if refusal is not None:
        raise refusal
    if player.user_id is not None and player.user_id == by.pk:
        return person_erase(user=by, confirmed=True)[0]
    with transaction.atomic():
        erasure = _erase(player, by=by)
        if player.user_id is not None:
            _account_delete(User.objects.get(pk=player.user_id))
    _leagues_recompute(erasure.player)
    return erasure


def person_erase(*, user: User, confirmed: bool) -> list[Erasure]:
    """Erase the person signed in as `user`: each of their players, in every club, then
    their account."""
    if not confirmed:
        raise RuleViolation(_("Confirm the erasure first."), code="not_confirmed")
    refusal = account_erase_refusal(user_id=user.pk)
    if refusal is not None:
        raise refusal
    with transaction.atomic():
        players = Player.objects.select_related("club").filter(user=user, erasure__isnull=True)
        erasures = [_erase(player, by=None) for player in players]
        _account_delete(user)
    for erasure in erasures:
        _leagues_recompute(erasure.player)
    return erasures


def _erase(player: Player, *, by: User | None) -> Erasure:
    # The club's row is the lock that keeps its erasure numbers apart.
    club = Club.objects.select_for_update().get(pk=player.club_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    number = (club.erasures.aggregate(top=Max("number"))["top"] or 0) + 1
    old, new = player.name, erased_name(club=club, number=number)
    # A duplicate merged into the player is the same person under the old name: it goes too.
    Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player)).update(
        name=new, name_key=name_key(new), home_club="", record_hidden=False
    )
    erasure = Erasure.objects.create(club=club, player=player, number=number, by=by)
    player.name, player.home_club = new, ""
    events = player_events(player=player)
    _stored_copies_rename(player, events, old=old, new=new)
    _print_jobs_delete(events)
    announce_player_changed(player=player)
    erasure.player = player
    return erasure


def _stored_copies_rename(player: Player, events: list[int], *, old: str, new: str) -> None:
    """Rewrite the copies of the name stored with results: a stage's outcome names each
    player beside their id; notes are free text and may name anyone."""
    for stage in Stage.objects.filter(event_id__in=events).exclude(outcome={}):
        outcome = _json_rename(stage.outcome, player.pk, new)
        if outcome != stage.outcome:
            Stage.objects.filter(pk=stage.pk).update(outcome=outcome)
    words = _word(old)
    notes: list[tuple[Any, str]] = [
        (TieBreak.objects.filter(stage__event_id__in=events), "note"),
        (DealVersion.objects.filter(deal__table__stage__event_id__in=events), "note"),
    ]
    for rows, column in notes:
        for pk, text in rows.filter(**{f"{column}__icontains": old}).values_list("pk", column):
            rows.model.objects.filter(pk=pk).update(**{column: words.sub(new, text)})
    kind = ContentType.objects.get_for_model(Player)
    LogEntry.objects.filter(content_type=kind, object_id=str(player.pk)).update(object_repr=new)


def _print_jobs_delete(events: list[int]) -> None:
    """The events' print jobs go with their files (a PDF holds the name): the next print
    makes them again, as after any results change."""
    for job in PrintJob.objects.filter(event_id__in=events):
        if job.file:
            job.file.delete(save=False)  # through the storage, as the housekeeping does
        job.delete()


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", flags=re.IGNORECASE)


def _json_rename(value: Any, player_id: int, new: str) -> Any:
    """`value` (stored JSON) with the name beside `player_id` replaced: in an object with
    "player" or "player_id" and "name", and in a pair [id, name]."""
    if isinstance(value, dict):
        renamed = {key: _json_rename(item, player_id, new) for key, item in value.items()}
        if "name" in renamed and player_id in (renamed.get("player"), renamed.get("player_id")):
            renamed["name"] = new
        return renamed
    if isinstance(value, list):
        if len(value) == 2 and value[0] == player_id and isinstance(value[1], str):
            return [player_id, new]
        return [_json_rename(item, player_id, new) for item in value]
    return value


def _account_delete(user: User) -> None:
    """The account and what is kept under its user name (sign-in attempts, the admin's
    log); the audit rows that point at it (deal versions, role changes) keep pointing at
    no one."""
    names = {user.get_username(), user.email} - {""}
    AccessAttempt.objects.filter(username__in=names).delete()
    AccessLog.objects.filter(username__in=names).delete()
    AccessFailureLog.objects.filter(username__in=names).delete()
    kind = ContentType.objects.get_for_model(User)
    LogEntry.objects.filter(content_type=kind, object_id=str(user.pk)).delete()
    user.delete()


def _leagues_recompute(player: Player) -> None:
    """The stored league tables naming the player, computed again now (not queued): no
    old name is left in them once the erasure returns."""
    seasons = Event.objects.filter(pk__in=player_events(player=player), season__isnull=False)
    for season_id in set(seasons.values_list("season_id", flat=True)):
        league_recompute(season_id=season_id)
