"""How a per-deal figure is shown wherever one is: two decimals ("10.00", "18.33"), on a
page in the reader's way, in a download as a number that keeps them."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import number_format

PER_DEAL_PLACES = 2
_STEP = Decimal(1).scaleb(-PER_DEAL_PLACES)


def per_deal_value(value: Fraction | float | int | None) -> Decimal | None:
    """``value`` to two decimals, half up (a spreadsheet's cell, a download's)."""
    if value is None:
        return None
    if isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(str(value))
    return exact.quantize(_STEP, rounding=ROUND_HALF_UP)


def per_deal_text(value: Fraction | float | int | None) -> str:
    """``value`` as a page shows it: two decimals, in the active language's way; blank for
    none."""
    rounded = per_deal_value(value)
    return "" if rounded is None else number_format(rounded, decimal_pos=PER_DEAL_PLACES)
