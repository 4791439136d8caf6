from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournaments.models import Membership


class BaseTable(tables.Table):
    """Every listing on the site: one look, sortable headers, pagination, phone-friendly."""

    class Meta:
        template_name = "tables/table.html"
        attrs = {"class": "table"}
        empty_text = _("Nothing here yet.")


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
