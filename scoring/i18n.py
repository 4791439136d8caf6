"""The rules engine's words in the reader's language: its errors (core.i18n) and contracts.

The engine marks its English messages for extraction but cannot translate them (it imports
no Django); this is where they meet gettext.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from core.i18n import violation_text
from rules import Contract

__all__ = ["contract_text", "violation_text"]


def contract_text(contract: Mapping[str, int] | None) -> str:
    """ "2 runs + 1 set" in the reader's language, in the engine's own wording and order."""
    if not contract:
        return ""
    return Contract(sets=contract.get("sets", 0), runs=contract.get("runs", 0)).describe(gettext)
