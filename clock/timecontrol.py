"""Time-control options and the arithmetic of one turn (plain functions, no database).

A turn that starts at ``t`` with ``d`` days per move has its **deadline** at ``t + d``;
the seat's reserve bank extends it to ``expires_at = deadline + reserve``, when the house
bot moves for the seat. The 80% reminder is due at ``t + 0.8·d``. Time spent paused
(vacation) shifts all three.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from clock.models import MAX_DAYS_PER_MOVE, MAX_RESERVE_DAYS, MIN_DAYS_PER_MOVE
from games.errors import BadGameSetup

REMIND_AT_FRACTION = 0.8
TIMEOUTS_TO_ABANDON = 3


def time_control_clean(value: Any) -> dict[str, int]:
    """``{"days_per_move": 1..14, "reserve_days": 0..30}`` (reserve defaults to 0).

    Raises the games app's ``bad_game_setup`` error, so a bad option at game creation is
    answered like every other bad option.

    >>> time_control_clean({"days_per_move": 3})
    {'days_per_move': 3, 'reserve_days': 0}
    """
    if not isinstance(value, Mapping):
        raise BadGameSetup(message=_("Option 'time_control' is an object or null."))
    unknown = sorted(set(value) - {"days_per_move", "reserve_days"})
    if unknown:
        raise BadGameSetup(
            message=_("Unknown time control field(s): %(value)s.") % {"value": ", ".join(unknown)},
            extra={"unknown": unknown},
        )
    days = value.get("days_per_move")
    reserve = value.get("reserve_days", 0)
    if (
        isinstance(days, bool)
        or not isinstance(days, int)
        or not (MIN_DAYS_PER_MOVE <= days <= MAX_DAYS_PER_MOVE)
    ):
        raise BadGameSetup(
            message=_(
                "days_per_move is a whole number from %(min_days_per_move)s to %(max_days_per_move)s."
            )
            % {"min_days_per_move": MIN_DAYS_PER_MOVE, "max_days_per_move": MAX_DAYS_PER_MOVE},
            extra={"days_per_move": days},
        )
    if (
        isinstance(reserve, bool)
        or not isinstance(reserve, int)
        or not (0 <= reserve <= MAX_RESERVE_DAYS)
    ):
        raise BadGameSetup(
            message=_("reserve_days is a whole number from 0 to %(max_reserve_days)s.")
            % {"max_reserve_days": MAX_RESERVE_DAYS},
            extra={"reserve_days": reserve},
        )
    return {"days_per_move": days, "reserve_days": reserve}


@dataclass(frozen=True, slots=True)
class TurnTimes:
    started_at: datetime
    deadline: datetime
    expires_at: datetime
    remind_at: datetime | None


def turn_times(started_at: datetime, period: timedelta, reserve: timedelta) -> TurnTimes:
    """The deadlines of a turn that started at ``started_at``."""
    deadline = started_at + period
    return TurnTimes(
        started_at, deadline, deadline + reserve, started_at + period * REMIND_AT_FRACTION
    )


def abandoned_turn(started_at: datetime) -> TurnTimes:
    """An abandoned seat's turn is due at once: the house bot plays it."""
    return TurnTimes(started_at, started_at, started_at, None)


def reserve_used(moved_at: datetime, deadline: datetime, reserve_left: timedelta) -> timedelta:
    """How much of the bank a move made at ``moved_at`` spent (none before the deadline)."""
    over = moved_at - deadline
    if over <= timedelta(0):
        return timedelta(0)
    return min(over, reserve_left)
