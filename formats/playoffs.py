"""A play-off deal played on the site: the players a championship table left level play one
deal of the game's play-off (`rules.playoff_variant`) at a table of their own
(`Table.playoff_of`), entered and confirmed at its own link like any table. Once its deal is
confirmed and it leaves nobody level, its order is the tied table's tie-break ("play-off
deal"), recorded as if the director had; a play-off that ends level again leaves the tie to
the director (another play-off, or a card draw).

A play-off table is no table of its stage: `Table.objects` (and so every standing, sheet,
record and league table) leaves it out; only its own pages and this module read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.dispatch import receiver

from core.db import locked_write
from formats.championship import championship_close_state, tie_break_save
from rules import RuleViolation, playoff_variant
from rules.i18n import _
from scoring.selectors import TableSheet, sheet_of
from tournaments.changes import results_change, results_changed
from tournaments.engine.advancement import PendingTie, TieBreakMethod
from tournaments.models import Role, Seat, Stage, StageStatus, Table
from tournaments.permissions import club_allows


@dataclass(frozen=True)
class Playoff:
    """The newest play-off of a tied table, as the manage page shows it."""

    sheet: TableSheet

    @property
    def table(self) -> Table:
        return self.sheet.table

    @property
    def playing(self) -> bool:
        """Its deal is still to be entered, confirmed or put right."""
        sheet = self.sheet
        return sheet.problem is not None or not sheet.standing.finished or bool(sheet.unconfirmed)

    @property
    def level(self) -> bool:
        """It is over, and left players level: the director settles the tie otherwise."""
        return not self.playing and any(place.shared for place in self.sheet.order)


def playoff_offered(table: Table) -> bool:
    """Whether `table`'s game has a play-off deal to offer (the rule the page and
    `playoff_open` share)."""
    try:
        playoff_variant(table.stage.event.variant)
    except RuleViolation:
        return False
    return True


def table_playoffs(tables: Sequence[Table]) -> dict[int, Playoff]:
    """The newest play-off of each of `tables` (of one stage, loaded with it) that has one,
    by tied table's id: three queries however many."""
    if not tables:
        return {}
    stage = tables[0].stage
    newest = (
        Table.everything.filter(playoff_of__in=tables)
        .values("playoff_of")
        .annotate(newest=Max("pk"))
        .values("newest")
    )
    found = Table.everything.filter(pk__in=newest).prefetch_related("seats__player", "deals")
    playoffs: dict[int, Playoff] = {}
    for table in found:
        table.stage = stage
        seats = sorted(table.seats.all(), key=lambda seat: seat.position)
        deals = sorted(table.deals.all(), key=lambda deal: deal.number)
        assert table.playoff_of_id is not None  # found by it
        playoffs[table.playoff_of_id] = Playoff(sheet_of(table, seats, deals, table.variant))
    return playoffs


def _pending_tie(stage: Stage, table: Table) -> PendingTie[int]:
    state = championship_close_state(stage=stage)
    tie = next((tie for tie, _t in state.ties if tie.table == table.number), None)
    if tie is None:
        raise _no_tie()
    return tie


def _no_tie() -> RuleViolation:
    return RuleViolation(
        _("There is no tie to settle there (any more): look at the stage again."),
        code="tie_break_no_tie",
    )


@locked_write
def playoff_open(*, table: Table, by: User | AnonymousUser) -> Table:
    """Seat the players of `table`'s pending tie at a new play-off table (in their order at
    `table`; the first of them deals) and return it. While one is being played it is
    returned instead, so a double tap opens one. Locks `table`, so two directors open one."""
    found = (
        Table.objects.select_for_update(of=("self",))
        .select_related("stage__event__club")
        .filter(pk=table.pk)
        .first()
    )
    if found is None:  # a play-off table's own play-off: it has no tie of its own
        raise _no_tie()
    table, stage = found, found.stage
    if not club_allows(club=stage.event.club, user=by, role=Role.DIRECTOR):
        raise PermissionDenied
    if stage.status != StageStatus.CONFIRMED:
        raise RuleViolation(
            _("This stage is not in play: it is still a draw preview, or already closed."),
            code="stage_not_in_play",
        )
    playoff_variant(stage.event.variant)  # a game with none says so
    current = table_playoffs([table]).get(table.pk)
    if current is not None and current.playing:
        return current.table
    tie = _pending_tie(stage, table)
    tied = {placing.player for placing in tie.players}
    last = Table.everything.filter(stage=stage).aggregate(last=Max("number"))["last"] or 0
    playoff = Table.everything.create(stage=stage, number=last + 1, playoff_of=table)
    players = [seat.player_id for seat in table.seats.order_by("position")]
    Seat.objects.bulk_create(
        Seat(table=playoff, player_id=player, position=position, is_first_dealer=position == 0)
        for position, player in enumerate(p for p in players if p in tied)
    )
    results_change(event_id=stage.event_id, table_id=table.pk, reason="seating_changed")
    return playoff


def playoff_settle(*, playoff: Table) -> bool:
    """Record `playoff`'s confirmed deal as its tied table's tie-break, when it is over and
    leaves nobody level and the tie is still the one it was opened for. Never refuses: a
    play-off that cannot settle the tie leaves it to the director (the manage page says
    why). True when it recorded."""
    seats = list(playoff.seats.select_related("player").order_by("position"))
    deals = list(playoff.deals.order_by("number"))
    result = Playoff(sheet_of(playoff, seats, deals, playoff.variant))
    if result.playing or result.level:
        return False
    player_at = {seat.position: seat.player_id for seat in seats}
    order = [player_at[place.position] for place in result.sheet.order]
    tied = Table.objects.filter(pk=playoff.playoff_of_id or 0).first()
    if tied is None:
        return False
    try:
        with transaction.atomic():  # a refusal undoes the record alone, not the confirmation
            tie_break_save(stage=playoff.stage, table=tied, method=TieBreakMethod.PLAYOFF_DEAL,
                           order=order, note="", by=None)  # fmt: skip
    except RuleViolation:
        return False
    return True


@receiver(results_changed, dispatch_uid="formats.playoffs.deal_confirmed")
def _deal_confirmed(
    *, table_id: int | None, reason: str, table: Table | None = None, **_kwargs: object
) -> None:
    """A play-off's deal confirmed settles its tie, in the confirmation's transaction."""
    if reason != "deal_confirmed" or table_id is None:
        return
    if table is not None and table.playoff_of_id is None:
        return  # the confirming table is no play-off (most are not): nothing to read
    playoff = (
        Table.everything.filter(pk=table_id, playoff_of__isnull=False)
        .select_related("stage__event__club")
        .first()
    )
    if playoff is not None:
        playoff_settle(playoff=playoff)
