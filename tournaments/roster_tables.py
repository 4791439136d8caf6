"""The roster's lists: the club's players, and an import's preview."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.tables import NUMBER, BaseTable, DateColumn
from tournaments.models import Player
from tournaments.roster import PreviewRow, RowStatus


class RosterTable(BaseTable):
    """The club's players; e-mail addresses and actions only for its directors."""

    name = tables.TemplateColumn(
        template_name="tournaments/cells/roster_name.html",
        verbose_name=_("Player"),
        order_by=("name", "pk"),
    )
    kind = tables.Column(verbose_name=_("Kind"), empty_values=(), order_by=("guest", "name"))
    home_club = tables.Column(verbose_name=_("Home club"), default="", order_by=("home_club",))
    email = tables.Column(
        verbose_name=_("E-mail"), accessor="user__email", default="", orderable=False
    )
    events = tables.Column(verbose_name=_("Events"), attrs=NUMBER, order_by=("-events", "name"))
    last_date = DateColumn(
        verbose_name=_("Last played"), short=True, default="—", order_by=("-last_date", "name")
    )
    actions = tables.TemplateColumn(
        template_name="tournaments/cells/roster_actions.html",
        verbose_name=_("Actions"),
        orderable=False,
        exclude_from_export=True,
        attrs={"td": {"class": "actions"}},
    )

    class Meta(BaseTable.Meta):
        model = Player
        fields = ("name", "kind", "home_club", "email", "events", "last_date")
        sequence = ("name", "kind", "home_club", "email", "events", "last_date", "actions")
        empty_text = _("No player matches.")

    def __init__(self, data: Any, *, can_direct: bool = False, **kwargs: Any) -> None:
        if not can_direct:
            kwargs.setdefault("exclude", ("email", "actions"))
        super().__init__(data, **kwargs)

    def render_kind(self, record: Player) -> str:
        if record.guest:
            return gettext("guest")
        if record.user_id:
            return gettext("club player, has an account")
        return gettext("club player")

    def value_kind(self, record: Player) -> str:
        return self.render_kind(record)

    def value_name(self, record: Player) -> str:
        return record.name


STATUS_TEXT = {
    RowStatus.NEW: _("new"),
    RowStatus.EXISTING: _("matches an existing player"),
    RowStatus.LOOKALIKE: _("looks like a duplicate"),
}


class PreviewTable(BaseTable):
    """An import's rows as the preview marks them; a look-alike row has its own choice.
    Never paged: the confirm posts every row's choice in one form."""

    row = tables.Column(verbose_name=_("Row"), attrs=NUMBER, orderable=False)
    name = tables.Column(verbose_name=_("Name"), orderable=False)
    home_club = tables.Column(verbose_name=_("Home club"), default="", orderable=False)
    # Rendered by `render_status` rather than a cell template: a template per cell took
    # four of the five seconds of a 2,000-row preview.
    status = tables.Column(verbose_name=_("Status"), orderable=False, empty_values=())

    class Meta(BaseTable.Meta):
        sequence = ("row", "name", "home_club", "status")

    def __init__(self, data: list[PreviewRow], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)

    def render_status(self, record: PreviewRow) -> str:
        badge = format_html(
            '<span class="badge {}">{}</span>',
            {RowStatus.NEW: "ok", RowStatus.LOOKALIKE: "warn"}.get(record.status, ""),
            STATUS_TEXT[record.status],
        )
        if record.status == RowStatus.NEW:
            return badge
        if record.status == RowStatus.EXISTING:
            return format_html(
                "{} <small>{} {}</small>",
                badge,
                gettext("Already in the club:"),
                ", ".join(record.similar),
            )
        like = [*record.similar] + [
            gettext("row %(number)s") % {"number": number} for number in record.similar_rows
        ]
        return format_html(
            '{} <small>{} {}</small> <label class="choice"><input type="checkbox" name="add"'
            ' value="{}" form="roster-confirm"> {}</label>',
            badge,
            gettext("Compare with:"),
            ", ".join(like),
            record.row,
            gettext("Add anyway"),
        )
