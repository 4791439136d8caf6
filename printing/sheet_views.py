"""A director's downloads of one table's printed sheet: the blank score sheet (pre-filled
with the table's players and the game's deals) and the filled result sheet; and the mark
that the table's paper sheet came back."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from printing.forms import SheetReturnedForm
from printing.pdf import PAPERS, PrintFile
from printing.returns import sheet_return_set
from printing.sheets import table_sheet_file
from tournaments.models import Table
from tournaments.permissions import table_for


class SheetOptionsForm(forms.Form):
    """What a download may ask for: the language (else the club's) and the paper (else the
    site's setting). A value the site does not offer is ignored, never an error."""

    lang = forms.ChoiceField(label=_("language"), choices=settings.LANGUAGES, required=False)
    paper = forms.ChoiceField(label=_("paper"), choices=[(p, p) for p in PAPERS], required=False)

    def options(self, table: Table) -> tuple[str, str | None]:
        """(language, paper) of the download: the reader's ask, else the club's language."""
        data = self.cleaned_data if self.is_valid() else {}
        language = data.get("lang") or table.stage.event.club.language or settings.LANGUAGE_CODE
        return language, data.get("paper") or None


def _download(printed: PrintFile) -> HttpResponse:
    response = HttpResponse(printed.content, content_type=printed.mime)
    response["Content-Disposition"] = f'inline; filename="{printed.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _sheet(
    request: HttpRequest,
    slug: str,
    event_id: int,
    table_id: int,
    *,
    filled: bool,
    continued: bool = False,
) -> HttpResponse:
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    language, size = SheetOptionsForm(request.GET).options(table)
    printed = table_sheet_file(
        table=table, filled=filled, language=language, size=size, continued=continued
    )
    return _download(printed)


@login_required
def table_sheet_pdf(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    """The table's score sheet to write on, pre-filled (`?lang=`, `?paper=`)."""
    return _sheet(request, slug, event_id, table_id, filled=False)


@login_required
def table_continued_pdf(
    request: HttpRequest, slug: str, event_id: int, table_id: int
) -> HttpResponse:
    """The score sheet's continuation, for a Gin or Tízlapos game longer than its rows."""
    return _sheet(request, slug, event_id, table_id, filled=False, continued=True)


@login_required
def table_result_pdf(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    """The table's result sheet: every deal as entered, the totals, the winner."""
    return _sheet(request, slug, event_id, table_id, filled=True)


@login_required
@require_POST
def table_sheet_returned(
    request: HttpRequest, slug: str, event_id: int, table_id: int
) -> HttpResponse:
    """A director marks the table's paper sheet returned (or not), back at its card."""
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    form = SheetReturnedForm(request.POST)
    if form.is_valid():
        sheet_return_set(table=table, returned=form.cleaned_data["returned"], by=request.user)
    page = reverse("event_tables", args=[slug, event_id])
    return HttpResponseRedirect(f"{page}#table-{table.number}")
