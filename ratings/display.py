"""How a rating is shown: the history chart's geometry. The number itself (mu − 3σ) and
when it is provisional are the computation's (ratings.engine), imported from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.engine import PROVISIONAL_GAMES, provisional, shown

__all__ = ["PROVISIONAL_GAMES", "Chart", "ChartPoint", "history_chart", "provisional", "shown"]


# The chart's drawing box (the SVG's viewBox; it scales to the page's width).
# 480 wide: on a 390 px phone the labels (18 units) are still about 13 px.
CHART_WIDTH = 480
CHART_HEIGHT = 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 46, 14, 12, 32


@dataclass(frozen=True)
class ChartPoint:
    seq: int  # the player's own game number: 1, 2, …
    rating: float
    mu: float
    sigma: float


@dataclass(frozen=True)
class Chart:
    """An SVG line of the rating over the player's games with the band mu ± 3σ around it."""

    line: str  # polyline points: the rating (mu − 3σ)
    mean: str  # polyline points: mu
    band: str  # polygon points: mu − 3σ up to mu + 3σ
    dots: list[tuple[float, float]]  # the last point, drawn as a dot
    y_ticks: list[tuple[float, str]]  # (y, label)
    x_ticks: list[tuple[float, str]]
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    left: int = _LEFT
    right: int = CHART_WIDTH - _RIGHT
    top: int = _TOP
    bottom: int = CHART_HEIGHT - _BOTTOM


def _nice_step(span: float) -> float:
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if span / step <= 5:
            return float(step)
    return 200.0


def history_chart(points: Sequence[ChartPoint]) -> Chart | None:
    """The chart of `points` (oldest first); None with fewer than two (nothing to draw)."""
    if len(points) < 2:
        return None
    low = min(p.mu - 3 * p.sigma for p in points)
    high = max(p.mu + 3 * p.sigma for p in points)
    step = _nice_step(max(high - low, 1.0))
    low = step * (low // step)
    high = step * -(-high // step)
    first, last = points[0].seq, points[-1].seq
    right, bottom = CHART_WIDTH - _RIGHT, CHART_HEIGHT - _BOTTOM

    def x(seq: int) -> float:
        return round(_LEFT + (right - _LEFT) * (seq - first) / max(last - first, 1), 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - _TOP) * (value - low) / (high - low), 1)

    def polyline(values: list[tuple[int, float]]) -> str:
        return " ".join(f"{x(seq)},{y(value)}" for seq, value in values)

    upper = [(p.seq, p.mu + 3 * p.sigma) for p in points]
    lower = [(p.seq, p.mu - 3 * p.sigma) for p in points]
    count = round((high - low) / step)
    x_every = max(1, -(-(last - first) // 6))
    return Chart(
        line=polyline([(p.seq, p.rating) for p in points]),
        mean=polyline([(p.seq, p.mu) for p in points]),
        band=polyline(upper + lower[::-1]),
        dots=[(x(points[-1].seq), y(points[-1].rating))],
        y_ticks=[(y(low + i * step), f"{low + i * step:g}") for i in range(count + 1)],
        x_ticks=[(x(seq), str(seq)) for seq in range(first, last + 1, x_every)],
    )
