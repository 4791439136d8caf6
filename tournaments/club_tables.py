"""The club page's lists: its events (upcoming and past apart) and its players."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.tables import NUMBER, BaseTable, DateColumn
from rules import get_variant
from tournaments.models import Event, Player


class ClubEventTable(BaseTable):
    """A list of the club's events; the club's scorers and directors see the private ones,
    marked so, and each event's actions for the reader's role."""

    # A private event is listed only to the club's scorers and directors (`club_events`);
    # its public page is a director's preview, so a scorer's link opens its tables instead.
    name = tables.TemplateColumn(
        template_name="tournaments/cells/club_event_name.html",
        verbose_name=_("Event"),
        order_by=("name", "-date"),
        extra_context=lambda table: {"can_direct": table.can_direct},
    )
    date = DateColumn(verbose_name=_("Date"), short=True, order_by=("date", "name"))
    game = tables.Column(
        verbose_name=_("Game"), accessor="variant_id", order_by=("variant_id", "-date")
    )
    season = tables.Column(
        verbose_name=_("Season"),
        accessor="season__name",
        default="—",
        order_by=("season__starts_on", "-date"),
    )
    status = tables.Column(verbose_name=_("Status"), order_by=("status", "-date"))
    actions = tables.TemplateColumn(
        template_name="tournaments/cells/club_event_actions.html",
        verbose_name=_("Actions"),
        orderable=False,
        exclude_from_export=True,
        attrs={"td": {"class": "actions"}},
        extra_context=lambda table: {"can_direct": table.can_direct, "can_score": table.can_score},
    )

    class Meta(BaseTable.Meta):
        model = Event
        fields = ("name", "date", "game", "season", "status")
        sequence = ("name", "date", "game", "season", "status", "actions")
        empty_text = _("No events here.")

    def __init__(
        self, data: Any, *, can_direct: bool = False, can_score: bool = False, **kwargs: Any
    ) -> None:
        if not (can_direct or can_score):
            kwargs.setdefault("exclude", ("actions",))
        super().__init__(data, **kwargs)
        self.can_direct, self.can_score = can_direct, can_score

    def render_game(self, value: str) -> str:
        return gettext(get_variant(value).name)

    def value_name(self, record: Event) -> str:
        return record.name

    def value_game(self, value: str) -> str:
        return self.render_game(value)

    def render_status(self, record: Event) -> str:
        # An imported event was never played on the site: its status says where it came from.
        if record.spec.imported:
            return gettext("imported")
        return str(record.get_status_display())

    def value_status(self, record: Event) -> str:
        return self.render_status(record)


class ClubPlayerTable(BaseTable):
    """The players with a public record in the club (`club_public_players`)."""

    name = tables.TemplateColumn(
        template_name="tournaments/cells/club_player_name.html",
        verbose_name=_("Player"),
        order_by=("name", "pk"),
    )
    public_events = tables.Column(
        verbose_name=_("Events"), attrs=NUMBER, order_by=("-public_events", "name")
    )

    class Meta(BaseTable.Meta):
        model = Player
        fields = ("name", "public_events")
        empty_text = _("Nobody has played a published event yet.")

    def value_name(self, record: Player) -> str:
        return record.name
