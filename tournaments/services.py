"""Writes for clubs, people and roles. One service per write, keyword-only arguments."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from rules import RuleViolation, get_variant
from rules.i18n import _
from tournaments.draw import TableBounds, draw_tables
from tournaments.models import (
    Club,
    Event,
    EventStatus,
    Player,
    Profile,
    Registration,
    RegistrationStatus,
    Season,
    Seat,
    Stage,
    StageStatus,
    Table,
    new_entry_key,
)
from tournaments.selectors import club_members


def profile_language_set(*, user: AbstractBaseUser, language: str) -> Profile:
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")  # the form has already refused it
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"language": language})
    return profile


def club_stats_refresh(*, club_id: int) -> int:
    """Recount a club's members. Safe to run twice: it only ever writes the current count."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club_id)
        club.member_count = club_members(club=club).count()
        club.stats_refreshed_at = timezone.now()
        club.save(update_fields=["member_count", "stats_refreshed_at"])
    return club.member_count


def club_stats_request(*, club: Club) -> str:
    """Queue a recount once the current transaction commits; return the task id to poll."""
    from celery import uuid

    from tournaments.tasks import club_stats_refresh_task

    task_id = uuid()
    transaction.on_commit(
        lambda: club_stats_refresh_task.apply_async(args=[club.pk], task_id=task_id)
    )
    return task_id


# -- events, registration, draw ---------------------------------------------------------------


def event_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    variant_id: str,
    options: dict[str, object] | None = None,
    venue: str = "",
    season: Season | None = None,
    preferred_table_size: int = 4,
) -> Event:
    """Create an event with its rules fixed now (RuleViolation on a bad option)."""
    variant = get_variant(variant_id, **(options or {}))
    return Event.objects.create(
        club=club,
        season=season,
        name=name,
        date=date,
        venue=venue,
        variant_id=variant.id,
        variant_options=variant.to_dict(),
        preferred_table_size=preferred_table_size,
    )


def player_for_user(*, club: Club, user: AbstractBaseUser) -> Player:
    player, _created = Player.objects.get_or_create(
        club=club, user=user, defaults={"name": user.get_full_name() or user.get_username()}
    )
    return player


def registration_add(*, event: Event, player: Player, checked_in: bool = False) -> Registration:
    """Register a player; after the draw a newcomer counts as late. Re-registering revives."""
    if player.club_id != event.club_id:
        raise ValueError("a player registers only for its own club's events")
    now = timezone.now()
    late = event.stages.exists()
    registration, created = Registration.objects.get_or_create(
        event=event,
        player=player,
        defaults={
            "status": RegistrationStatus.CHECKED_IN
            if checked_in
            else RegistrationStatus.REGISTERED,
            "late": late,
            "checked_in_at": now if checked_in else None,
        },
    )
    if not created and registration.status == RegistrationStatus.WITHDRAWN:
        registration.status = (
            RegistrationStatus.CHECKED_IN if checked_in else RegistrationStatus.REGISTERED
        )
        registration.late = late
        registration.save(update_fields=["status", "late"])
    return registration


def registration_guest_add(*, event: Event, name: str, checked_in: bool = True) -> Registration:
    player = Player.objects.create(club=event.club, name=name.strip())
    return registration_add(event=event, player=player, checked_in=checked_in)


def registration_status_set(*, registration: Registration, status: str) -> Registration:
    registration.status = RegistrationStatus(status)
    if registration.status == RegistrationStatus.CHECKED_IN:
        registration.checked_in_at = timezone.now()
        registration.late = registration.event.stages.exists()
    registration.save(update_fields=["status", "checked_in_at", "late"])
    return registration


def _table_bounds(event: Event) -> TableBounds:
    """Gin Römi is head to head; every other game seats 3 to 6 (a table of 2 is only ever a
    championship's last stage, never a first draw), within what the variant allows."""
    variant = event.variant
    if variant.max_players == 2:
        return TableBounds(min_size=2, max_size=2, preferred=2)
    low, high = max(3, variant.min_players), min(6, variant.max_players)
    preferred = min(max(event.preferred_table_size, low), high)
    return TableBounds(min_size=low, max_size=high, preferred=preferred)


def _seat_stage(stage: Stage, player_ids: list[int]) -> None:
    tables = draw_tables(player_ids, _table_bounds(stage.event), seed=stage.seed)
    created = Table.objects.bulk_create(
        [Table(stage=stage, number=number) for number in range(1, len(tables) + 1)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, player_id=player_id, position=position, is_first_dealer=position == 0)
            for table, players in zip(created, tables, strict=True)
            for position, player_id in enumerate(players)
        ]
    )


@transaction.atomic
def stage_draw(*, event: Event, seed: int | None = None) -> Stage:
    """Draw (or redraw) the event's first stage from the checked-in players, as a preview.

    A redraw is allowed until the first score exists; the new seed is stored with the stage.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    player_ids = list(
        event.registrations.filter(status=RegistrationStatus.CHECKED_IN).values_list(
            "player_id", flat=True
        )
    )
    stage = event.stages.filter(number=1).first()
    if stage is not None:
        _refuse_if_scored(stage)
        stage.tables.all().delete()
    seed = secrets.randbelow(2**31) if seed is None else seed
    if stage is None:
        stage = Stage.objects.create(event=event, number=1, seed=seed)
    else:
        stage.seed = seed
        stage.status = StageStatus.PREVIEW
        stage.save(update_fields=["seed", "status"])
    _seat_stage(stage, player_ids)
    return stage


def _refuse_if_scored(stage: Stage) -> None:
    from scoring.models import Deal

    if Deal.objects.filter(table__stage=stage).exists():
        raise RuleViolation(
            _("Scores have been entered at this stage: the draw can no longer change."),
            code="draw_has_scores",
        )


@transaction.atomic
def stage_confirm(*, stage: Stage) -> Stage:
    stage.status = StageStatus.CONFIRMED
    stage.save(update_fields=["status"])
    Event.objects.filter(pk=stage.event_id).update(status=EventStatus.RUNNING)
    return stage


@transaction.atomic
def seat_swap(*, first: Seat, second: Seat) -> None:
    """Swap two players between seats (at one table or two). Refused once scores exist."""
    _refuse_if_scored(first.table.stage)
    a = Seat.objects.select_for_update().get(pk=first.pk)
    b = Seat.objects.select_for_update().get(pk=second.pk)
    if a.table_id == b.table_id:
        # Same table: swap positions, through a free number so no constraint sees a clash.
        a_pos, b_pos = a.position, b.position
        Seat.objects.filter(pk=a.pk).update(position=32767)
        Seat.objects.filter(pk=b.pk).update(position=a_pos, is_first_dealer=a.is_first_dealer)
        Seat.objects.filter(pk=a.pk).update(position=b_pos, is_first_dealer=b.is_first_dealer)
    else:
        Seat.objects.filter(pk=a.pk).update(player_id=b.player_id)
        Seat.objects.filter(pk=b.pk).update(player_id=a.player_id)


def table_key_revoke(*, table: Table) -> Table:
    """Give the table a new private link; the old one stops working at once."""
    table.entry_key = new_entry_key()
    table.save(update_fields=["entry_key"])
    return table
