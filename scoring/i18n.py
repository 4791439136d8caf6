"""Show the rules engine's words in the reader's language.

The engine marks its English messages for extraction but cannot translate them (it imports
no Django); this is where they meet gettext.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from rules import RuleViolation


def violation_text(error: RuleViolation) -> str:
    params = {
        key: violation_text(value) if isinstance(value, RuleViolation) else value
        for key, value in error.params.items()
    }
    try:
        return gettext(error.template) % params
    except (KeyError, TypeError, ValueError):
        # A translation with a broken placeholder must not turn a player's typo into a crash.
        return error.message


def contract_text(contract: Mapping[str, int] | None) -> str:
    """ "2 runs + 1 set" in the reader's language; the engine's own wording and order."""
    if not contract:
        return ""
    from rules.variants import Contract

    with_gettext = Contract(sets=contract.get("sets", 0), runs=contract.get("runs", 0))
    parts: list[str] = []
    if with_gettext.runs:
        template = "%(count)d run" if with_gettext.runs == 1 else "%(count)d runs"
        parts.append(gettext(template) % {"count": with_gettext.runs})
    if with_gettext.sets:
        template = "%(count)d set" if with_gettext.sets == 1 else "%(count)d sets"
        parts.append(gettext(template) % {"count": with_gettext.sets})
    if with_gettext.sets > with_gettext.runs and with_gettext.runs:
        parts.reverse()
    return " + ".join(parts)
