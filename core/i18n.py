"""Show a RuleViolation (the one domain error) in the reader's language.

The rules engine marks its English messages for extraction but cannot translate them (it
imports no Django); this is where they meet gettext, for every app.
"""

from __future__ import annotations

from django.utils.translation import gettext

from rules import RuleViolation
from rules.i18n import Phrase


def violation_text(error: RuleViolation) -> str:
    params = {key: _translated(value) for key, value in error.params.items()}
    try:
        return gettext(error.template) % params
    except (KeyError, TypeError, ValueError):
        # A translation with a broken placeholder must not turn a player's typo into a crash.
        return error.message


def _translated(value: object) -> object:
    if isinstance(value, RuleViolation):
        return violation_text(value)
    if isinstance(value, Phrase):
        return value.text(gettext)
    return value
