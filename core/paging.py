"""A listing's page, page size and order, read from the address through a form.

Every django-tables2 list calls `paginate_table` instead of `RequestConfig`: a value the
list does not offer (a negative or huge page size, a page that is not a number, an unknown
column) shows the first page in the usual order with a note saying so, and a page past the
end is a 404, never a server error.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import EmptyPage
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django_tables2 import Table

DEFAULT_PER_PAGE = 25
MAX_PER_PAGE = 100


class PositiveNumberField(forms.IntegerField):
    """A whole number written in ASCII digits ('¹' and '٣' pass isdigit() but are no page
    numbers here), at most 18 of them, so int() never meets a 5000-digit string."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 18):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


class TableQueryForm(forms.Form):
    """The query values a table reads, under the table's own (prefixed) names."""

    def __init__(self, data: Any, *, table: Table, max_per_page: int = MAX_PER_PAGE) -> None:
        super().__init__(data)
        self.page_field = table.prefixed_page_field
        self.per_page_field = table.prefixed_per_page_field
        self.order_field = table.prefixed_order_by_field
        orderable = [column.name for column in table.columns.iterorderable()]
        self.fields[self.page_field] = PositiveNumberField(required=False, min_value=1)
        self.fields[self.per_page_field] = PositiveNumberField(
            required=False, min_value=1, max_value=max_per_page
        )
        self.fields[self.order_field] = forms.MultipleChoiceField(
            required=False,
            choices=[(name, name) for name in orderable] + [(f"-{n}", f"-{n}") for n in orderable],
        )


def paginate_table(
    request: HttpRequest,
    table: Table,
    *,
    per_page: int = DEFAULT_PER_PAGE,
    max_per_page: int = MAX_PER_PAGE,
) -> Table:
    """Sort and paginate `table` from the request's query, as the house allows; returns it."""
    form = TableQueryForm(request.GET, table=table, max_per_page=max_per_page)
    form.is_valid()
    data, errors = form.cleaned_data, form.errors
    table.request = request
    if form.order_field in errors:
        messages.warning(
            request, _("This list cannot be sorted that way; it is in its usual order.")
        )
    elif data.get(form.order_field):
        table.order_by = data[form.order_field]
    page, size = data.get(form.page_field) or 1, data.get(form.per_page_field) or per_page
    if form.page_field in errors or form.per_page_field in errors:
        messages.warning(
            request, _("This list has no such page or page size; here is its first page.")
        )
        page, size = 1, per_page
    try:
        table.paginate(page=page, per_page=size)
    except EmptyPage as error:
        raise Http404(_("This list has no page %(page)s.") % {"page": page}) from error
    return table
