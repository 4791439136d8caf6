"""A player's record page (public like the event pages whose rankings link to it, but a
guest's only when the club publishes guests' pages), its download, and "My record"."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from ratings.display import history_chart
from ratings.selectors import player_rating_history
from records.selectors import PlayerRecord, my_players, player_record_for
from records.tables import player_events_table, record_tables
from rules import VARIANT_IDS, get_variant
from tournaments.merge import merged_into
from tournaments.models import Player


def _player_or_404(slug: str, player_id: int) -> Player:
    # A player of another club is not found under this club's address.
    return get_object_or_404(Player.objects.select_related("club"), pk=player_id, club__slug=slug)


def _record_or_404(request: HttpRequest, player: Player) -> PlayerRecord:
    # A page the reader may not see is not found (its name stays private), nor has a
    # duplicate merged into another player a record of its own.
    record = None if player.merged_into_id else player_record_for(player=player, user=request.user)
    if record is None:
        raise Http404
    return record


def player_record_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    player = _player_or_404(slug, player_id)
    if player.merged_into_id is not None:
        # Its address leads to the player it was merged into (tournaments.merge).
        kept = merged_into(club_slug=slug, player_id=player.pk)
        return redirect("player_record", slug, kept) if kept else redirect(player.club)
    record = _record_or_404(request, player)
    context = {
        "player": record.player,
        "club": record.player.club,
        "record": record,
        **record_tables(record, request=request),
        "rating_histories": rating_histories(record.player, private=record.shows_private),
    }
    return render(request, "records/player_record.html", context)


def rating_histories(player: Player, *, private: bool) -> list[dict[str, object]]:
    """Each game's rating history with its chart, for the page's ratings section."""
    return [
        {
            "history": history,
            "chart": history_chart(history.points),
            "name": get_variant(history.game).name,
        }
        for history in player_rating_history(player=player, private=private)
        if history.game in VARIANT_IDS
    ]


def player_record_export(
    request: HttpRequest, slug: str, player_id: int, export_format: str
) -> HttpResponse:
    """Every event of the record (never one page of them) as CSV or XLSX."""
    if export_format not in EXPORT_FORMATS:
        raise Http404
    record = _record_or_404(request, _player_or_404(slug, player_id))
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
