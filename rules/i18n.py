"""Translation marker for player-facing messages.

The rules engine must not import Django, yet its messages are shown translated. Every
message is written as a literal ``_("... %(name)s ...")`` so that ``makemessages`` finds it;
the site translates later with ``gettext(err.template) % err.params``.
"""

from __future__ import annotations

__all__ = ["_"]


def _(message: str) -> str:
    """Mark ``message`` for extraction and return it unchanged."""
    return message
