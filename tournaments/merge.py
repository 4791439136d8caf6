"""Two players who are one person: merged, recorded, and undone while nothing depends on it.

A merge moves every row of the duplicate (`merged`) to the player kept: its registrations
and seats (foreign keys), and its id wherever JSON holds player ids (a stage's `format`:
head-to-head pairs, rematches, schedule, bye; its `outcome`: who went on, the ranking, the
champion, the director's decisions; a tie-break's `order`). Deals are stored by seat
position, so they follow their seats. The duplicate is not deleted: it is marked
(`Player.merged_into`) and hidden everywhere, and its record page leads to the kept one.

Refused, with nothing written, when the two cannot become one whole player: both played or
are registered in one event (their rows would collide there), or both have an account.

What moved is kept on a :class:`PlayerMerge` (ids, and each rewritten JSON before and
after), so that an undo puts exactly those rows back. An undo is refused when something
newer depends on the merge: a later merge of either player, a moved row that changed since,
or the kept player's new rows in the events that moved (a stage drawn or closed since).

Lock order (core.db): the club's row (one merge at a time per club), the events that move
(primary-key order), their stages, the tables seating the duplicate, then both players. A
deal saved meanwhile holds only its table, so it waits for the merge or the merge for it,
and neither ever deadlocks; a new registration or seat of either player waits for the merge
(its foreign-key check needs the player's row).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.db import locked_write
from rules import RuleViolation
from rules.i18n import _
from tournaments.changes import results_change_many
from tournaments.models import (
    Club,
    Event,
    ImportedResult,
    Player,
    PlayerMerge,
    Registration,
    Role,
    Season,
    Seat,
    Stage,
    Table,
    TieBreak,
)
from tournaments.names import name_key
from tournaments.permissions import club_allows

# Keys of the stored JSON whose value is a player id, a list of them, a list of pairs of
# them, or a list of [player id, name] entries (formats.championship, formats.headtohead).
_ID_KEYS = frozenset({"player", "champion", "bye"})
_ID_LIST_KEYS = frozenset({"order"})
_PAIR_LIST_KEYS = frozenset({"pairs", "rematches"})
_NAMED_LIST_KEYS = frozenset({"replaces", "instead", "of"})


def json_player_swap(value: Any, *, old: int, new: int, name: str, key: str = "") -> Any:
    """`value` (a stage's format or outcome, a tie-break's order) with player `old` made
    `new` wherever it stands for a player, and `new`'s `name` beside it. A new value: the
    stored one is kept as it was, for the record and the undo."""

    def one(item: Any) -> Any:
        return new if item == old and not isinstance(item, bool) else item

    if isinstance(value, dict):
        swapped = {
            k: json_player_swap(v, old=old, new=new, name=name, key=k) for k, v in value.items()
        }
        if value.get("player") == old and "name" in value:
            swapped["name"] = name
        return swapped
    if isinstance(value, list):
        if key in _ID_LIST_KEYS:
            return [one(item) for item in value]
        if key in _PAIR_LIST_KEYS:
            return [
                [one(item) for item in pair] if isinstance(pair, list) else pair for pair in value
            ]
        if key in _NAMED_LIST_KEYS:
            return [
                [new, name, *entry[2:]]
                if isinstance(entry, list) and entry and entry[0] == old
                else entry
                for entry in value
            ]
        return [json_player_swap(item, old=old, new=new, name=name, key=key) for item in value]
    if key in _ID_KEYS:
        return one(value)
    return value


# -- reads ------------------------------------------------------------------------------------


def mergeable_players(*, club: Club) -> QuerySet[Player]:
    """The club's players a merge may take: not merged away already."""
    return club.players.filter(merged_into__isnull=True)


def merged_into(*, club_slug: str, player_id: int) -> int | None:
    """The player `player_id` of the club was merged into, following a chain of merges to
    the one kept now; None when it was not merged."""
    kept = None
    seen: set[int] = set()
    current = player_id
    while current not in seen:
        seen.add(current)
        rows = Player.objects.filter(pk=current, club__slug=club_slug).values_list(
            "merged_into_id", flat=True
        )
        following = next(iter(rows[:1]), None)
        if following is None:
            break
        kept = current = following
    return kept


def merge_candidates(*, player: Player, search: str = "") -> tuple[list[Player], list[Player]]:
    """The players `player` may be merged with: those whose name looks the same (compared
    by name_key) first, then the rest by name."""
    others = mergeable_players(club=player.club).exclude(pk=player.pk).order_by("name", "pk")
    if search:
        others = others.filter(name__icontains=search)
    key = name_key(player.name)
    players = list(others.only("pk", "name", "guest", "user_id", "home_club"))
    alike = [other for other in players if name_key(other.name) == key]
    return alike, [other for other in players if name_key(other.name) != key]


def _events_of(player_ids: Sequence[int]) -> QuerySet[Event]:
    """Events where any of `player_ids` is registered or seated."""
    return Event.objects.filter(
        Q(registrations__player_id__in=player_ids)
        | Q(stages__tables__seats__player_id__in=player_ids)
        | Q(imported_results__player_id__in=player_ids)
    )


def _shared_events(kept: Player, merged: Player) -> list[Event]:
    theirs = _events_of([merged.pk]).values("pk")
    return list(_events_of([kept.pk]).filter(pk__in=theirs).distinct().order_by("date", "pk"))


def _no(template: str, code: str, **params: str) -> RuleViolation:
    return RuleViolation(template, code=code, **params)


def merge_refusal(*, kept: Player, merged: Player) -> RuleViolation | None:
    """Why the two cannot be merged (shown with core.i18n.violation_text), or None: the one
    rule the merge page and the service ask."""
    if kept.pk == merged.pk:
        return _no(_("A player cannot be merged with themselves."), "merge_self")
    if kept.club_id != merged.club_id:
        return _no(_("Only players of the same club can be merged."), "merge_club")
    if kept.merged_into_id is not None or merged.merged_into_id is not None:
        return _no(_("One of these players has been merged into another already."), "merged")
    if kept.user_id is not None and merged.user_id is not None:
        return _no(
            _(
                "Both players have an account: a merge keeps one account, so it cannot join "
                "these two."
            ),
            "merge_accounts",
        )
    shared = _shared_events(kept, merged)
    if shared:
        return _no(
            _(
                "%(kept)s and %(merged)s both played or are registered in %(event)s: one "
                "person cannot have two places there, so they cannot be merged."
            ),
            "merge_shared_event",
            kept=kept.name,
            merged=merged.name,
            event=shared[0].name,
        )
    return None


@dataclass(frozen=True)
class MergePreview:
    """What a merge of `merged` into `kept` would move, for the page that asks."""

    kept: Player
    merged: Player
    events: list[Event]
    registrations: int
    seats: int
    seasons: list[Season]
    account: bool
    refusal: RuleViolation | None


def merge_preview(*, kept: Player, merged: Player) -> MergePreview:
    events = list(
        Event.objects.filter(pk__in=_events_of([merged.pk]).values("pk"))
        .select_related("season")
        .order_by("-date", "name")
    )
    seasons = {event.season.pk: event.season for event in events if event.season is not None}
    return MergePreview(
        kept=kept,
        merged=merged,
        events=events,
        registrations=Registration.objects.filter(player=merged).count(),
        seats=Seat.objects.filter(player=merged).count(),
        seasons=sorted(seasons.values(), key=lambda season: season.starts_on, reverse=True),
        account=merged.user_id is not None,
        refusal=merge_refusal(kept=kept, merged=merged),
    )


def club_merges(*, club: Club) -> QuerySet[PlayerMerge]:
    """The club's merges, newest first."""
    return (
        PlayerMerge.objects.filter(club=club)
        .select_related("club", "kept", "merged", "by", "undone_by")
        .order_by("-at", "-pk")
    )


def merge_undo_refusals(merges: Sequence[PlayerMerge]) -> dict[int, RuleViolation | None]:
    """Why each merge cannot be undone now (None: it can), in a fixed number of queries
    however many merges and events: the merges page asks this for a page of them, the
    undo for one."""
    if not merges:
        return {}
    players = {p for merge in merges for p in (merge.kept_id, merge.merged_id)}
    events = {e for merge in merges for e in merge.moved.get("events", [])}
    regs = {r for merge in merges for r in merge.moved.get("registrations", [])}
    seats = {s for merge in merges for s in merge.moved.get("seats", [])}
    imported = {i for merge in merges for i in merge.moved.get("imported_results", [])}
    later = list(
        PlayerMerge.objects.filter(undone_at__isnull=True)
        .filter(Q(kept_id__in=players) | Q(merged_id__in=players))
        .values_list("pk", "kept_id", "merged_id")
    )
    reg_now = dict(Registration.objects.filter(pk__in=regs).values_list("pk", "player_id"))
    seat_now = dict(Seat.objects.filter(pk__in=seats).values_list("pk", "player_id"))
    # An imported result is one more row that names the player (a past event's).
    imported_now = dict(
        ImportedResult.objects.filter(pk__in=imported).values_list("pk", "player_id")
    )
    # The kept players' rows in the events that moved: besides the moved ones, each is newer.
    kept_ids = {merge.kept_id for merge in merges}
    kept_regs = Registration.objects.filter(player_id__in=kept_ids, event_id__in=events)
    kept_seats = Seat.objects.filter(player_id__in=kept_ids, table__stage__event_id__in=events)
    newer: dict[int, set[int]] = defaultdict(set)  # player -> events of rows not moved
    for pk, player, event in kept_regs.values_list("pk", "player_id", "event_id"):
        if pk not in regs:
            newer[player].add(event)
    for pk, player, event in kept_seats.values_list("pk", "player_id", "table__stage__event_id"):
        if pk not in seats:
            newer[player].add(event)
    names = dict(Event.objects.filter(pk__in=events).values_list("pk", "name"))
    stages = {
        pk: (event, {"format": fmt, "outcome": outcome})
        for pk, event, fmt, outcome in Stage.objects.filter(event_id__in=events).values_list(
            "pk", "event_id", "format", "outcome"
        )
    }
    ties = {
        pk: (event, order)
        for pk, event, order in TieBreak.objects.filter(stage__event_id__in=events).values_list(
            "pk", "stage__event_id", "order"
        )
    }
    users = dict(Player.objects.filter(pk__in=players).values_list("pk", "user_id"))
    return {
        merge.pk: _undo_refusal(
            merge, later, (reg_now, seat_now, imported_now), newer, names, stages, ties, users
        )
        for merge in merges
    }


def _undo_refusal(
    merge: PlayerMerge,
    later: list[tuple[int, int, int]],
    rows_now: tuple[dict[int, int], dict[int, int], dict[int, int]],
    newer: dict[int, set[int]],
    names: dict[int, str],
    stages: dict[int, tuple[int, dict[str, Any]]],
    ties: dict[int, tuple[int, Any]],
    users: Mapping[int, int | None],
) -> RuleViolation | None:
    if merge.undone_at is not None:
        return _no(_("This merge has been undone already."), "undone")
    pair = {merge.kept_id, merge.merged_id}
    if any(pk > merge.pk and {kept, merged} & pair for pk, kept, merged in later):
        return _no(_("A later merge involves one of these players: undo that one first."), "later")
    moved = merge.moved
    changed = _no(
        _("A row this merge moved has changed since, so it cannot be put back exactly."),
        "changed",
    )
    for kind, players_now in zip(
        ("registrations", "seats", "imported_results"), rows_now, strict=True
    ):
        if any(players_now.get(pk) != merge.kept_id for pk in moved.get(kind, [])):
            return changed
    account = moved.get("account")
    if account is not None and (
        users.get(merge.kept_id) != account or users.get(merge.merged_id) is not None
    ):
        return _no(_("The account this merge moved has changed since."), "account_changed")
    events = set(moved.get("events", []))
    for event in sorted(newer.get(merge.kept_id, set()) & events):
        return _no(
            _(
                "%(name)s has played or registered in %(event)s since the merge: undoing it "
                "now would split that event's rows."
            ),
            "newer_rows",
            name=merge.kept.name,
            event=names.get(event, "?"),
        )
    rewritten = moved.get("stages", {})
    for pk, (event, now) in stages.items():
        if event not in events:
            continue
        stored = rewritten.get(str(pk))
        if stored is not None:
            if now != stored["after"]:
                return changed
        elif _mentions(now, merge.kept_id):
            return changed
    rewritten = moved.get("tie_breaks", {})
    for pk, (event, order) in ties.items():
        if event not in events:
            continue
        stored = rewritten.get(str(pk))
        if (order != stored["after"]) if stored is not None else _mentions(order, merge.kept_id):
            return changed
    return None


def _mentions(value: Any, player: int) -> bool:
    # Asked of every stored value whose key names a player: a swap that changes nothing
    # finds no mention. A key-less list is a tie-break's order.
    probe = -1
    if isinstance(value, list):
        return json_player_swap(value, old=player, new=probe, name="", key="order") != value
    return json_player_swap(value, old=player, new=probe, name="") != value


def merge_undo_refusal(*, merge: PlayerMerge) -> RuleViolation | None:
    return merge_undo_refusals([merge])[merge.pk]


# -- writes -----------------------------------------------------------------------------------


def _refuse_unless_director(club: Club, by: User | AnonymousUser) -> None:
    if not club_allows(club=club, user=by, role=Role.DIRECTOR):
        raise RuleViolation(_("Only the club's directors may merge players."), code="not_director")


def _lock(club: Club, event_ids: Iterable[int], player_ids: Sequence[int]) -> list[Player]:
    """Take the merge's locks in the house order (the module's docstring); the two players
    as they are now, under lock."""
    Club.objects.select_for_update(no_key=True).only("pk").get(pk=club.pk)
    ids = sorted(set(event_ids))
    list(
        Event.objects.select_for_update(of=("self",))
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk")
    )
    list(
        Stage.objects.select_for_update(of=("self",))
        .filter(event_id__in=ids)
        .order_by("pk")
        .values_list("pk")
    )
    seated = Seat.objects.filter(player_id__in=player_ids).values("table_id")
    list(
        Table.everything.select_for_update(of=("self",))
        .filter(pk__in=seated)
        .order_by("pk")
        .values_list("pk")
    )
    return list(
        Player.objects.select_for_update(of=("self",)).filter(pk__in=player_ids).order_by("pk")
    )


def _event_ids(player_ids: Sequence[int]) -> set[int]:
    return set(_events_of(player_ids).values_list("pk", flat=True).distinct())


@locked_write
def player_merge(
    *, kept: Player, merged: Player, by: User | AnonymousUser, confirmed: bool
) -> PlayerMerge:
    """Merge `merged` into `kept`: every row of `merged` becomes `kept`'s, in one transaction,
    recorded; standings and league tables follow. RuleViolation, with nothing written, when
    the director has not confirmed, or the two cannot be one whole player (merge_refusal)."""
    _refuse_unless_director(kept.club, by)
    if not confirmed:
        raise RuleViolation(_("Confirm the merge first."), code="not_confirmed")
    events = _event_ids([merged.pk])
    locked = {player.pk: player for player in _lock(kept.club, events, [kept.pk, merged.pk])}
    kept, merged = locked[kept.pk], locked[merged.pk]
    refusal = merge_refusal(kept=kept, merged=merged)
    if refusal is not None:
        raise refusal
    # Read again under the locks: a row added before they were taken is counted too.
    events = _event_ids([merged.pk])
    registrations = list(Registration.objects.filter(player=merged).values_list("pk", flat=True))
    seats = list(Seat.objects.filter(player=merged).values_list("pk", flat=True))
    imported = list(ImportedResult.objects.filter(player=merged).values_list("pk", flat=True))
    swap = {"old": merged.pk, "new": kept.pk, "name": kept.name}
    stages, changed_stages = _rewrite_stages(events, swap)
    tie_breaks, changed_ties = _rewrite_tie_breaks(events, swap)
    Registration.objects.filter(pk__in=registrations).update(player=kept)
    Seat.objects.filter(pk__in=seats).update(player=kept)
    ImportedResult.objects.filter(pk__in=imported).update(player=kept)
    if changed_stages:
        Stage.objects.bulk_update(changed_stages, ["format", "outcome"])
    if changed_ties:
        TieBreak.objects.bulk_update(changed_ties, ["order"])
    account = merged.user_id if kept.user_id is None else None
    # The account first leaves the duplicate (one player per account and club).
    Player.objects.filter(pk=merged.pk).update(merged_into=kept, user=None)
    kept_fields: dict[str, Any] = {}
    if account is not None:
        kept_fields["user_id"] = account
    if kept.guest and not merged.guest:
        kept_fields["guest"] = False  # the club's own player stays one
    if kept_fields:
        Player.objects.filter(pk=kept.pk).update(**kept_fields)
    merge = PlayerMerge.objects.create(
        club_id=kept.club_id,
        kept=kept,
        merged=merged,
        by=by if isinstance(by, User) else None,
        moved={
            "events": sorted(events),
            "registrations": sorted(registrations),
            "seats": sorted(seats),
            "imported_results": sorted(imported),
            "stages": stages,
            "tie_breaks": tie_breaks,
            "account": account,
            "kept_was_guest": kept.guest if "guest" in kept_fields else None,
        },
    )
    results_change_many(event_ids=sorted(events), reason="players_merged")
    return merge


def _rewrite_stages(
    events: Iterable[int], swap: dict[str, Any]
) -> tuple[dict[str, dict[str, Any]], list[Stage]]:
    record: dict[str, dict[str, Any]] = {}
    changed: list[Stage] = []
    for stage in Stage.objects.filter(event_id__in=events).only("pk", "format", "outcome"):
        before = {"format": stage.format, "outcome": stage.outcome}
        after = {key: json_player_swap(value, **swap) for key, value in before.items()}
        if after != before:
            record[str(stage.pk)] = {"before": before, "after": after}
            stage.format, stage.outcome = after["format"], after["outcome"]
            changed.append(stage)
    return record, changed


def _rewrite_tie_breaks(
    events: Iterable[int], swap: dict[str, Any]
) -> tuple[dict[str, dict[str, Any]], list[TieBreak]]:
    record: dict[str, dict[str, Any]] = {}
    changed: list[TieBreak] = []
    for tie in TieBreak.objects.filter(stage__event_id__in=events).only("pk", "order"):
        after = json_player_swap(tie.order, key="order", **swap)
        if after != tie.order:
            record[str(tie.pk)] = {"before": tie.order, "after": after}
            tie.order = after
            changed.append(tie)
    return record, changed


@locked_write
def player_merge_undo(
    *, merge: PlayerMerge, by: User | AnonymousUser, confirmed: bool
) -> PlayerMerge:
    """Put back exactly what `merge` moved; refused (RuleViolation, nothing written) unless
    confirmed, and while something newer depends on the merge (merge_undo_refusal)."""
    _refuse_unless_director(merge.club, by)
    if not confirmed:
        raise RuleViolation(_("Confirm the undo first."), code="not_confirmed")
    moved = merge.moved
    events = moved.get("events", [])
    _lock(merge.club, events, [merge.kept_id, merge.merged_id])
    merge = (
        PlayerMerge.objects.select_for_update(of=("self",))
        .select_related("club", "kept")
        .get(pk=merge.pk)
    )
    refusal = merge_undo_refusal(merge=merge)
    if refusal is not None:
        raise refusal
    Registration.objects.filter(pk__in=moved.get("registrations", [])).update(
        player_id=merge.merged_id
    )
    Seat.objects.filter(pk__in=moved.get("seats", [])).update(player_id=merge.merged_id)
    ImportedResult.objects.filter(pk__in=moved.get("imported_results", [])).update(
        player_id=merge.merged_id
    )
    stages = moved.get("stages", {})
    restored = [
        Stage(pk=int(pk), format=row["before"]["format"], outcome=row["before"]["outcome"])
        for pk, row in stages.items()
    ]
    if restored:
        Stage.objects.bulk_update(restored, ["format", "outcome"])
    ties = [
        TieBreak(pk=int(pk), order=row["before"]) for pk, row in moved.get("tie_breaks", {}).items()
    ]
    if ties:
        TieBreak.objects.bulk_update(ties, ["order"])
    kept_fields: dict[str, Any] = {}
    if moved.get("account") is not None:
        kept_fields["user_id"] = None
    if moved.get("kept_was_guest") is not None:
        kept_fields["guest"] = moved["kept_was_guest"]
    if kept_fields:
        Player.objects.filter(pk=merge.kept_id).update(**kept_fields)
    Player.objects.filter(pk=merge.merged_id).update(merged_into=None, user_id=moved.get("account"))
    merge.undone_at = timezone.now()
    merge.undone_by = by if isinstance(by, User) else None
    merge.save(update_fields=["undone_at", "undone_by"])
    results_change_many(event_ids=events, reason="players_merged")
    return merge
