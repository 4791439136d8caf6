"""Who is this person? The one way names are compared across the site.

A club's players are typed in by many hands: at check-in, in a pasted list, in an imported
spreadsheet. "Olli  Uusi", "olli uusi" and "Ölli Uusi" are the same person far more often
than not, so every look-alike check (adding a player, a guest, an import row, the picker's
search, a past result) compares `name_key`s and never the names as typed.
"""

from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """`name` without case, accents or extra spacing: what two spellings of one person share."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def name_clean(name: str) -> str:
    """`name` as it is stored: inner runs of spacing made one space, none at the ends."""
    return " ".join(name.split())
