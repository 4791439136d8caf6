"""Translation marker for player-facing messages.

The rules engine must not import Django, yet its messages are shown translated. Every
message is written as a literal ``_("... %(name)s ...")`` so that ``makemessages`` finds it;
the site translates later with ``gettext(err.template) % err.params``.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Phrase", "_"]


def _(message: str) -> str:
    """Mark ``message`` for extraction and return it unchanged."""
    return message


class Phrase:
    """Words placed inside a message (a contract, a special hand's name) that the site
    must translate along with the message, so they are rendered only when shown.

    ``render`` receives the translate function (the site's gettext, or the marker here,
    which leaves English) and returns the words.
    """

    __slots__ = ("_render",)

    def __init__(self, render: Callable[[Callable[[str], str]], str]) -> None:
        self._render = render

    def text(self, translate: Callable[[str], str] = _) -> str:
        """The words in the language ``translate`` gives."""
        return self._render(translate)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Phrase({self.text()!r})"
