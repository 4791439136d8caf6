"""How a place is shown wherever players are ranked: "5", or "=5" when shared."""

from __future__ import annotations


def place_text(place: int, shared: bool) -> str:
    """A place as the pages show it: ``"5"``, or ``"=5"`` when others share it."""
    return f"={place}" if shared else str(place)
