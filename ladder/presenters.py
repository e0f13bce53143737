"""Rows of the standings as the pages show them, computed once per row in Python.

The ladder page renders 50 rows; formatting them here rather than through template
includes and filters per cell keeps its render time small and flat.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.urls import reverse
from django.utils.formats import number_format

from accounts.models import Player
from ladder.models import PairRating, PlayerRating

WHOLE = Decimal(1)
TENTH = Decimal("0.1")


@dataclass(frozen=True, slots=True)
class Who:
    name: str
    url: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    who: tuple[Who, ...]
    rating: str  # whole points, as shown
    exact: str  # four places, in the title
    provisional: bool
    games: int
    wins: int
    draws: int
    losses: int
    trend: str
    trend_class: str  # up, down or flat


def rating_text(value: Decimal) -> str:
    """A rating in whole points, as shown on the ladder.

    >>> rating_text(Decimal("1519.5000")), rating_text(Decimal("1480.4999"))
    ('1520', '1480')
    """
    return str(value.quantize(WHOLE, rounding=ROUND_HALF_UP))


def trend_parts(trend: Decimal) -> tuple[str, str]:
    """The trend's text (in the active language's number format) and CSS class.

    >>> trend_parts(Decimal("12.34")), trend_parts(Decimal("-0.05")), trend_parts(Decimal(0))
    (('▲ +12.3', 'up'), ('▼ -0.1', 'down'), ('–', 'flat'))
    """
    tenth = trend.quantize(TENTH, rounding=ROUND_HALF_UP)
    if trend > 0:
        return f"▲ +{number_format(tenth, 1)}", "up"
    if trend < 0:
        return f"▼ {number_format(tenth, 1)}", "down"
    return "–", "flat"


class _Links:
    """Player page URLs without a URL resolver call per row (names are URL-safe)."""

    def __init__(self) -> None:
        self.prefix = reverse("ladder:player", args=["x"])[:-2]

    def who(self, player: Player) -> Who:
        return Who(player.name, f"{self.prefix}{player.name}/", player.is_bot)


def _row(rank: int, r: PlayerRating | PairRating, who: tuple[Who, ...]) -> Row:
    trend, trend_class = trend_parts(r.trend)
    return Row(
        rank, who, rating_text(r.rating), str(r.rating), r.provisional, r.games, r.wins,
        r.draws, r.losses, trend, trend_class,
    )  # fmt: skip


def player_rows(start: int, ratings: list[PlayerRating]) -> list[Row]:
    links = _Links()
    return [_row(start + i, r, (links.who(r.player),)) for i, r in enumerate(ratings)]


def pair_rows(start: int, ratings: list[PairRating]) -> list[Row]:
    links = _Links()
    return [
        _row(start + i, r, (links.who(r.team.player_low), links.who(r.team.player_high)))
        for i, r in enumerate(ratings)
    ]
