"""The rating-history chart as inline SVG, drawn on the server (no script, no CDN).

>>> c = rating_chart([(1, Decimal("1520")), (2, Decimal("1500"))], width=100, height=50)
>>> c.points
'40.0,8.0 88.0,42.0'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from ladder import rating

PAD_LEFT, PAD_RIGHT, PAD_Y = 40, 12, 8


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # SVG polyline points
    y_ticks: list[tuple[float, int]]  # (y position, rating label)
    x_label: str
    start_y: float  # where the starting rating (1500) sits, if in range; else -1
    last: tuple[float, float] | None


def rating_chart(
    history: Sequence[tuple[int, Decimal]], *, width: int = 640, height: int = 220
) -> Chart:
    """Scale (game number, rating) pairs into the plot area."""
    if not history:
        return Chart(width, height, "", [], _("no rated games yet"), -1, None)
    values = [float(r) for _, r in history]
    low, high = min(values), max(values)
    if high - low < 20:  # a flat line still gets a readable scale
        mid = (high + low) / 2
        low, high = mid - 10, mid + 10
    first, last_game = history[0][0], history[-1][0]
    span_x = max(last_game - first, 1)
    plot_w = width - PAD_LEFT - PAD_RIGHT
    plot_h = height - 2 * PAD_Y

    def x(game: int) -> float:
        return PAD_LEFT + (game - first) / span_x * plot_w if last_game > first else PAD_LEFT

    def y(value: float) -> float:
        return PAD_Y + (high - value) / (high - low) * plot_h

    points = " ".join(f"{x(g):.1f},{y(float(r)):.1f}" for g, r in history)
    ticks = [(y(v), round(v)) for v in (high, (high + low) / 2, low)]
    start = float(rating.START)
    games = last_game - first + 1
    return Chart(
        width,
        height,
        points,
        ticks,
        _("games 1–%(last)s") % {"last": last_game} if games > 1 else _("1 game"),
        y(start) if low <= start <= high else -1,
        (x(last_game), y(values[-1])),
    )
