"""Matchpoints of a board instance (pure functions).

Every table of one instance held the same cards, the entrant in the same seat. Each
entrant's side score (seats 0 and 2) is compared with every other finished table of the
instance: 2 matchpoints for each beaten, 1 for each tie. The top is 2 for each other table,
and the percentage is matchpoints over top (50 when there was no one to compare with).
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from decimal import Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Score:
    matchpoints: Decimal
    top: Decimal
    percent: Decimal


def percentage(matchpoints: Decimal, top: Decimal) -> Decimal:
    """Matchpoints as a percentage of the top, to the hundredth (50 with nothing compared).

    >>> percentage(Decimal(3), Decimal(4)), percentage(Decimal(0), Decimal(0))
    (Decimal('75.00'), Decimal('50.00'))
    """
    if top == 0:
        return Decimal(50).quantize(CENT)
    return (Decimal(100) * matchpoints / top).quantize(CENT)


def instance_scores(totals: Mapping[Hashable, int]) -> dict[Hashable, Score]:
    """The score of each table of one instance, from each table's side total.

    >>> s = instance_scores({"a": 120, "b": 80, "c": 80})
    >>> [(k, str(v.matchpoints), str(v.top), str(v.percent)) for k, v in s.items()]
    [('a', '4', '4', '100.00'), ('b', '1', '4', '25.00'), ('c', '1', '4', '25.00')]
    >>> instance_scores({"alone": 10})["alone"].percent
    Decimal('50.00')
    """
    top = Decimal(2 * max(len(totals) - 1, 0))
    ordered = sorted(totals.values())  # a rescore per finish: n log n, not n squared
    out: dict[Hashable, Score] = {}
    for key, mine in totals.items():
        beaten = bisect.bisect_left(ordered, mine)
        tied = bisect.bisect_right(ordered, mine) - beaten - 1  # not itself
        mp = Decimal(2 * beaten + tied)
        out[key] = Score(mp, top, percentage(mp, top))
    return out


def average(percents: list[Decimal]) -> Decimal:
    """The standings' figure: the mean percentage over the boards counted.

    >>> average([Decimal("100"), Decimal("25"), Decimal("0")]), average([])
    (Decimal('41.67'), Decimal('0.00'))
    """
    if not percents:
        return Decimal(0).quantize(CENT)
    return (sum(percents, Decimal(0)) / len(percents)).quantize(CENT)
