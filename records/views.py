"""A player's record page (public like the event pages whose rankings link to it, but a
guest's only when the club publishes guests' pages), its download, and "My record"."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from records.selectors import PlayerRecord, my_players, player_record_for
from records.tables import player_events_table, record_tables
from tournaments.merge import merged_into
from tournaments.models import Player


def _record_or_404(request: HttpRequest, slug: str, player_id: int) -> PlayerRecord:
    # A player of another club is not found under this club's address, and a page the
    # reader may not see is not found either (its name stays private).
    player = get_object_or_404(
        Player.objects.select_related("club"),
        pk=player_id,
        club__slug=slug,
        merged_into__isnull=True,
    )
    record = player_record_for(player=player, user=request.user)
    if record is None:
        raise Http404
    return record


def _merged_away(slug: str, player_id: int) -> HttpResponse | None:
    """A duplicate merged into another player (tournaments.merge) has no record of its
    own: its address leads to the kept player's."""
    kept = merged_into(club_slug=slug, player_id=player_id)
    return None if kept is None else redirect("player_record", slug, kept, permanent=False)


def player_record_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    if (moved := _merged_away(slug, player_id)) is not None:
        return moved
    record = _record_or_404(request, slug, player_id)
    context = {
        "player": record.player,
        "club": record.player.club,
        "record": record,
        **record_tables(record, request=request),
    }
    return render(request, "records/player_record.html", context)


def player_record_export(
    request: HttpRequest, slug: str, player_id: int, export_format: str
) -> HttpResponse:
    """Every event of the record (never one page of them) as CSV or XLSX."""
    if export_format not in EXPORT_FORMATS:
        raise Http404
    record = _record_or_404(request, slug, player_id)
    return export_response(
        player_events_table(record),
        export_format=export_format,
        name=export_name(record.player.name, _("Record")),
        title=record.player.name,
        separator=csv_separator(request),
    )


@login_required
def my_record(request: HttpRequest) -> HttpResponse:
    """The signed-in person's record: straight to it when they play in one club, else a
    link to each club's."""
    players = my_players(user=request.user)
    if len(players) == 1:
        return redirect("player_record", players[0].club.slug, players[0].pk)
    return render(request, "records/my_record.html", {"players": players})
