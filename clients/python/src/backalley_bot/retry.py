"""How long to wait before trying again."""

from __future__ import annotations


def backoff(attempt: int, *, base: float = 0.2, cap: float = 5.0) -> float:
    """Seconds to wait before retry ``attempt`` (0 first): doubling from ``base`` to ``cap``.

    >>> [backoff(i) for i in range(7)]
    [0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0]
    """
    return float(min(base * 2**attempt, cap))
