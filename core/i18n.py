"""Show a RuleViolation (the one domain error) in the reader's language.

The rules engine marks its English messages for extraction but cannot translate them (it
imports no Django); this is where they meet gettext, for every app.

The engine names a player by seat (`seat`, counted from 1). A page that knows the table's
players passes their names (in seat order) and the message names the player instead: the
phrase around the number ("Seat 2", "paikan 2 pelaaja…", "a(z) 2. játékos…") is rewritten
around the name. A message whose phrase is not one of these keeps its number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from django.utils.translation import gettext, ngettext

from rules import RuleViolation
from rules.i18n import Phrase, Plural

SEAT = "%(seat)d"
NAME = "%(seat)s"


def _finnish(match: re.Match[str]) -> str:
    player = match.group(2)
    return (player.capitalize() if match.group(1) == "P" else player) + " " + NAME


# How each language's messages say "the player in seat N", and the same phrase with the name.
_SEAT_PHRASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    # English: "Seat %(seat)d went out", "seat %(seat)d's hand" → "Aino went out", "Aino's hand".
    (re.compile(r"\b[Ss]eat %\(seat\)d"), lambda match: NAME),
    # Finnish: "Paikan %(seat)d pelaajalla on" → "Pelaajalla Aino on" (the name is not inflected).
    (re.compile(r"\b([Pp])aikan %\(seat\)d (pelaaja\w*)"), _finnish),
    # Hungarian: "A(z) %(seat)d. játékosnak" → "Aino játékosnak" (the suffix stays on "játékos").
    (re.compile(r"\b[Aa]\(z\) %\(seat\)d\. (?=játékos)"), lambda match: NAME + " "),
)


def violation_text(error: RuleViolation, names: Sequence[str] | None = None) -> str:
    """The error in the active language; with `names`, a seat is named by its player."""
    params = {key: _translated(value, names) for key, value in error.params.items()}
    template = _catalogue(error.template)
    named = _named(template, params, names)
    if named is not None:
        return hungarian_articles(named)
    try:
        return hungarian_articles(template % params)
    except (KeyError, TypeError, ValueError):
        # A translation with a broken placeholder must not turn a player's typo into a crash.
        return error.message


# Hungarian's article before a number depends on how the number is read: "az 1." (első),
# "az 5." (ötödik), "a 2." (második). A translation cannot know the number, so it writes
# "a(z)"; the number is known here, and the reader gets the one right article.
_ARTICLE = re.compile(r"\b([Aa])\(z\) (\d+)")


def _vowel_reading(number: str) -> bool:
    """Whether a number read aloud in Hungarian starts with a vowel: egy (1), öt (5, 50,
    500...), ezer (1000-1999), egymillió..."""
    value = int(number)
    return value == 1 or number.startswith("5") or 1000 <= value < 2000 or number == "1000000"


def hungarian_articles(text: str) -> str:
    """Every "a(z) N" of a Hungarian message with the article its number takes."""
    return _ARTICLE.sub(
        lambda match: (
            match.group(1) + ("z " if _vowel_reading(match.group(2)) else " ") + match.group(2)
        ),
        text,
    )


def _catalogue(template: str) -> str:
    """The template in the reader's language, in the plural form its number asks for."""
    if isinstance(template, Plural):
        return ngettext(template.singular, template.plural, template.number)
    return gettext(template)


def _named(template: str, params: dict[str, object], names: Sequence[str] | None) -> str | None:
    """The message with the seat's player named, or None to keep the number."""
    seat = params.get("seat")
    if not names or SEAT not in template or not isinstance(seat, int) or isinstance(seat, bool):
        return None
    if not 1 <= seat <= len(names):
        return None
    for pattern, replacement in _SEAT_PHRASES:
        template = pattern.sub(replacement, template)
    if SEAT in template:
        return None
    try:
        return template % {**params, "seat": names[seat - 1]}
    except (KeyError, TypeError, ValueError):
        return None


def _translated(value: object, names: Sequence[str] | None = None) -> object:
    if isinstance(value, RuleViolation):
        return violation_text(value, names)
    if isinstance(value, Phrase):
        return value.text(gettext)
    return value
