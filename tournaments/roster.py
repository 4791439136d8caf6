"""The club's roster: its players added one at a time, from a pasted list or a spreadsheet,
each checked against the players the club already has, so one person stays one player.

A list is never saved as it arrives: `roster_preview` marks each row (new, matches an
existing player, looks like a duplicate) and saves nothing; `roster_import` saves the
director's confirmed choice in one transaction, judging the rows again against the roster
as it is then (another director may have added someone meanwhile).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction
from django.db.models import Count, Max, OuterRef, QuerySet, Subquery

from rules import RuleViolation
from rules.i18n import _
from tournaments.models import Club, Player, Registration
from tournaments.names import name_clean, name_key

# How long a name may be (Player.name) and how many rows one list may hold: a club's
# roster is a few hundred people; 2,000 leaves room for a federation's list.
NAME_MAX = 120
ROSTER_MAX_ROWS = 2000


class RowStatus(StrEnum):
    NEW = "new"
    EXISTING = "existing"  # the club has this person already: not added again
    LOOKALIKE = "lookalike"  # added only if the director says so, row by row


@dataclass(frozen=True)
class RosterRow:
    """One person of a list: the line (or spreadsheet row) it came from, as typed."""

    row: int
    name: str
    home_club: str = ""


@dataclass(frozen=True)
class PreviewRow:
    row: int
    name: str
    home_club: str
    status: RowStatus
    # Whom the row matches or looks like: the club's players' names, and earlier rows.
    similar: tuple[str, ...] = ()
    similar_rows: tuple[int, ...] = ()


def name_forms(key: str) -> tuple[str, frozenset[str]]:
    """The looser half of the look-alike rule, for one `name_key`: its words in any order
    ("uusi olli" is "olli uusi": lists put the surname first or last, Hungarian ones always
    first), and the same with one word cut to its initial ("o uusi", "olli u").

    Two names look alike when they share a key, when their words are the same in another
    order, or when one writes a word as an initial where the other writes it out ("O. Uusi"
    and "Olli Uusi"). Not when two people only share a surname and an initial: "Olli
    Uusi" and "Oskari Uusi" are brothers far more often than typos, and a 2,000-row list
    asking about every such pair would teach the director to tick "add anyway" blind.
    """
    words = key.replace(".", " ").split()
    full = " ".join(sorted(words))
    cut = frozenset(
        " ".join(sorted([*words[:n], word[0], *words[n + 1 :]]))
        for n, word in enumerate(words)
        if len(word) > 1 and len(words) > 1
    )
    return full, cut


@dataclass(frozen=True)
class _Known:
    pk: int
    name: str
    key: str


class LookAlikes:
    """Players (or a list's rows) indexed by the look-alike rule, for many names at once."""

    def __init__(self, players: Iterable[tuple[int, str, str]]) -> None:
        self.by_key: dict[str, list[_Known]] = defaultdict(list)
        self.by_words: dict[str, list[_Known]] = defaultdict(list)
        self.by_cut: dict[str, list[_Known]] = defaultdict(list)
        for pk, name, key in players:
            self.add(_Known(pk, name, key))

    def add(self, known: _Known) -> None:
        self.by_key[known.key].append(known)
        full, cut = name_forms(known.key)
        self.by_words[full].append(known)
        for form in cut:
            self.by_cut[form].append(known)

    def same(self, key: str) -> list[_Known]:
        return self.by_key.get(key, [])

    def close(self, key: str) -> list[_Known]:
        """Those that look like `key` without sharing it, each once, in the order added."""
        full, cut = name_forms(key)
        found = [*self.by_words.get(full, []), *self.by_cut.get(full, [])]
        for form in cut:
            found += self.by_words.get(form, [])
        unique = {known.pk: known for known in found if known.key != key}
        return sorted(unique.values(), key=lambda known: known.pk)


def player_lookalikes(*, club: Club, name: str) -> QuerySet[Player]:
    """The club's players (guests of past events too) who may be the person named `name`,
    each with the last event they played (`last_event`, `last_date`) to tell two apart.

    The rule is `LookAlikes`', applied to the club's names read once (one narrow query of
    keys, a few thousand rows at most), so one rule serves a single name and a long list.
    """
    key = name_key(name)
    if not key:
        return Player.objects.none()
    index = LookAlikes(
        Player.objects.filter(club=club, merged_into__isnull=True).values_list(
            "pk", "name", "name_key"
        )
    )
    found = [known.pk for known in index.same(key) + index.close(key)]
    last = Registration.objects.filter(player=OuterRef("pk")).order_by("-event__date", "-pk")
    return (
        Player.objects.filter(pk__in=found)
        .annotate(
            last_event=Subquery(last.values("event__name")[:1]),
            last_date=Subquery(last.values("event__date")[:1]),
        )
        .order_by("guest", "name", "pk")
    )


def roster_rows_from_text(text: str) -> list[RosterRow]:
    """A pasted list, one name per line (blank lines skipped), numbered as pasted."""
    rows = [
        RosterRow(row=number, name=line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    roster_rows_check(rows)
    return rows


def roster_rows_check(rows: Sequence[RosterRow]) -> None:
    """Refuse a list the roster cannot take whole: too long, or a name too long."""
    if not rows:
        raise RuleViolation(_("The list has no names."), code="empty")
    if len(rows) > ROSTER_MAX_ROWS:
        raise RuleViolation(
            _("The list has %(count)d names; at most %(max)d can be added at once."),
            code="too_many",
            count=len(rows),
            max=ROSTER_MAX_ROWS,
        )
    for row in rows:
        if not _is_name(row.name):
            raise RuleViolation(
                _("Row %(row)d: the name has no letters."), code="blank", row=row.row
            )
        if len(name_clean(row.name)) > NAME_MAX or len(name_clean(row.home_club)) > NAME_MAX:
            raise RuleViolation(
                _("Row %(row)d: a name is at most %(max)d characters."),
                code="too_long",
                row=row.row,
                max=NAME_MAX,
            )


def roster_preview(*, club: Club, rows: Sequence[RosterRow]) -> list[PreviewRow]:
    """Each row marked against the club's players and the rows above it; saves nothing.

    Two queries whatever the list's length: the club's players are read once and indexed.
    """
    roster_rows_check(rows)
    known = LookAlikes(
        Player.objects.filter(club=club, merged_into__isnull=True).values_list(
            "pk", "name", "name_key"
        )
    )
    # The list's own rows, as they go: a second "Olli Uusi" in one list is asked about.
    listed = LookAlikes(())
    preview = []
    for row in rows:
        name, key = name_clean(row.name), name_key(row.name)
        same = known.same(key)
        if same:
            preview.append(_preview_row(row, RowStatus.EXISTING, same))
            continue
        earlier = listed.same(key) + listed.close(key)
        close = known.close(key)
        status = RowStatus.LOOKALIKE if close or earlier else RowStatus.NEW
        preview.append(_preview_row(row, status, close, tuple(e.pk for e in earlier)))
        # A row stands in `listed` under its row number.
        listed.add(_Known(row.row, name, key))
    return preview


def _preview_row(
    row: RosterRow, status: RowStatus, players: Sequence[_Known], rows: tuple[int, ...] = ()
) -> PreviewRow:
    return PreviewRow(
        row=row.row,
        name=name_clean(row.name),
        home_club=name_clean(row.home_club),
        status=status,
        similar=tuple(known.name for known in players),
        similar_rows=rows,
    )


@transaction.atomic
def roster_import(*, club: Club, rows: Sequence[RosterRow], add_anyway: Collection[int]) -> int:
    """Add the list's new people as the club's players, and the look-alike rows whose numbers
    are in `add_anyway`; a row that matches an existing player is never added again. One
    transaction, one insert; returns how many players were added.

    The club row is locked first, so two directors importing at once add each person once:
    the second import is judged against the first one's players.
    """
    Club.objects.select_for_update().filter(pk=club.pk).first()
    wanted = set(add_anyway)
    players = [
        Player(club=club, name=row.name, name_key=name_key(row.name), home_club=row.home_club)
        for row in roster_preview(club=club, rows=rows)
        if row.status == RowStatus.NEW or (row.status == RowStatus.LOOKALIKE and row.row in wanted)
    ]
    # bulk_create skips Player.save(): name_key is set above. One insert on PostgreSQL;
    # SQLite takes at most 999 values a statement, so there it is one per ~160 rows.
    Player.objects.bulk_create(players)
    return len(players)


def _is_name(name: str) -> bool:
    """Whether `name` has a letter or digit: spacing, punctuation or invisible marks alone
    would make a player nobody can see or pick."""
    return any(c.isalnum() for c in name)


def _checked_name(name: str) -> str:
    cleaned = name_clean(name)
    if not _is_name(cleaned):
        raise RuleViolation(_("Type the player's name."), code="blank", field="name")
    if len(cleaned) > NAME_MAX:
        raise RuleViolation(
            _("A name is at most %(max)d characters."), code="too_long", field="name", max=NAME_MAX
        )
    return cleaned


def player_add(*, club: Club, name: str, home_club: str = "", new_person: bool = False) -> Player:
    """Add one of the club's own players. A name that looks like a player the club has is
    refused (code "lookalike") unless `new_person`: the director was shown who it may be."""
    cleaned = _checked_name(name)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if not new_person and player_lookalikes(club=club, name=cleaned).exists():
            raise RuleViolation(
                _("%(name)s may be a player the club already has."),
                code="lookalike",
                field="name",
                name=cleaned,
            )
        return Player.objects.create(club=club, name=cleaned, home_club=name_clean(home_club))


def player_make_member(*, player: Player) -> Player:
    """A guest becomes one of the club's own players, keeping every result (the same row)."""
    if player.guest:
        player.guest = False
        player.save(update_fields=["guest"])
    return player


def player_rename(*, player: Player, name: str) -> Player:
    player.name = _checked_name(name)
    player.save(update_fields=["name"])
    return player


def club_roster(*, club: Club) -> QuerySet[Player]:
    """The club's players for its directors: own players (with an account or not) and
    guests, each with how many events they registered for and the last one's date; one
    query however many. A duplicate merged away is listed with its merge, not here."""
    return (
        Player.objects.filter(club=club, merged_into__isnull=True)
        .select_related("user", "club")
        .annotate(events=Count("registrations"), last_date=Max("registrations__event__date"))
        .order_by("guest", "name", "pk")
    )
