"""The two kinds of error the engine raises."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rules.i18n import Phrase

_T = TypeVar("_T")

__all__ = ["RuleViolation", "RulesError", "token_text"]

# A quoted token is the start of what was typed, not all of it: a message stays readable
# whatever arrived (100 kB of text, a number of 5000 digits, a list nested 10 000 deep).
TOKEN_LENGTH = 40


class RuleViolation(Exception):
    """Something a person must fix. Shown next to the field, translated.

    ``template`` is an English message with named ``%(name)s`` placeholders, marked with
    ``rules.i18n._`` so it can be extracted; ``params`` fill it. ``code`` is a stable machine
    code (``"bad_token"``, ``"too_many_copies"``, ...) and ``field`` says where the mistake
    belongs (``"players.2.cards"``, ``"laydown.1"``, ``"upper"``).
    """

    template: str
    params: dict[str, object]
    code: str
    field: str | None

    def __init__(
        self, template: str, /, *, code: str, field: str | None = None, **params: object
    ) -> None:
        self.template = template
        self.params = dict(params)
        self.code = code
        self.field = field
        # The message is built only when shown: the engine raises and catches many of these
        # while it tries the readings of a meld.
        super().__init__(template)

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.template, self.code, self.field, self.params))

    @property
    def message(self) -> str:
        """The English message with its parameters filled in.

        A parameter may itself be a :class:`RuleViolation` (the reason inside a reason, as
        in "Meld 2: ..."); translate it the same way before filling it in.
        """
        params = {
            k: v.message if isinstance(v, RuleViolation) else v for k, v in self.params.items()
        }
        try:
            return self.template % params
        except (KeyError, TypeError, ValueError):
            # A broken template is a bug, but the player must still see something readable.
            return self.template

    @property
    def token(self) -> object:
        """The offending token, when one is at fault."""
        return self.params.get("token")

    @property
    def position(self) -> object:
        """The 1-based position of the offending token, when one is at fault."""
        return self.params.get("position")

    def at(self, field: str | None) -> RuleViolation:
        """Return a copy of this violation that belongs to ``field``.

        Used when a lower layer (notation, melds) raised without knowing which form field
        the text came from.
        """
        return RuleViolation(self.template, code=self.code, field=field, **self.params)

    def at_item(self, position: int) -> RuleViolation:
        """Return a copy that points at item ``position`` (from 1) of a list of texts.

        An item may hold several cards ("AS 10H"); the player is told which item to fix, not
        where inside it the reading stopped.
        """
        return RuleViolation(
            self.template, code=self.code, field=self.field, **{**self.params, "position": position}
        )

    def under(self, prefix: str) -> RuleViolation:
        """Return a copy whose field is nested under ``prefix`` (``"players.2"`` + ``"cards"``)."""
        field = prefix if self.field is None else f"{prefix}.{self.field}"
        return self.at(field)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"RuleViolation({self.message!r}, code={self.code!r}, field={self.field!r})"

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready description (used by the command line's ``--json``)."""
        return {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "template": self.template,
            "params": {k: _jsonable(v) for k, v in self.params.items()},
        }


def token_text(value: object, limit: int = TOKEN_LENGTH) -> str:
    """``value`` as a player would quote it in a message, at most ``limit`` characters.

    Text is itself; anything else is written as Python would, but never so long, so deep
    or so large that writing it fails.
    """
    text = value if isinstance(value, str) else _short(value, 0)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(value: object, depth: int) -> str:
    if value is None or isinstance(value, bool | float):
        return repr(value)
    if isinstance(value, int):
        # Python refuses to write an int of more than a few thousand digits.
        return repr(value) if value.bit_length() <= 4 * TOKEN_LENGTH else "…"
    if isinstance(value, str):
        return repr(value[:TOKEN_LENGTH])
    if isinstance(value, dict):
        if depth >= 2:
            return "{…}"
        pairs = [
            f"{_short(k, depth + 1)}: {_short(v, depth + 1)}" for k, v in _first(value.items())
        ]
        return "{" + ", ".join(pairs + (["…"] if len(value) > 4 else [])) + "}"
    if isinstance(value, list | tuple):
        if depth >= 2:
            return "[…]"
        items = [_short(v, depth + 1) for v in _first(value)]
        return "[" + ", ".join(items + (["…"] if len(value) > 4 else [])) + "]"
    code = getattr(value, "code", None)
    if isinstance(code, str):
        return code  # a Card
    return f"<{type(value).__name__}>"


def _first(items: Iterable[_T], count: int = 4) -> list[_T]:
    out: list[_T] = []
    for item in items:
        if len(out) == count:
            break
        out.append(item)
    return out


def _jsonable(value: object) -> object:
    if isinstance(value, RuleViolation):
        return value.to_dict()
    if isinstance(value, Phrase):
        return value.text()
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return token_text(value)  # JSON, like Python, will not write a number that long
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return str(value)


def _rebuild(
    template: str, code: str, field: str | None, params: dict[str, object]
) -> RuleViolation:
    return RuleViolation(template, code=code, field=field, **params)


class RulesError(Exception):
    """Something that must never happen: a bug in the engine, not a player's mistake."""
