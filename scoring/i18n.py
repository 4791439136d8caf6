"""Show the rules engine's words in the reader's language.

The engine marks its English messages for extraction but cannot translate them (it imports
no Django); this is where they meet gettext.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from rules import Contract, RuleViolation
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


def contract_text(contract: Mapping[str, int] | None) -> str:
    """ "2 runs + 1 set" in the reader's language, in the engine's own wording and order."""
    if not contract:
        return ""
    return Contract(sets=contract.get("sets", 0), runs=contract.get("runs", 0)).describe(gettext)
