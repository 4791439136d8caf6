from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from rules import RuleViolation
from scoring.i18n import contract_text, violation_text

register = template.Library()


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """`{{ errors|get:"p2_cards" }}`: templates cannot index a dict by a computed key."""
    if not mapping:
        return ""
    return mapping.get(key, "") if hasattr(mapping, "get") else ""


@register.filter
def field(prefix: str, seat: int) -> str:
    """`{{ "cards"|field:seat.position }}` → `p2_cards`, the entry form's field name."""
    return f"p{seat}_{prefix}"


@register.filter
def contract(value: Any) -> str:
    return contract_text(value)


@register.filter
def make_list_words(value: str) -> list[str]:
    return value.split()


@register.filter
def suit_pairs(items: list[str]) -> list[tuple[str, str]]:
    """["S:♠", …] → [("S", "♠"), …] for the suit buttons."""
    return [tuple(item.split(":", 1)) for item in items]  # type: ignore[misc]


@register.filter
def violation(error: RuleViolation | None, names: Sequence[str] | None = None) -> str:
    """An engine error in the reader's language: `{{ sheet.problem.reason|violation }}`;
    `{{ …|violation:names }}` names the seats' players (`names` in seat order)."""
    return violation_text(error, names) if error is not None else ""
