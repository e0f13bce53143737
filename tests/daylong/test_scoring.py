"""The matchpoint arithmetic of one instance (pure functions, their doctests included)."""

from __future__ import annotations

import doctest
from decimal import Decimal

from daylong import scoring


def test_the_scoring_module_doctests_hold() -> None:
    assert doctest.testmod(scoring).failed == 0


def test_ties_share_and_percentages_are_of_the_top() -> None:
    got = scoring.instance_scores({"a": 50, "b": 50, "c": 20, "d": 90})
    assert {k: (v.matchpoints, v.percent) for k, v in got.items()} == {
        "a": (Decimal(3), Decimal("50.00")),
        "b": (Decimal(3), Decimal("50.00")),
        "c": (Decimal(0), Decimal("0.00")),
        "d": (Decimal(6), Decimal("100.00")),
    }
    assert all(v.top == 6 for v in got.values())
