"""The director's registration list: every registration of the event, paged, sortable,
filtered by status, each row with its actions and its history."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.paging import paginate_table
from core.tables import BaseTable, DateTimeColumn, TemplateColumn
from tournaments.models import Event, Registration
from tournaments.registration import event_registration_list


class RegistrationListTable(BaseTable):
    player = TemplateColumn(
        template_name="tables/cells/registration_player.html",
        verbose_name=_("Player"),
        order_by=("player__name", "pk"),
    )
    email = tables.Column(verbose_name=_("E-mail address"), default="—")
    status = TemplateColumn(
        template_name="tournaments/registration/cells/status.html",
        verbose_name=_("Status"),
        order_by=("status", "waitlisted_at", "player__name"),
    )
    registered_at = DateTimeColumn(verbose_name=_("Registered"), short=True)
    history = TemplateColumn(
        template_name="tournaments/registration/cells/history.html",
        verbose_name=_("History"),
        orderable=False,
    )
    actions = TemplateColumn(
        template_name="tournaments/registration/cells/actions.html",
        verbose_name=_("Actions"),
        orderable=False,
        exclude_from_export=True,
        attrs={"td": {"class": "actions"}},
    )

    class Meta(BaseTable.Meta):
        model = Registration
        fields = ("player", "email", "status", "registered_at")
        sequence = ("player", "email", "status", "registered_at", "history", "actions")
        empty_text = _("No registrations with this status.")

    def __init__(self, data: Any, *, event: Event, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.event = event


def registration_list_table(
    *, request: HttpRequest, event: Event, status: str
) -> RegistrationListTable:
    table = RegistrationListTable(
        event_registration_list(event=event, status=status),
        event=event,
        label=str(_("Registrations")),
    )
    return paginate_table(request, table, per_page=50)
