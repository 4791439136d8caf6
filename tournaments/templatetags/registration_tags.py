"""Self-registration on other apps' pages: the public event page's Register, the manage
page's counts, and the director list's buttons, each from the services' own rules."""

from __future__ import annotations

from typing import Any

from django import template

from core.i18n import violation_text
from tournaments.models import (
    BEFORE_PLACE,
    PLACE_HOLDING,
    Event,
    Registration,
    RegistrationOpenTo,
    RegistrationStatus,
)
from tournaments.registration import (
    own_registration,
    registration_cancel_refusal,
    registration_counts,
    registration_refusal,
    registration_window_refusal,
)
from tournaments.registration import (
    registration_actions as actions_for,
)

register = template.Library()

_LABELS = dict(RegistrationStatus.choices)


@register.filter
def registration_actions(registration: Registration) -> list[str]:
    return actions_for(registration=registration)


@register.filter
def status_label(status: str) -> str:
    """A recorded status in words (an unknown one as it was stored)."""
    return str(_LABELS.get(status, status))


@register.inclusion_tag("tournaments/registration/_public_block.html", takes_context=True)
def registration_public(context: template.Context, event: Event) -> dict[str, Any]:
    """Register (with the places left), Join the waitlist, or why not; nothing at all for
    an event closed to self-registration."""
    user = context.get("user") or context["request"].user
    shown = event.registration_open_to != RegistrationOpenTo.NOBODY and not event.spec.imported
    if not shown:
        return {"shown": False}
    window = registration_window_refusal(event=event)
    refusal = window or registration_refusal(event=event, user=user)
    counts = registration_counts(event=event)
    own = own_registration(event=event, user=user)
    if own is not None and own.status in (*PLACE_HOLDING, *BEFORE_PLACE):
        # Already in: what their registration is, not a second Register.
        return {"shown": True, "event": event, "counts": counts, "own": own}
    return {
        "shown": True,
        "event": event,
        "counts": counts,
        "full": counts.left == 0,
        "refusal": violation_text(refusal) if refusal else "",
        # Members-only and signed out: the button leads to sign in, through the register page.
        "can_try": window is None,
    }


@register.inclusion_tag("tournaments/registration/_manage_block.html")
def registration_manage(event: Event) -> dict[str, Any]:
    return {"event": event, "counts": registration_counts(event=event)}


@register.filter
def cancellable(registration: Registration) -> bool:
    return registration_cancel_refusal(registration=registration) is None
