"""Everything kept about a person, as plain JSON-ready values (the "download my data").

`player_data` is one player of a club (what its director can hand to a player without an
account); `person_data` is an account: the account, its memberships and role changes, and
each of its players in every club, with the deals the account entered or changed. Each
reads a fixed number of queries per player, however many events they played.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from scoring.models import DealVersion, PinAttempt
from tournaments.models import (
    Erasure,
    Invitation,
    Membership,
    MembershipChange,
    Player,
    Registration,
    Seat,
)
from tournaments.privacy import record_public


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def player_data(*, player: Player) -> dict[str, Any]:
    """What the site keeps about `player`: the player row, registrations, and every seat
    with the table's deals' points for that seat (their results)."""
    registrations = Registration.objects.filter(player=player).select_related("event")
    seats = (
        Seat.objects.filter(player=player)
        .select_related("table__stage__event")
        .prefetch_related("table__deals")
        .order_by("table__stage__event__date", "table__stage__number", "table__number")
    )
    erasure = Erasure.objects.filter(player=player).first()
    return {
        "club": player.club.name,
        "player_id": player.pk,
        "name": player.name,
        "guest": player.guest,
        "home_club": player.home_club,
        "record_hidden": player.record_hidden,
        "record_public": record_public(player=player),
        "erased_at": _when(erasure.at) if erasure else None,
        "registrations": [
            {
                "event": r.event.name,
                "date": _when(r.event.date),
                "status": r.status,
                "late": r.late,
                "registered_at": _when(r.registered_at),
                "checked_in_at": _when(r.checked_in_at),
            }
            for r in registrations
        ],
        "seats": [_seat(seat) for seat in seats],
    }


def _seat(seat: Seat) -> dict[str, Any]:
    table = seat.table
    deals = sorted(table.deals.all(), key=lambda deal: deal.number)
    return {
        "event": table.stage.event.name,
        "date": _when(table.stage.event.date),
        "game": table.stage.event.variant_id,
        "stage": table.stage.number,
        "table": table.number,
        "seat": seat.position + 1,
        "first_dealer": seat.is_first_dealer,
        "pin": seat.pin,
        "deals": [
            {
                "number": deal.number,
                "status": deal.status,
                "points": _seat_points(deal.points, seat.position),
            }
            for deal in deals
        ],
    }


def _seat_points(points: Any, position: int) -> Any:
    # A deal keeps its points per seat, in seat order (scoring.models.Deal.points).
    if isinstance(points, list) and position < len(points):
        return points[position]
    return points


def person_data(*, user: User) -> dict[str, Any]:
    """What the site keeps about the account `user` and each of its players."""
    memberships = Membership.objects.filter(user=user).select_related("club")
    changes = MembershipChange.objects.filter(Q(user=user) | Q(changed_by=user)).select_related(
        "club", "user", "changed_by"
    )
    versions = (
        DealVersion.objects.filter(by_user=user)
        .select_related("deal__table__stage__event")
        .order_by("created_at", "pk")
    )
    players = Player.objects.filter(user=user).select_related("club").order_by("club__name")
    # Invitations sent to the person's address or accepted by them; the link is left out
    # (a credential, and an accepted one works no more).
    invitations = Invitation.objects.filter(
        Q(accepted_by=user) | (Q(email__iexact=user.email) if user.email else Q(pk__in=[]))
    ).select_related("club")
    profile = getattr(user, "profile", None)
    return {
        "account": {
            "username": user.get_username(),
            "first_name": user.first_name,
            "last_name": user.last_name,
            "email": user.email,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
            "language": profile.language if profile else "",
        },
        "memberships": [
            {"club": m.club.name, "role": m.role, "joined_at": _when(m.joined_at)}
            for m in memberships
        ],
        "role_changes": [
            {
                "club": c.club.name,
                "member_is_you": c.user_id == user.pk,
                "changed_by_you": c.changed_by_id == user.pk,
                "old_role": c.old_role,
                "new_role": c.new_role,
                "at": _when(c.changed_at),
            }
            for c in changes
        ],
        "players": [player_data(player=player) for player in players],
        "invitations": [
            {
                "club": i.club.name,
                "email": i.email,
                "role": i.role,
                "sent_at": _when(i.created_at),
                "accepted_at": _when(i.accepted_at),
                "revoked_at": _when(i.revoked_at),
            }
            for i in invitations
        ],
        "deals_entered_or_changed": [
            {
                "event": v.deal.table.stage.event.name,
                "stage": v.deal.table.stage.number,
                "table": v.deal.table.number,
                "deal": v.deal.number,
                "version": v.version,
                "action": v.action,
                "seat": v.by_seat + 1 if v.by_seat is not None else None,
                "device": v.device,
                "note": v.note,
                "at": _when(v.created_at),
            }
            for v in versions
        ],
        "pin_attempts": [
            {"table": a.table_id, "seat": a.position + 1, "outcome": a.outcome, "at": _when(a.at)}
            for a in PinAttempt.objects.filter(by_user=user)
        ],
    }
