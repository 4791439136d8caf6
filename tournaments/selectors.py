"""Reads for clubs, people and roles: querysets or plain values, never writes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.utils.translation import gettext

from core.i18n import violation_text
from rules import RuleViolation, game_spec
from rules.i18n import _
from tournaments.engine.draw import TableBounds
from tournaments.engine.late import LatePlacement, OpenTable, late_placement
from tournaments.models import (
    BEFORE_PLACE,
    PLACE_HOLDING,
    Club,
    Event,
    EventStatus,
    ImportedResult,
    Invitation,
    Membership,
    MembershipChange,
    Player,
    Profile,
    Registration,
    RegistrationStatus,
    Role,
    Season,
    Seat,
    Stage,
    StageStatus,
    Table,
)
from tournaments.names import name_key
from tournaments.privacy import public_records_filter
from tournaments.visibility import public_events_q


def user_language(*, user: User | AnonymousUser) -> str:
    if not user.is_authenticated:
        return ""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def club_list() -> QuerySet[Club]:
    return Club.objects.order_by("name")


def club_membership(*, club: Club, user: User | AnonymousUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def club_members(*, club: Club) -> QuerySet[Membership]:
    return (
        Membership.objects.filter(club=club)
        .select_related("user")
        .order_by("user__last_name", "user__first_name", "user__username")
    )


def club_role_counts(*, club: Club) -> dict[str, int]:
    counts = {role.value: 0 for role in Role}
    for role in Membership.objects.filter(club=club).values_list("role", flat=True):
        counts[role] += 1
    return counts


def event_registrations(*, event: Event) -> QuerySet[Registration]:
    """The event's entrants and those gone since (a self-registration still waiting to be
    confirmed, approved or given a place is on the registration list, not here)."""
    return (
        event.registrations.exclude(status__in=BEFORE_PLACE)
        .select_related("player")
        .order_by("status", "player__name")
    )


def registerable_players(
    *, event: Event, past_guests: bool = False, search: str = ""
) -> QuerySet[Player]:
    """The players the director may check in: the club's, not registered for this event (a
    withdrawn one may come back), the club's own players first, then guests.

    A guest is typed in at one event's check-in; the guests of other events would bury the
    club's own players in a long list, so they are offered only when asked (`past_guests`).
    `search` narrows the list by name, accents, case and spacing ignored (`name_key`); a
    search always looks among past guests too: a regular typed in as a guest once is the
    person the director is looking for, not a new one.
    """
    registered = Registration.objects.filter(event=event)
    taken = registered.filter(status__in=PLACE_HOLDING)
    # A player merged into another is that other player now (tournaments.merge).
    players = Player.objects.filter(club=event.club, merged_into__isnull=True).exclude(
        pk__in=taken.values("player_id")
    )
    key = name_key(search)
    if not (past_guests or key):
        players = players.filter(Q(guest=False) | Q(pk__in=registered.values("player_id")))
    if key:
        players = players.filter(name_key__contains=key)
    return players.order_by("guest", "name", "pk")


def registered_player_ids(*, event: Event) -> QuerySet[Registration, int]:
    """The players holding a place at the event (a withdrawn or waitlisted one is not)."""
    return Registration.objects.filter(event=event, status__in=PLACE_HOLDING).values_list(
        "player_id", flat=True
    )


def past_guest_count(*, event: Event) -> int:
    """How many guests of other events the picker leaves out until asked."""
    registered = Registration.objects.filter(event=event).values("player_id")
    return (
        Player.objects.filter(club=event.club, guest=True, merged_into__isnull=True)
        .exclude(pk__in=registered)
        .count()
    )


@dataclass
class PlayerPicker:
    """What the manage page's "Add a player" list offers, in two groups."""

    own: list[Player]
    guests: list[Player]
    # Guests of other events left out (offered with `past_guests`).
    hidden_guests: int


def player_picker(*, event: Event, past_guests: bool = False, search: str = "") -> PlayerPicker:
    """The picker's players in two queries, however many the club has."""
    players = list(registerable_players(event=event, past_guests=past_guests, search=search))
    return PlayerPicker(
        own=[player for player in players if not player.guest],
        guests=[player for player in players if player.guest],
        hidden_guests=0 if past_guests else past_guest_count(event=event),
    )


# (This section's import stays with it while others edit the top of the file.)


def club_role_history(*, club: Club) -> QuerySet[MembershipChange]:
    """Every membership added, re-roled or removed in the club, newest first."""
    return (
        MembershipChange.objects.filter(club=club)
        .select_related("user", "changed_by")
        .order_by("-changed_at", "-pk")
    )


def stage_current(*, event: Event) -> Stage | None:
    """The event's latest stage (being drawn, seated or finished), or None before a draw."""
    return event.stages.order_by("-number").first()


def stage_in_play(*, event: Event) -> Stage | None:
    """The latest stage that has been seated (its tables play, or have played): the one the
    results show. A draw still in preview is the director's alone."""
    return (
        event.stages.filter(status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED])
        .select_related("event")
        .order_by("-number")
        .first()
    )


def stage_is_frozen(*, stage: Stage) -> bool:
    """Whether the stage's draw stands: a score has been entered at one of its tables. The
    one rule for the services that redraw or swap and for the page that offers them."""
    return stage.tables.filter(has_scores=True).exists()


def event_table_bounds(*, event: Event) -> TableBounds:
    """The game's table sizes (its spec: Gin head to head, the others 3 to 6; a table of 2
    is only ever a championship's last stage, never a first draw), around the event's
    preferred size."""
    sizes = game_spec(event.variant).table_sizes(event.variant, event.preferred_table_size)
    return TableBounds(min_size=sizes.min_size, max_size=sizes.max_size, preferred=sizes.preferred)


def stage_bounds(*, stage: Stage) -> TableBounds:
    """The table sizes the stage was drawn with."""
    sizes = stage.format.get("table_sizes") if stage.format else None
    if not isinstance(sizes, dict):
        return event_table_bounds(event=stage.event)  # drawn before stages kept their format
    return TableBounds(min_size=sizes["min"], max_size=sizes["max"], preferred=sizes["preferred"])


def stage_draw_refusal(*, event: Event, stage: Stage | None) -> RuleViolation | None:
    """Why the event's plain draw may not draw (again) now, or None: the one rule for the
    service and the manage page's button. Head-to-head rounds are paired, a series' later
    rounds are drawn as rounds. (Once a score exists the draw stands as well: the service
    checks that under its locks.)"""
    if event.spec.imported:
        return RuleViolation(
            _("An imported event has no tables: its results came from the club's records."),
            code="draw_imported",
        )
    if event.spec.plain_draw == "never":
        return RuleViolation(
            _("Head-to-head rounds are paired under Rounds, not drawn."), code="draw_paired"
        )
    if event.spec.plain_draw == "first" and stage is not None and stage.number > 1:
        return RuleViolation(
            _("A series' later rounds are drawn under its rounds, not here."), code="draw_round"
        )
    return None


def event_draw_state(*, event: Event) -> dict[str, Any]:
    """What the manage page shows of the draw: the current stage, its tables while it is a
    preview, how many are checked in, and whether drawing (again) is still allowed."""
    stage = stage_current(event=event)
    preview = stage is not None and stage.status == StageStatus.PREVIEW
    tables = Table.objects.filter(stage=stage).prefetch_related("seats__player").order_by("number")
    return {
        "stage": stage,
        # Head-to-head rounds show their own preview (a swap would break the schedule).
        "preview_tables": list(tables) if preview and not event.spec.paired else [],
        "checked_in": event.registrations.filter(status=RegistrationStatus.CHECKED_IN).count(),
        # A draw may be redone (say, for a late arrival) until the first score exists.
        "can_draw": stage_draw_refusal(event=event, stage=stage) is None
        and (stage is None or not stage_is_frozen(stage=stage)),
    }


def club_events(*, club: Club, with_private: bool = False) -> QuerySet[Event]:
    """The club's events for its page, newest first: the published ones, and the private
    ones too when the reader may see them (`with_private`: the club's scorers and directors,
    who run its nights)."""
    events = club.events.select_related("season")
    if not with_private:
        events = events.filter(public_events_q())
    return events.order_by("-date", "name")


def events_upcoming(events: QuerySet[Event], *, today: datetime.date) -> QuerySet[Event]:
    """Of `events`, those still to be played or in play: from today on, not finished."""
    return events.filter(date__gte=today).exclude(status=EventStatus.FINISHED)


def events_past(events: QuerySet[Event], *, today: datetime.date) -> QuerySet[Event]:
    """Of `events`, those before today, and any finished already (a night over early)."""
    return events.filter(Q(date__lt=today) | Q(status=EventStatus.FINISHED))


def _club_events_filtered(
    *, club: Club, game: str = "", season: Season | None = None, with_private: bool = False
) -> QuerySet[Event]:
    events = club_events(club=club, with_private=with_private)
    if game:
        events = events.filter(variant_id=game)
    if season is not None:
        events = events.filter(season=season)
    return events


def club_events_upcoming(
    *,
    club: Club,
    today: datetime.date,
    game: str = "",
    season: Season | None = None,
    with_private: bool = False,
) -> QuerySet[Event]:
    """The club's published events still to be played or in play (the private ones too
    with `with_private`)."""
    events = _club_events_filtered(club=club, game=game, season=season, with_private=with_private)
    return events_upcoming(events, today=today)


def club_events_past(
    *,
    club: Club,
    today: datetime.date,
    game: str = "",
    season: Season | None = None,
    with_private: bool = False,
) -> QuerySet[Event]:
    """The club's published events before today, and any finished already (the private
    ones too with `with_private`)."""
    events = _club_events_filtered(club=club, game=game, season=season, with_private=with_private)
    return events_past(events, today=today)


def club_seasons(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, newest first, each with how many published events it holds."""
    published = Count("events", filter=public_events_q("events"))
    return (
        Season.objects.filter(club=club)
        .annotate(published_events=published)
        .order_by("-starts_on", "name")
    )


def club_public_players(*, club: Club) -> QuerySet[Player]:
    """The players with a public record in the club (tournaments.privacy's rule): seated
    (the draw confirmed) at one of its published events; each with how many such events."""
    public_seats = public_events_q("seats__table__stage__event") & Q(
        seats__table__stage__status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED],
    )
    seated = Seat.objects.filter(
        public_events_q("table__stage__event"),
        table__stage__event__club=club,
        table__stage__status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED],
    )
    # An imported result is an event played too (it has no seat).
    imported = ImportedResult.objects.filter(public_events_q("event"), event__club=club)
    players = club.players.filter(
        public_records_filter(club=club),
        Q(pk__in=seated.values("player_id")) | Q(pk__in=imported.values("player_id")),
        merged_into__isnull=True,
    )
    events = Count("seats__table__stage__event", filter=public_seats, distinct=True)
    imported_events = Count(
        "imported_results__event",
        filter=public_events_q("imported_results__event"),
        distinct=True,
    )
    return players.annotate(public_events=events + imported_events).order_by("name", "pk")


# -- late arrivals ------------------------------------------------------------------------------


def stage_takes_late_arrivals(*, stage: Stage) -> bool:
    """Whether players checked in after the draw may be seated at `stage`: it is the event's
    latest stage, seated (a draw still in preview is simply drawn again), and the event is
    not finished. The one rule for the service that seats them and the page that offers it."""
    return (
        stage.status == StageStatus.CONFIRMED
        and stage.event.status != EventStatus.FINISHED
        and not Stage.objects.filter(event_id=stage.event_id, number__gt=stage.number).exists()
    )


def stage_unseated(*, stage: Stage) -> QuerySet[Registration]:
    """The event's checked-in players without a seat at `stage`, in the order they came.
    A head-to-head round's bye (`stage.format["bye"]`) sits out by the pairing: not waiting."""
    bye = stage.format.get("bye") if isinstance(stage.format, dict) else None
    return (
        Registration.objects.filter(event_id=stage.event_id, status=RegistrationStatus.CHECKED_IN)
        .exclude(player__seats__table__stage=stage)
        .exclude(player_id__in=[bye] if isinstance(bye, int) else [])
        .select_related("player")
        .order_by("checked_in_at", "pk")
    )


@dataclass
class LateTable:
    """A table of the late arrivals' preview: who sits there now and who would join."""

    number: int
    seated: list[str]
    joining: list[str]
    new: bool = False


@dataclass
class LateArrivals:
    """The manage page's late arrivals: who waits, where they may sit, where they would."""

    stage: Stage
    bounds: TableBounds
    waiting: list[Registration]
    # Whether the stage takes late arrivals (`stage_takes_late_arrivals`); if not (a draw
    # in preview), the page only says who waits, and drawing again seats them.
    seatable: bool
    # Why seating them needs the director's override (`late_entry_refusal`), if it does.
    needs_override: RuleViolation | None = None
    # The tables a late arrival may join (no deal played, a chair free), seats prefetched.
    tables: list[Table] = field(default_factory=list)
    # The numbers new tables would get: as many as the late arrivals could fill.
    new_numbers: list[int] = field(default_factory=list)
    # The proposed placement, by player id and table id.
    proposal: LatePlacement[int] = field(default_factory=LatePlacement)

    @property
    def override_note(self) -> str:
        """Why seating them needs the override, in the reader's language ("" if it does not)."""
        return violation_text(self.needs_override) if self.needs_override else ""

    def _names(self, players: list[int]) -> list[str]:
        names = {registration.player_id: registration.player.name for registration in self.waiting}
        return [names[player] for player in players]

    @property
    def preview(self) -> list[LateTable]:
        """The tables the proposal changes, as they would then be seated."""
        rows = []
        for table in self.tables:
            joining = [player for player, key in self.proposal.joins.items() if key == table.pk]
            if joining:
                seated = [seat.player.name for seat in table.seats.all()]
                rows.append(LateTable(table.number, seated, self._names(joining)))
        for number, group in zip(self.new_numbers, self.proposal.new_tables, strict=False):
            rows.append(LateTable(number, [], self._names(group), new=True))
        return rows

    @property
    def still_waiting(self) -> list[str]:
        """Who the proposal leaves waiting (no table can take them yet)."""
        return self._names(self.proposal.waiting)


def late_entry_refusal(*, stage: Stage) -> RuleViolation | None:
    """Why a late entry is not seated at `stage` without the director's override, or None:
    a table-winner championship takes new players at its first stage only (later stages
    are for who went on). The rule for the seating service and the manage page's form."""
    if stage.number > 1 and stage.event.spec.later_stages_entrants_only:
        return RuleViolation(
            _(
                "A late entry joins a championship at stage 1 only. Tick “Seat past stage 1 "
                "anyway” to seat them here; your name is recorded with the seat."
            ),
            code="late_entry_past_first_stage",
        )
    return None


def late_arrivals(*, event: Event) -> LateArrivals | None:
    """The players checked in after the draw who have no seat yet, and a proposed placement
    (`tournaments.engine.late`), or None when nobody waits. Five queries, however big the event."""
    stage = stage_current(event=event)
    if stage is None:
        return None
    stage.event = event
    unseated = stage_unseated(stage=stage)
    if stage.number > 1 and event.spec.later_stages_entrants_only:
        # A later stage seats who went on; those knocked out wait for nothing. Only a late
        # entry, never seated at this event, waits for a seat.
        unseated = unseated.exclude(player__seats__table__stage__event_id=event.pk)
    waiting = list(unseated)
    if not waiting:
        return None
    bounds = stage_bounds(stage=stage)
    if not stage_takes_late_arrivals(stage=stage):
        if stage.status != StageStatus.PREVIEW or event.status == EventStatus.FINISHED:
            return None  # the evening's play is over: nobody is waiting for a seat now
        return LateArrivals(stage=stage, bounds=bounds, waiting=waiting, seatable=False)
    seats = Seat.objects.select_related("player").order_by("position")
    tables = [
        table
        for table in Table.objects.filter(stage=stage, has_scores=False)
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
        if len(table.seats.all()) < bounds.max_size
    ]
    last = Table.everything.filter(stage=stage).aggregate(last=Max("number"))["last"] or 0
    open_tables = [OpenTable(table.pk, table.number, len(table.seats.all())) for table in tables]
    return LateArrivals(
        stage=stage,
        bounds=bounds,
        waiting=waiting,
        seatable=True,
        needs_override=late_entry_refusal(stage=stage),
        tables=tables,
        new_numbers=list(range(last + 1, last + 1 + len(waiting) // bounds.min_size)),
        proposal=late_placement([r.player_id for r in waiting], open_tables, bounds),
    )


def event_format_rows(*, event: Event) -> list[tuple[str, str]]:
    """The event's format and its options in plain words, for its public and manage pages
    (the reader's language): what a player needs to know about how the event runs."""
    spec = event.spec
    return [
        (gettext("Format"), spec.label),
        *spec.describe(spec.option_values(event.format_options)),
    ]


def club_invitations(*, club: Club) -> QuerySet[Invitation]:
    """The club's invitations, newest first, with what their rows show."""
    return (
        Invitation.objects.filter(club=club)
        .select_related("player", "accepted_by")
        .order_by("-created_at", "-pk")
    )


def club_players_without_account(*, club: Club) -> QuerySet[Player]:
    """The club's players an invitation may hand to an account: its own first, then guests."""
    return Player.objects.filter(club=club, user__isnull=True, merged_into__isnull=True).order_by(
        "guest", "name"
    )
