"""The club's roster for its directors: the list, adding one player, a pasted list or a
spreadsheet through one preview, a guest made a club player, a rename."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from core.paging import paginate_table
from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from rules import RuleViolation
from tournaments.models import Club, Player, Role
from tournaments.permissions import club_allows, get_club_for, player_for
from tournaments.roster import (
    ROSTER_MAX_ROWS,
    RosterRow,
    RowStatus,
    club_roster,
    player_add,
    player_lookalikes,
    player_make_member,
    player_rename,
    roster_import,
    roster_preview,
    roster_rows_check,
    roster_rows_from_text,
)
from tournaments.roster_forms import (
    PlayerForm,
    PlayerRenameForm,
    RosterConfirmForm,
    RosterFileForm,
    RosterFilter,
    RosterPasteForm,
    preview_token,
)
from tournaments.roster_tables import PreviewTable, RosterTable
from tournaments.spreadsheet import Column, Problem, spreadsheet_read

ROSTER_PER_PAGE = 50

# A roster file's columns; each header is accepted in the site's three languages.
ROSTER_COLUMNS = (
    Column(
        key="name",
        label=gettext_lazy("Name"),
        headers=("name", "player", "nimi", "pelaaja", "név", "nev", "játékos"),
    ),
    Column(
        key="home_club",
        label=gettext_lazy("Home club"),
        headers=("home club", "club", "kotiseura", "seura", "kerho", "klub", "egyesület"),
        required=False,
    ),
)


def _roster(
    request: HttpRequest, club: Club, *, can_direct: bool
) -> tuple[RosterFilter, RosterTable]:
    roster_filter = RosterFilter(request.GET, queryset=club_roster(club=club))
    return roster_filter, RosterTable(roster_filter.qs, can_direct=can_direct, label=_("Players"))


@login_required
def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players, for its scorers and directors (directors also see e-mails)."""
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.SCORER)
    can_direct = club_allows(club=club, user=request.user, role=Role.DIRECTOR)
    roster_filter, table = _roster(request, club, can_direct=can_direct)
    players = club.players.filter(merged_into__isnull=True)
    context = {
        "club": club, "can_direct": can_direct, "filter": roster_filter,
        "filtered": roster_filter.active, "total": players.count(),
        "without_account": players.filter(user=None).exists(),
        "table": paginate_table(request, table, per_page=ROSTER_PER_PAGE),
    }  # fmt: skip
    return render(request, "tournaments/roster.html", context)


@login_required
def club_players_export(request: HttpRequest, slug: str, export_format: str) -> HttpResponse:
    """The roster as the page's filter narrows it, as a spreadsheet; e-mail addresses only
    in a director's download."""
    if export_format not in EXPORT_FORMATS:
        raise Http404
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.SCORER)
    can_direct = club_allows(club=club, user=request.user, role=Role.DIRECTOR)
    _filter, table = _roster(request, club, can_direct=can_direct)
    return export_response(
        table,
        export_format=export_format,
        name=export_name(club.name, _("Players")),
        title=_("Players"),
        separator=csv_separator(request),
    )


@login_required
def player_new(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = PlayerForm(request.POST or None)
    lookalikes: list[Player] = []
    if request.method == "POST" and form.is_valid():
        try:
            player = player_add(club=club, **form.cleaned_data)
        except RuleViolation as error:
            form.add_error("name" if error.code != "lookalike" else None, violation_text(error))
            if error.code == "lookalike":
                lookalikes = list(player_lookalikes(club=club, name=form.cleaned_data["name"]))
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
            return redirect("club_players", slug=slug)
    return render(
        request,
        "tournaments/roster_add.html",
        {"club": club, "form": form, "lookalikes": lookalikes, **_list_forms()},
    )


def _list_forms() -> dict[str, object]:
    return {"paste_form": RosterPasteForm(), "file_form": RosterFileForm()}


def _preview(request: HttpRequest, club: Club, rows: list[RosterRow]) -> HttpResponse:
    """The one preview a pasted list and a spreadsheet share: nothing is saved yet."""
    preview = roster_preview(club=club, rows=rows)
    counts = {status.value: 0 for status in RowStatus}
    for row in preview:
        counts[row.status.value] += 1
    context = {
        "club": club, "table": PreviewTable(preview, label=_("Preview")), "counts": counts,
        "confirm": RosterConfirmForm(initial={"rows": preview_token(club=club, rows=rows)}, club=club),
    }  # fmt: skip
    return render(request, "tournaments/roster_preview.html", context)


def _add_page(request: HttpRequest, club: Club, **forms: object) -> HttpResponse:
    context = {"club": club, "form": PlayerForm(), "lookalikes": [], **_list_forms(), **forms}
    return render(request, "tournaments/roster_add.html", context)


@login_required
@require_POST
def roster_paste(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = RosterPasteForm(request.POST)
    if form.is_valid():
        try:
            return _preview(request, club, roster_rows_from_text(form.cleaned_data["names"]))
        except RuleViolation as error:
            form.add_error("names", violation_text(error))
    return _add_page(request, club, paste_form=form)


@login_required
@require_POST
def roster_upload(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = RosterFileForm(request.POST, request.FILES)
    problems: list[Problem] = []
    if form.is_valid():
        try:
            read = spreadsheet_read(
                form.cleaned_data["file"], columns=ROSTER_COLUMNS, max_rows=ROSTER_MAX_ROWS
            )
            rows = [RosterRow(r["row"], r["name"], r["home_club"] or "") for r in read]
            roster_rows_check(rows)
            return _preview(request, club, rows)
        except RuleViolation as error:  # a SpreadsheetError lists its problems
            problems = getattr(error, "problems", [])
            form.add_error("file", violation_text(error))
    return _add_page(request, club, file_form=form, problems=problems)


@login_required
@require_POST
def roster_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    form = RosterConfirmForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("player_new", slug=slug)
    try:
        added = roster_import(
            club=club, rows=form.cleaned_data["rows"], add_anyway=form.cleaned_data["add"]
        )
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return redirect("player_new", slug=slug)
    messages.success(
        request,
        ngettext("%(count)d player added.", "%(count)d players added.", added) % {"count": added},
    )
    return redirect("club_players", slug=slug)


@login_required
@require_POST
def player_make_member_view(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = player_make_member(
        player=player_for(slug=slug, player_id=player_id, user=request.user)
    )
    messages.success(request, _("%(name)s is a club player now.") % {"name": player.name})
    return redirect("club_players", slug=slug)


@login_required
def player_rename_view(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = player_for(slug=slug, player_id=player_id, user=request.user)
    form = PlayerRenameForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and form.is_valid():
        try:
            player_rename(player=player, name=form.cleaned_data["name"])
        except RuleViolation as error:
            form.add_error("name", violation_text(error))
        else:
            messages.success(request, _("Renamed."))
            return redirect("club_players", slug=slug)
    return render(
        request,
        "tournaments/roster_rename.html",
        {"club": player.club, "player": player, "form": form},
    )
