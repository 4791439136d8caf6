"""Translation marker for player-facing messages.

The rules engine must not import Django, yet its messages are shown translated. Every
message is written as a literal ``_("... %(name)s ...")`` so that ``makemessages`` finds it;
the site translates later with ``gettext(err.template) % err.params``.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Phrase", "Plural", "_", "ngettext"]


def _(message: str) -> str:
    """Mark ``message`` for extraction and return it unchanged."""
    return message


class Plural(str):
    """A message whose words depend on a number ("1 card", "2 cards").

    It is the English form for ``count`` (so ``message`` and the command line read right)
    and carries both English forms, so the site can ask its catalogue for the reader's
    language, whose plural rules may differ from English.
    """

    singular: str
    plural: str
    number: int  # not `count`: a str already has a count()

    def __new__(cls, singular: str, plural: str, count: int) -> Plural:
        self = super().__new__(cls, singular if count == 1 else plural)
        self.singular, self.plural, self.number = singular, plural, count
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (Plural, (self.singular, self.plural, self.number))


def ngettext(singular: str, plural: str, count: int) -> str:
    """Mark a message with a plural form for extraction; ``count`` picks the form."""
    return Plural(singular, plural, count)


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
