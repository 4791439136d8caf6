"""Which tables' paper score sheets came back to the director, for an event scored on
paper: the one rule (who may mark them), the one write (a director marks a sheet returned,
or takes the mark back) and the one read (the tables page's marks and count)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied

from printing.models import SheetReturn
from tournaments.models import Club, Role, Table
from tournaments.permissions import club_allows


def marks_sheets_returned(*, club: Club, user: User | AnonymousUser) -> bool:
    """Whether `user` may mark the club's tables' sheets returned: its directors, who hand
    the sheets out and take them in. The service and the tables page's toggle both ask."""
    return club_allows(club=club, user=user, role=Role.DIRECTOR)


def sheet_return_set(
    *, table: Table, returned: bool, by: User | AnonymousUser
) -> SheetReturn | None:
    """The table's sheet is back (`returned`) or not. The ask is the state, not a flip: a
    double-submitted "returned" keeps the first who and when, a second "not" does nothing."""
    if not marks_sheets_returned(club=table.stage.event.club, user=by):
        raise PermissionDenied
    if not returned:
        SheetReturn.objects.filter(table=table).delete()
        return None
    # get_or_create: of two "returned" at once, the one-a-table constraint keeps the first.
    kept, _created = SheetReturn.objects.get_or_create(
        table=table, defaults={"returned_by": by if isinstance(by, User) else None}
    )
    return kept


@dataclass(frozen=True)
class SheetsReturned:
    """The returned marks of some tables, by table id, how many of them came back, and
    whether the reader may change them."""

    by_table: dict[int, SheetReturn] = field(default_factory=dict)
    tables: int = 0
    may_mark: bool = False

    @property
    def count(self) -> int:
        return len(self.by_table)

    @property
    def all_back(self) -> bool:
        return self.tables > 0 and self.count == self.tables


def sheets_returned(
    *, club: Club, tables: Sequence[Table], user: User | AnonymousUser
) -> SheetsReturned:
    """Which of the club's `tables` have their sheet back, with who took it in, and whether
    `user` may change that: the same queries whatever the number of tables."""
    ids = [table.pk for table in tables]
    marks = (
        SheetReturn.objects.filter(table_id__in=ids).select_related("returned_by") if ids else []
    )
    return SheetsReturned(
        by_table={mark.table_id: mark for mark in marks},
        tables=len(ids),
        may_mark=marks_sheets_returned(club=club, user=user),
    )
