"""What a notice-board sheet's address may ask for: its language, its paper, and (where
the sheet has them) a stage and how many tables a seating page holds."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from printing.jobs import RESULT_SHEETS, TABLE_SHEETS
from printing.pdf import PAPER_NAMES, PAPERS, paper

SEATING_PER_PAGE_MAX = 20


class BoardPrintForm(forms.Form):
    """`?lang=fi|hu|en&paper=A4|Letter`; a bad value is refused (the view answers 404)."""

    lang = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, required=False)
    paper = forms.ChoiceField(
        label=_("Paper"), choices=[(size, size) for size in PAPERS], required=False
    )

    def language(self, default: str) -> str:
        return self.cleaned_data.get("lang") or default

    def size(self) -> str | None:
        return self.cleaned_data.get("paper") or None


class StandingsPrintForm(BoardPrintForm):
    """…and `?stage=N`: one stage's standings instead of the stage in play."""

    stage = forms.IntegerField(label=_("Stage"), min_value=1, required=False)


class SeatingPrintForm(BoardPrintForm):
    """…and `?per_page=N`: the tables on one page of the seating list (a hall section)."""

    per_page = forms.IntegerField(
        label=_("Tables per page"), min_value=1, max_value=SEATING_PER_PAGE_MAX, required=False
    )


class PrintJobForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Sheets"),
        choices=[(TABLE_SHEETS, _("score sheets")), (RESULT_SHEETS, _("result sheets"))],
    )
    stage = forms.IntegerField(label=_("Stage"), min_value=1, max_value=1000)
    # A club with Letter paper prints a whole round on it too; unset, the site's PRINT_PAPER
    # (also what the box shows chosen: `paper` is called when the form is shown).
    paper = forms.ChoiceField(
        label=_("Paper"), choices=PAPER_NAMES.items(), initial=paper, required=False
    )


class SheetReturnedForm(forms.Form):
    """The tables page's "sheet returned" toggle: the state asked for (`yes` or `no`), so a
    second press of the same button asks for what is already recorded."""

    returned = forms.TypedChoiceField(
        label=_("Sheet returned"),
        choices=[("yes", "yes"), ("no", "no")],  # never shown: the button says it
        coerce=lambda value: value == "yes",
    )
