"""Writes for clubs, people and roles. One service per write, keyword-only arguments."""

from __future__ import annotations

import datetime
import secrets
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Count, Max, QuerySet
from django.utils import timezone

from core.db import locked_write
from rules import RuleViolation, get_variant
from rules.i18n import _, ngettext
from tournaments.changes import results_change
from tournaments.engine.tiebreaks import tie_break_precedence
from tournaments.event_formats import DEFAULT_FORMAT
from tournaments.models import (
    PLACE_HOLDING,
    Club,
    Event,
    EventFormat,
    EventStatus,
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
    new_entry_key,
)
from tournaments.names import name_clean
from tournaments.notices import table_notices_request
from tournaments.registration_log import registration_change_record, registration_status_change
from tournaments.roster import player_lookalikes
from tournaments.selectors import (
    club_members,
    event_table_bounds,
    late_entry_refusal,
    stage_bounds,
    stage_draw_refusal,
    stage_is_frozen,
    stage_takes_late_arrivals,
    stage_unseated,
)
from tournaments.visibility import is_public


def profile_language_set(*, user: User, language: str) -> Profile:
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


# -- events, registration, draw ---------------------------------------------------------------


def event_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    variant_id: str,
    options: dict[str, object] | None = None,
    venue: str = "",
    start_time: datetime.time | None = None,
    season: Season | None = None,
    preferred_table_size: int = 4,
    confirm_needs_pin: bool = False,
    format: str = DEFAULT_FORMAT,
    format_options: dict[str, object] | None = None,
    published: bool = False,
    tie_breaks: Sequence[str] = (),
) -> Event:
    """Create an event with its rules fixed now (RuleViolation on a bad option), and its
    format with the options chosen for it (the form has checked them), and its tie-break
    precedence (`tie_breaks`, empty: the game's usual order). It stays private until
    `event_publish` unless `published`. The engine's table tie order (`tie_order`) is no
    option of an event: its `tie_breaks` are the one order every output follows."""
    if options and "tie_order" in options:
        raise RuleViolation(
            _("An event breaks ties by its own tie-breaks; the game's tie order is not set."),
            code="tie_order",
            field="tie_order",
        )
    variant = get_variant(variant_id, **(options or {}))
    if refusal := season_refusal(season=season, club=club):
        raise refusal
    return Event.objects.create(
        published_at=timezone.now() if published else None,
        format=EventFormat(format),
        format_options=dict(format_options or {}),
        club=club,
        season=season,
        name=name,
        date=date,
        start_time=start_time,
        venue=venue,
        variant_id=variant.id,
        variant_options=variant.to_dict(),
        preferred_table_size=preferred_table_size,
        confirm_needs_pin=confirm_needs_pin,
        tie_breaks=list(tie_break_precedence(list(tie_breaks), game=variant.id))
        if tie_breaks
        else [],
    )


def event_publish(*, event: Event, published: bool) -> Event:
    """Show the event on the public pages (its results, feeds and the league table), or take
    it back private. Publishing again keeps the first publication's time."""
    if published and not is_public(event):
        event.published_at = timezone.now()
    elif not published:
        event.published_at = None
    Event.objects.filter(pk=event.pk).update(published_at=event.published_at)
    results_change(event_id=event.pk, reason="publication")
    return event


def registration_add(
    *,
    event: Event,
    player: Player,
    checked_in: bool = False,
    by: User | AnonymousUser | None = None,
) -> Registration:
    """Register a player (a director's doing: a place whatever the capacity); after the draw
    a newcomer counts as late. Re-registering revives one holding no place, waitlisted too."""
    if player.club_id != event.club_id:
        raise ValueError("a player registers only for its own club's events")
    if event.spec.imported:
        raise RuleViolation(
            _(
                "An imported event takes no registrations: its results came from the club's records."
            ),
            code="registration_imported",
        )
    now = timezone.now()
    late = event.stages.exists()
    status = RegistrationStatus.CHECKED_IN if checked_in else RegistrationStatus.REGISTERED
    registration, created = Registration.objects.get_or_create(
        event=event,
        player=player,
        defaults={"status": status, "late": late, "checked_in_at": now if checked_in else None},
    )
    if created:
        registration_change_record(registration=registration, old_status="", by=by)
        return registration
    if registration.status in PLACE_HOLDING:
        return registration
    registration.late = late
    registration.waitlisted_at = None
    return registration_status_change(
        registration=registration, status=status, by=by, fields=["late", "waitlisted_at"]
    )


def registration_guest_add(
    *,
    event: Event,
    name: str,
    checked_in: bool = True,
    home_club: str = "",
    new_person: bool = False,
    by: User | AnonymousUser | None = None,
) -> Registration:
    """Register a guest by name. A name that looks like one of the club's players (a past
    guest too) is refused (code "lookalike") unless `new_person`: the director is shown who
    it may be first, so a regular typed in again does not become a second player."""
    with transaction.atomic():
        # The club's row, as the roster's services lock it: two check-ins of one name at once
        # make one guest and one warning, never two guests.
        Club.objects.select_for_update().filter(pk=event.club_id).first()
        if not new_person and player_lookalikes(club=event.club, name=name).exists():
            raise RuleViolation(
                _("%(name)s may be a player the club already has."),
                code="lookalike",
                field="name",
                name=name_clean(name),
            )
        player = Player.objects.create(
            club=event.club, name=name_clean(name), guest=True, home_club=name_clean(home_club)
        )
        return registration_add(event=event, player=player, checked_in=checked_in, by=by)


def registration_status_set(
    *,
    registration: Registration,
    status: str,
    confirmed: bool = False,
    by: User | AnonymousUser | None = None,
) -> Registration:
    """Set a player's registration status; a withdrawal only once the director confirmed it
    (it takes the player out of the next draw, and the page asks first)."""
    status = RegistrationStatus(status)
    if status == RegistrationStatus.WITHDRAWN != registration.status and not confirmed:
        raise RuleViolation(_("Confirm the withdrawal first."), code="not_confirmed")
    if status == RegistrationStatus.CHECKED_IN:
        registration.checked_in_at = timezone.now()
        registration.late = registration.event.stages.exists()
    return registration_status_change(
        registration=registration, status=status, by=by, fields=["checked_in_at", "late"]
    )


def stage_format(*, event: Event) -> dict[str, object]:
    """The format a new stage of `event` is drawn with (stored on the stage): the table
    sizes, and the options each stage keeps of its own (a championship's: how many of each
    table go on and whether lucky losers do)."""
    bounds = event_table_bounds(event=event)
    stored: dict[str, object] = {
        "table_sizes": {
            "min": bounds.min_size,
            "max": bounds.max_size,
            "preferred": bounds.preferred,
        }
    }
    options = event.spec.option_values(event.format_options)
    for name, read in event.spec.stage_options.items():
        stored[name] = read(options.get(name))
    return stored


def _tables_create(
    stage: Stage, groups: Sequence[Sequence[int]], *, first_number: int = 1
) -> list[Seat]:
    """New tables of `stage` numbered from `first_number`, each with its own entry key and
    its players seated in order (the first deals first; every seat gets its own PIN)."""
    created = Table.objects.bulk_create(
        [Table(stage=stage, number=first_number + index) for index in range(len(groups))]
    )
    return Seat.objects.bulk_create(
        [
            Seat(table=table, player_id=player_id, position=position, is_first_dealer=position == 0)
            for table, players in zip(created, groups, strict=True)
            for position, player_id in enumerate(players)
        ]
    )


def _seat_stage(stage: Stage, player_ids: list[int]) -> None:
    bounds = stage_bounds(stage=stage)
    _tables_create(stage, stage.event.spec.draw(player_ids, bounds, stage.seed))


@locked_write
def stage_draw(*, event: Event, seed: int | None = None) -> Stage:
    """Draw (or redraw) the event's first stage from the checked-in players, as a preview.

    A championship's later stage (drawn when the stage before it closed) is redrawn the
    same way from the players seated at it: the draw always acts on the newest stage.
    A redraw is allowed until the first score exists; the new seed is stored with the stage.
    Locks in the house order (event → stage → its tables) and looks for scores only once it
    holds the tables, so a phone's first save either lands before (and the redraw is
    refused) or finds its table gone (and is told the link changed): never both, never lost.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    player_ids = list(
        event.registrations.filter(status=RegistrationStatus.CHECKED_IN).values_list(
            "player_id", flat=True
        )
    )
    stages = event.stages.select_for_update()
    refusal = stage_draw_refusal(event=event, stage=stages.order_by("-number").first())
    if refusal is not None:
        raise refusal
    if event.spec.knockout:
        # A later stage was drawn when the one before closed: its redraw is the newest's.
        stage = stages.order_by("-number").first()
    else:
        stage = stages.filter(number=1).first()
    if stage is not None:
        _lock_tables(stage.tables.all())
        _refuse_if_scored(stage)
        if stage.number > 1:
            # Those who went on from the stage before, as its close seated them, but for
            # one withdrawn since (marked absent): the stage plays one short without them.
            withdrawn = event.registrations.exclude(status__in=PLACE_HOLDING)
            player_ids = list(
                Seat.objects.filter(table__stage=stage, table__playoff_of=None)
                .exclude(player_id__in=withdrawn.values("player_id"))
                .order_by("table__number", "position")
                .values_list("player_id", flat=True)
            )
        stage.tables.all().delete()
    seed = secrets.randbelow(2**31) if seed is None else seed
    if stage is None:
        stage = Stage.objects.create(
            event=event, number=1, seed=seed, format=stage_format(event=event)
        )
    else:
        stage.seed = seed
        stage.status = StageStatus.PREVIEW
        if stage.number == 1:
            stage.format = stage_format(event=event)
        stage.save(update_fields=["seed", "status", "format"])
    stage.event = event
    _seat_stage(stage, player_ids)
    results_change(event_id=event.pk, reason="seating_changed")
    return stage


def _refuse_if_scored(stage: Stage) -> None:
    if stage_is_frozen(stage=stage):
        raise RuleViolation(
            _("%(stage)s: scores have been entered, so its draw can no longer change."),
            code="draw_has_scores",
            stage=stage.label,
        )


@locked_write
def stage_confirm(*, stage: Stage) -> Stage:
    stage.status = StageStatus.CONFIRMED
    stage.save(update_fields=["status"])
    Event.objects.filter(pk=stage.event_id).update(status=EventStatus.RUNNING)
    results_change(event_id=stage.event_id, reason="seating_changed")
    # "You are at table 7", when the club mails tables: made and sent by a job after the
    # commit, never slowing or failing the confirmation.
    table_notices_request(stage=stage)
    return stage


def _lock_tables(tables: QuerySet[Table]) -> list[Table]:
    # In primary-key order, like every service that holds more than one table.
    return list(tables.select_for_update(of=("self",)).order_by("pk"))


def _lock_stage(stage_id: int) -> Stage:
    """Lock a stage's event, then the stage (the house order); the stage as stored now."""
    event_id = Stage.objects.filter(pk=stage_id).values_list("event_id", flat=True).get()
    Event.objects.select_for_update().filter(pk=event_id).first()
    return Stage.objects.select_for_update(of=("self",)).select_related("event").get(pk=stage_id)


@locked_write
def seat_swap(*, first: Seat, second: Seat) -> None:
    """Swap two players between seats (at one table or two). Refused once scores exist.

    Takes the locks in the house order (event → stage → tables) and checks for scores while
    holding them, so no first save can slip in between the check and the swap.
    """
    if first.table.stage_id != second.table.stage_id:
        raise RuleViolation(
            _("Both seats must be of the draw being checked."), code="swap_across_stages"
        )
    stage = _lock_stage(first.table.stage_id)
    _lock_tables(Table.objects.filter(pk__in={first.table_id, second.table_id}))
    _refuse_if_scored(stage)
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
    results_change(event_id=stage.event_id, reason="seating_changed")


@locked_write
def late_arrivals_seat(
    *,
    stage: Stage,
    joins: Mapping[int, int],
    new_tables: Sequence[Sequence[int]] = (),
    override: bool = False,
    by: User | AnonymousUser | None = None,
) -> list[Seat]:
    """Seat players checked in after the draw: each of `joins` (player id → table id) at a
    table of `stage` that has not played its first deal, each group of `new_tables` at a
    new table of its own. Returns the new seats.

    A joining player takes the seat after the table's last (its first dealer stays), so a
    table that grows before its first deal simply plays with one more. Locks in the house
    order (event → stage → the tables joined, by id) and looks at each table's scores and
    chairs only while holding it: a first deal saved meanwhile, or another director seating
    the same player, is refused with a message, never raced.
    """
    stage = _lock_stage(stage.pk)
    if not stage_takes_late_arrivals(stage=stage):
        raise RuleViolation(
            _("These tables no longer take late arrivals: look at the draw again."),
            code="late_not_seated",
        )
    players = [*joins, *(player for group in new_tables for player in group)]
    if len(set(players)) != len(players):
        raise ValueError("a late arrival is seated once")  # the form gives one choice each
    _refuse_unless_waiting(stage, players)
    if players and (refusal := late_entry_refusal(stage=stage)):
        if not override:
            raise refusal
        # The director's override, recorded on each registration it seated.
        Registration.objects.filter(event_id=stage.event_id, player_id__in=players).update(
            seated_late_by=by if isinstance(by, User) else None, seated_late_at=timezone.now()
        )
    bounds = stage_bounds(stage=stage)
    wanted = set(joins.values())
    tables = _lock_tables(Table.objects.filter(stage=stage, pk__in=wanted))
    if len(tables) != len(wanted):
        raise RuleViolation(
            _("That table is no longer in the draw: look at the tables again."),
            code="late_table_gone",
        )
    seated = Table.objects.filter(pk__in=wanted).annotate(
        size=Count("seats"), last=Max("seats__position")
    )
    sizes = {row["pk"]: (row["size"], row["last"]) for row in seated.values("pk", "size", "last")}
    joining = Counter(joins.values())
    for table in sorted(tables, key=lambda table: table.number):
        if table.has_scores:
            raise RuleViolation(
                _(
                    "Table %(number)d has played its first deal: a late arrival can no longer "
                    "join it. Pick another table."
                ),
                code="late_table_started",
                number=table.number,
            )
        if sizes[table.pk][0] + joining[table.pk] > bounds.max_size:
            raise RuleViolation(
                ngettext(
                    "Table %(number)d cannot take them: it seats at most %(max)d player.",
                    "Table %(number)d cannot take them: it seats at most %(max)d players.",
                    bounds.max_size,
                ),
                code="late_table_full",
                number=table.number,
                max=bounds.max_size,
            )
    last_table = Table.everything.filter(stage=stage).aggregate(last=Max("number"))["last"] or 0
    for number, group in enumerate(new_tables, start=last_table + 1):
        if not bounds.min_size <= len(group) <= bounds.max_size:
            raise RuleViolation(
                ngettext(
                    "%(count)d player was picked for new table %(number)d; a table seats "
                    "%(min)d to %(max)d.",
                    "%(count)d players were picked for new table %(number)d; a table seats "
                    "%(min)d to %(max)d.",
                    len(group),
                ),
                code="late_new_table_size",
                count=len(group),
                number=number,
                min=bounds.min_size,
                max=bounds.max_size,
            )
    next_position = {pk: (-1 if last is None else last) + 1 for pk, (_size, last) in sizes.items()}
    seats = []
    for player, table_id in joins.items():
        seats.append(Seat(table_id=table_id, player_id=player, position=next_position[table_id]))
        next_position[table_id] += 1
    created = Seat.objects.bulk_create(seats)
    results_change(event_id=stage.event_id, reason="seating_changed")
    return created + _tables_create(stage, new_tables, first_number=last_table + 1)


def _refuse_unless_waiting(stage: Stage, players: Collection[int]) -> None:
    """Refuse a player who no longer waits for a seat (seated or withdrawn meanwhile)."""
    waiting = set(stage_unseated(stage=stage).values_list("player_id", flat=True))
    gone = [player for player in players if player not in waiting]
    if gone:
        raise RuleViolation(
            _("%(name)s no longer waits for a seat: look at the tables again."),
            code="late_not_waiting",
            name=Player.objects.filter(pk=gone[0]).values_list("name", flat=True).first() or "?",
        )


def table_key_revoke(*, table: Table) -> Table:
    """Give the table a new private link; the old one stops working at once."""
    table.entry_key = new_entry_key()
    table.save(update_fields=["entry_key"])
    return table


# -- memberships and roles: every add, role change and removal is kept --------------------------
# (This section's imports stay with it while others edit the top of the file.)


LAST_OWNER = _("A club must always keep at least one owner: make someone else an owner first.")

# Set on a Membership while a service saves or deletes it, so the signals' safety net
# (tournaments.signals) knows the change is already recorded, with the person who made it.
HISTORY_RECORDED = "_membership_history_recorded"


def leaves_club_without_owner(
    *, owner_ids: Collection[int], losing: Collection[int], gaining: int = 0
) -> bool:
    """The owners' rule, written once: a club that has an owner always keeps one.

    `owner_ids` are the club's owners now, `losing` the memberships about to stop being
    owners (demoted or removed), `gaining` how many others are about to become owners. Pure,
    so the roles page asks it for every row without a query.
    """
    owners, losing = set(owner_ids), set(losing)
    return bool(owners & losing) and not owners - losing and gaining <= 0


def membership_owner_refusal(
    *, club_id: int, losing: Collection[int], gaining: int = 0
) -> RuleViolation | None:
    """The refusal the owners' rule calls for, with the club's owners as stored now."""
    owner_ids = Membership.objects.filter(club_id=club_id, role=Role.OWNER).values_list(
        "pk", flat=True
    )
    if leaves_club_without_owner(owner_ids=list(owner_ids), losing=losing, gaining=gaining):
        return RuleViolation(LAST_OWNER, code="last_owner", field="role")
    return None


def membership_change_record(
    *,
    club_id: int,
    user_id: int | None,
    by: User | AnonymousUser | None,
    old_role: str,
    new_role: str,
) -> MembershipChange:
    """Keep one change in the club's role history. `by` None: made outside the services."""
    changed_by = by if isinstance(by, User) else None
    return MembershipChange.objects.create(
        club_id=club_id,
        user_id=user_id,
        changed_by=changed_by,
        old_role=old_role,
        new_role=new_role,
    )


@contextmanager
def _recorded_here(membership: Membership) -> Iterator[None]:
    membership.__dict__[HISTORY_RECORDED] = True
    try:
        yield
    finally:
        membership.__dict__.pop(HISTORY_RECORDED, None)


def _lock_club_roles(club_id: int) -> None:
    # One role change per club at a time: two owners demoting each other at once must not
    # both see the other still an owner.
    Club.objects.select_for_update().only("pk").get(pk=club_id)


@transaction.atomic
def membership_add(
    *,
    club: Club,
    user: User,
    role: Role | str = Role.MEMBER,
    by: User | AnonymousUser | None,
) -> Membership:
    role = Role(role)
    _lock_club_roles(club.pk)
    if Membership.objects.filter(club=club, user=user).exists():
        raise RuleViolation(
            _("%(name)s is already a member of this club."),
            code="already_member",
            field="user",
            name=user.get_full_name() or user.get_username(),
        )
    membership = Membership(club=club, user=user, role=role)
    with _recorded_here(membership):
        membership.save()
    membership_change_record(club_id=club.pk, user_id=user.pk, by=by, old_role="", new_role=role)
    return membership


@transaction.atomic
def membership_role_set(
    *, membership: Membership, role: Role | str, by: User | AnonymousUser | None
) -> Membership:
    """Give a member another role; RuleViolation when that would leave the club no owner."""
    role = Role(role)
    _lock_club_roles(membership.club_id)
    # The role as stored, not as the caller last saw it (the admin hands in its edited copy).
    old_role = Membership.objects.filter(pk=membership.pk).values_list("role", flat=True).get()
    if old_role == role:
        membership.role = role
        return membership
    if old_role == Role.OWNER:
        refusal = membership_owner_refusal(club_id=membership.club_id, losing={membership.pk})
        if refusal is not None:
            raise refusal
    membership.role = role
    with _recorded_here(membership):
        membership.save(update_fields=["role"])
    membership_change_record(
        club_id=membership.club_id,
        user_id=membership.user_id,
        by=by,
        old_role=old_role,
        new_role=role,
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by: User | AnonymousUser | None) -> None:
    """End a membership (the person's player and results stay); the last owner cannot go."""
    _lock_club_roles(membership.club_id)
    old_role = Membership.objects.filter(pk=membership.pk).values_list("role", flat=True).first()
    if old_role is None:
        return  # already gone: removing twice is removing once
    if old_role == Role.OWNER:
        refusal = membership_owner_refusal(club_id=membership.club_id, losing={membership.pk})
        if refusal is not None:
            raise refusal
    with _recorded_here(membership):
        membership.delete()
    membership_change_record(
        club_id=membership.club_id,
        user_id=membership.user_id,
        by=by,
        old_role=old_role,
        new_role="",
    )


def stage_tables_create(*, stage: Stage, groups: Sequence[Sequence[int]]) -> list[Seat]:
    """Seat `stage` as a caller planned it (a series' reseated round, by player ids, each
    group a table in seat order): the tables a draw makes, each with its own entry key and
    PINs. The caller holds the event's lock and has cleared any earlier tables."""
    return _tables_create(stage, groups)


# -- seasons --------------------------------------------------------------------------------------


def season_refusal(*, season: Season | None, club: Club) -> RuleViolation | None:
    """Why an event of `club` may not be put in `season`, or None (no season is always
    fine): the one rule for the forms, the services and the pages that offer seasons."""
    if season is None:
        return None
    if season.club_id != club.pk:
        return RuleViolation(
            _("That season is another club's."), code="season_other_club", field="season"
        )
    if season.is_closed:
        return RuleViolation(
            _("The season %(name)s is closed: it takes no more events."),
            code="season_closed",
            field="season",
            name=season.name,
        )
    return None


def season_save(
    *, club: Club, name: str, starts_on: datetime.date, ends_on: datetime.date,
    season: Season | None = None,
) -> Season:  # fmt: skip
    """Create a season of `club`, or change `season`'s name and dates. Refused when it ends
    before it starts."""
    if ends_on < starts_on:
        raise RuleViolation(
            _("A season cannot end before it starts."), code="season_dates", field="ends_on"
        )
    if season is None:
        return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
    season.name, season.starts_on, season.ends_on = name, starts_on, ends_on
    season.save(update_fields=["name", "starts_on", "ends_on"])
    return season


def season_close(*, season: Season, closed: bool) -> Season:
    """Close the season (it takes no more events; its table keeps counting those it has),
    or open it again."""
    season.closed_at = (season.closed_at or timezone.now()) if closed else None
    season.save(update_fields=["closed_at"])
    return season


def event_season_set(*, event: Event, season: Season | None) -> Event:
    """Put the event in `season` (None: in none). Both seasons' tables hear of it."""
    if refusal := season_refusal(season=season, club=event.club):
        raise refusal
    with transaction.atomic():
        before = event.season_id
        event.season = season
        event.save(update_fields=["season"])
        # The table it left and the one it joined are recomputed (leagues.receivers).
        seasons = sorted(pk for pk in {before, event.season_id} if pk is not None)
        results_change(event_id=event.pk, reason="season", seasons=seasons)
    return event
