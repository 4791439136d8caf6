"""A player's public record: the events they played, their place and total at each table."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.selectors import player_record
from scoring.tables import player_record_table
from tournaments.models import Player


def player_record_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    # Public like the event pages whose rankings link here; a player of another club is
    # not found under this club's address.
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id, club__slug=slug)
    record = player_record(player=player)
    table = player_record_table(
        record.rows, records_ravaytys=record.records_ravaytys, request=request
    )
    context = {"player": player, "club": player.club, "record": record, "table": table}
    return render(request, "scoring/player_record.html", context)
