from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.paging import paginate_table
from core.tables import BaseTable, TemplateColumn
from tournaments.models import Event, Membership, Registration
from tournaments.selectors import event_registrations


class MemberTable(BaseTable):
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="user__last_name",
        order_by=("user__last_name", "user__first_name", "user__username"),
    )
    role = tables.Column(verbose_name=_("Role"))
    joined_at = tables.DateColumn(verbose_name=_("Joined"), short=True)

    class Meta(BaseTable.Meta):
        model = Membership
        fields = ("name", "role", "joined_at")

    def render_name(self, record: Membership) -> str:
        return record.user.get_full_name() or record.user.get_username()


class RegistrationTable(BaseTable):
    """The manage page's registrations, with the buttons to check a player in or out."""

    player = TemplateColumn(
        template_name="tables/cells/registration_player.html",
        verbose_name=_("Player"),
        order_by=("player__name",),
    )
    status = TemplateColumn(
        template_name="tables/cells/registration_status.html",
        verbose_name=_("Status"),
        order_by=("status", "player__name"),
    )
    actions = TemplateColumn(
        template_name="tables/cells/registration_actions.html",
        verbose_name=_("Actions"),
        orderable=False,
        exclude_from_export=True,
        attrs={"td": {"class": "actions"}},
        extra_context=lambda table: {"event": table.event},
    )

    class Meta(BaseTable.Meta):
        model = Registration
        fields = ("player", "status")
        sequence = ("player", "status", "actions")

    def __init__(self, data: Any, *, event: Event, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.event = event

    def value_player(self, record: Registration) -> str:
        return record.player.name


# The manage page's page of players. The door's check-in page lists everyone at once and
# the registration list pages, sorts and filters every state, so this one stays short: a
# page of 100 was two-thirds of a 250-table stage's manage page (150 ms of 250).
REGISTRATIONS_PER_PAGE = 25


def registration_table(*, request: HttpRequest, event: Event) -> RegistrationTable:
    """The event's registrations for its manage page, sorted and paged from the request."""
    table = RegistrationTable(event_registrations(event=event), event=event)
    return paginate_table(request, table, per_page=REGISTRATIONS_PER_PAGE)
