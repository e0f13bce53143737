"""The duplicate score and its interval, by the arena's formula (``bots.arena``).

A pair is one seed played twice: game a with partnership A in seats 0 and 2, game b with
the seats swapped (A in 1 and 3), the same cards in the same seats. A's score for the pair
is its margin per game:

>>> duplicate_score((120, 80), (90, 100))  # (120 - 90 on side 0 + 100 - 80 on side 1) / 2
25.0

Over pairs, the mean with its 95% interval, Student t with n - 1 degrees of freedom (the
arena's ``ArenaEntry.duplicate_score``); the t quantile is computed here rather than read
from the arena's three-decimal table, so the bounds agree with it to 0.03%:

>>> [round(x, 3) for x in mean_ci([1.0, 2.0, 3.0])]
[2.0, -0.484, 4.484]
>>> round(t95(30), 3), round(t95(1), 3)
(2.042, 12.706)
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def duplicate_score(game_a_totals: tuple[int, int], game_b_totals: tuple[int, int]) -> float:
    """Partnership A's duplicate margin per game (A is team 0 in game a, team 1 in b)."""
    side_0 = game_a_totals[0] - game_b_totals[0]
    side_1 = game_b_totals[1] - game_a_totals[1]
    return (side_0 + side_1) / 2


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
    front = math.exp(ln + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("at least one degree of freedom is needed")
    lo, hi = 0.0, 1000.0
    for _ in range(200):  # P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2), falling in t
        mid = (lo + hi) / 2
        if _betainc(df / 2, 0.5, df / (df + mid * mid)) > 0.05:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the 95% interval of the mean; infinite bounds for one value."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half
