"""Small statistics for the arena: a mean with its Student-t confidence interval.

>>> [round(x, 3) for x in mean_ci([1.0, 2.0, 3.0])]
[2.0, -0.484, 4.484]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

# Two-sided 95% Student-t critical values by degrees of freedom; beyond the table the
# value is interpolated in 1/df towards the normal 1.959964.
_T95 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
    17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064,
    25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000,
    120: 1.980,
}  # fmt: skip
_Z95 = 1.959964


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (3 decimals)."""
    if df < 1:
        raise ValueError("at least one degree of freedom is needed")
    if df in _T95:
        return _T95[df]
    keys = sorted(_T95)
    if df > keys[-1]:
        lo_df, lo_t, hi_inv, hi_t = keys[-1], _T95[keys[-1]], 0.0, _Z95
    else:
        lo_df = max(k for k in keys if k < df)
        hi_df = min(k for k in keys if k > df)
        lo_t, hi_inv, hi_t = _T95[lo_df], 1 / hi_df, _T95[hi_df]
    lo_inv = 1 / lo_df
    x = 1 / df
    return hi_t + (lo_t - hi_t) * (x - hi_inv) / (lo_inv - hi_inv)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of the 95% confidence interval of the mean (t-based)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    if n == 1:
        return mean, -math.inf, math.inf
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics."""
    if not values:
        raise ValueError("no values")
    s = sorted(values)
    pos = q * (len(s) - 1)
    i = int(pos)
    if i + 1 >= len(s):
        return s[-1]
    return s[i] + (s[i + 1] - s[i]) * (pos - i)
