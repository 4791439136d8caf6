"""`{% print_batches_of event as batches %}`: the manage page's print box (which stage a
batch prints, and the files already made from the current results), for an include that
needs nothing but the event."""

from __future__ import annotations

from django import template

from printing.forms import PrintJobForm
from printing.jobs import PrintBatches, print_batches
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def print_batches_of(event: Event) -> PrintBatches:
    return print_batches(event=event)


@register.simple_tag
def print_job_form() -> PrintJobForm:
    """`{% print_job_form as form %}`: the print box's paper, preset to the site's."""
    return PrintJobForm(auto_id="print-%s")
