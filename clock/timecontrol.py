"""Time-control options and the arithmetic of one turn (plain functions, no database).

A time control is a time per move (one minute to 14 days) and a bank for the whole game
(none to 30 days), spent only by moves made after their deadline. The option takes it in
whole days (``{"days_per_move": 3, "reserve_days": 2}``, kept as given), in minutes or
hours with the bank in seconds (``{"hours_per_move": 12, "bank_seconds": 259200}``, kept
as ``{"minutes_per_move": 720, "bank_seconds": 259200}``), or as a preset's name
(``{"preset": "fast"}``, kept as the preset's minutes and bank).

A turn that starts at ``t`` with ``p`` per move has its **deadline** at ``t + p``; the
seat's bank extends it to ``expires_at = deadline + bank``, when the house bot moves for
the seat. The reminder is due at ``t + 0.8·p`` (none for a move shorter than
``REMIND_MIN_PERIOD``: its player is at the table). Time spent paused (vacation) shifts all
three.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clock.models import MAX_BANK_SECONDS, MAX_SECONDS_PER_MOVE, MIN_SECONDS_PER_MOVE
from clock.presets import PRESETS, preset_named
from games.errors import BadGameSetup

REMIND_AT_FRACTION = 0.8
# A move shorter than this gets no reminder (a live game: its players are at the table),
# and a game whose moves are shorter than DIGEST_MIN_PERIOD is left out of the daily digest.
REMIND_MIN_PERIOD = timedelta(minutes=10)
DIGEST_MIN_PERIOD = timedelta(hours=1)
TIMEOUTS_TO_ABANDON = 3

MINUTE = 60
HOUR = 3600
DAY = 86400
MAX_DAYS_PER_MOVE = MAX_SECONDS_PER_MOVE // DAY
MAX_RESERVE_DAYS = MAX_BANK_SECONDS // DAY
_PER_MOVE_UNITS = {"days_per_move": DAY, "hours_per_move": HOUR, "minutes_per_move": MINUTE}
_FIELDS = {*_PER_MOVE_UNITS, "reserve_days", "bank_seconds", "preset"}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A cleaned time control: whole seconds per move and of bank."""

    seconds_per_move: int
    bank_seconds: int

    @property
    def period(self) -> timedelta:
        return timedelta(seconds=self.seconds_per_move)

    @property
    def bank(self) -> timedelta:
        return timedelta(seconds=self.bank_seconds)

    @property
    def in_days(self) -> bool:
        """Whole days per move and of bank: the option's days form says it."""
        return self.seconds_per_move % DAY == 0 and self.bank_seconds % DAY == 0

    def option(self) -> dict[str, int]:
        """The stored option: the days form when it says it exactly, else minutes and seconds.

        >>> TimeControl(3 * DAY, 0).option()
        {'days_per_move': 3, 'reserve_days': 0}
        >>> TimeControl(2 * MINUTE, 600).option()
        {'minutes_per_move': 2, 'bank_seconds': 600}
        """
        if self.in_days:
            return {
                "days_per_move": self.seconds_per_move // DAY,
                "reserve_days": self.bank_seconds // DAY,
            }
        return {
            "minutes_per_move": self.seconds_per_move // MINUTE,
            "bank_seconds": self.bank_seconds,
        }

    def preset(self) -> str | None:
        """The name of the preset this control is, if it is one."""
        for p in PRESETS:
            if (p.seconds_per_move, p.bank_seconds) == (self.seconds_per_move, self.bank_seconds):
                return p.name
        return None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse(field: str, value: Any) -> BadGameSetup:
    words = {
        "min_days_per_move": 1,
        "max_days_per_move": MAX_DAYS_PER_MOVE,
        "max_hours_per_move": MAX_SECONDS_PER_MOVE // HOUR,
        "max_minutes_per_move": MAX_SECONDS_PER_MOVE // MINUTE,
        "max_reserve_days": MAX_RESERVE_DAYS,
        "max_bank_seconds": MAX_BANK_SECONDS,
    }
    messages = {
        "days_per_move": _(
            "days_per_move is a whole number from %(min_days_per_move)s to %(max_days_per_move)s."
        ),
        "hours_per_move": _("hours_per_move is a whole number from 1 to %(max_hours_per_move)s."),
        "minutes_per_move": _(
            "minutes_per_move is a whole number from 1 to %(max_minutes_per_move)s."
        ),
        "reserve_days": _("reserve_days is a whole number from 0 to %(max_reserve_days)s."),
        "bank_seconds": _("bank_seconds is a whole number from 0 to %(max_bank_seconds)s."),
    }
    return BadGameSetup(message=messages[field] % words, extra={field: value})


def time_control_parse(value: Any) -> TimeControl:
    """Check a time-control option (any of its forms) and return what it says.

    Raises the games app's ``bad_game_setup`` error, so a bad option at game creation is
    answered like every other bad option.

    >>> time_control_parse({"hours_per_move": 12, "bank_seconds": 3 * 86400})
    TimeControl(seconds_per_move=43200, bank_seconds=259200)
    """
    if not isinstance(value, Mapping):
        raise BadGameSetup(message=_("Option 'time_control' is an object or null."))
    unknown = sorted(str(k) for k in set(value) - _FIELDS)
    if unknown:
        raise BadGameSetup(
            message=_("Unknown time control field(s): %(value)s.") % {"value": ", ".join(unknown)},
            extra={"unknown": unknown},
        )
    if "preset" in value:
        if len(value) != 1:
            raise BadGameSetup(
                message=_("A time control names a preset, or gives its times: not both."),
                extra={"fields": sorted(value)},
            )
        preset = preset_named(value["preset"])
        if preset is None:
            raise BadGameSetup(
                message=_("There is no time control preset called “%(name)s”.")
                % {"name": value["preset"]},
                extra={"preset": value["preset"], "presets": [p.name for p in PRESETS]},
            )
        return TimeControl(preset.seconds_per_move, preset.bank_seconds)
    given = [name for name in _PER_MOVE_UNITS if name in value]
    if len(given) != 1:
        raise BadGameSetup(
            message=_(
                "A time control gives its time per move once: days_per_move, hours_per_move "
                "or minutes_per_move."
            ),
            extra={"fields": given},
        )
    if "reserve_days" in value and "bank_seconds" in value:
        raise BadGameSetup(
            message=_("A time control gives its bank once: reserve_days or bank_seconds."),
            extra={"fields": ["reserve_days", "bank_seconds"]},
        )
    unit = given[0]
    amount = value[unit]
    if not _whole(amount) or not (
        MIN_SECONDS_PER_MOVE <= amount * _PER_MOVE_UNITS[unit] <= MAX_SECONDS_PER_MOVE
    ):
        raise _refuse(unit, amount)
    if unit == "days_per_move" and amount < 1:
        raise _refuse(unit, amount)
    if "bank_seconds" in value:
        bank = value["bank_seconds"]
        if not _whole(bank) or not (0 <= bank <= MAX_BANK_SECONDS):
            raise _refuse("bank_seconds", bank)
    else:
        reserve = value.get("reserve_days", 0)
        if not _whole(reserve) or not (0 <= reserve <= MAX_RESERVE_DAYS):
            raise _refuse("reserve_days", reserve)
        bank = reserve * DAY
    return TimeControl(amount * _PER_MOVE_UNITS[unit], bank)


def time_control_clean(value: Any) -> dict[str, int]:
    """The option to store: the days form for whole days, else minutes and bank seconds.

    >>> time_control_clean({"days_per_move": 3})
    {'days_per_move': 3, 'reserve_days': 0}
    >>> time_control_clean({"preset": "live"})
    {'minutes_per_move': 2, 'bank_seconds': 600}
    """
    return time_control_parse(value).option()


def _per_move_words(seconds: int) -> str:
    """A time per move in its largest whole unit: "12 hours per move"."""
    if seconds % DAY == 0:
        n = seconds // DAY
        return ngettext("%(count)s day per move", "%(count)s days per move", n) % {"count": n}
    if seconds % HOUR == 0:
        n = seconds // HOUR
        return ngettext("%(count)s hour per move", "%(count)s hours per move", n) % {"count": n}
    n = max(1, round(seconds / MINUTE))
    return ngettext("%(count)s minute per move", "%(count)s minutes per move", n) % {"count": n}


def _bank_words(seconds: int) -> str:
    """A bank in its largest whole unit: "3 days reserve"."""
    if seconds % DAY == 0:
        n = seconds // DAY
        return ngettext("%(count)s day reserve", "%(count)s days reserve", n) % {"count": n}
    if seconds % HOUR == 0:
        n = seconds // HOUR
        return ngettext("%(count)s hour reserve", "%(count)s hours reserve", n) % {"count": n}
    if seconds % MINUTE == 0:
        n = seconds // MINUTE
        return ngettext("%(count)s minute reserve", "%(count)s minutes reserve", n) % {"count": n}
    return ngettext("%(count)s second reserve", "%(count)s seconds reserve", seconds) % {
        "count": seconds
    }


def time_control_text(value: Any) -> str | None:
    """A stored time control in words, in the active language ("12 hours per move + 3 days
    reserve"); None for a value that is not one (the page then says there is no clock)."""
    try:
        tc = time_control_parse(value)
    except BadGameSetup:
        return None
    if not tc.bank_seconds:
        return _per_move_words(tc.seconds_per_move)
    # Two facts side by side (each with its own count), not one sentence.
    return _("%(per_move)s + %(reserve)s") % {
        "per_move": _per_move_words(tc.seconds_per_move),
        "reserve": _bank_words(tc.bank_seconds),
    }


@dataclass(frozen=True, slots=True)
class TurnTimes:
    started_at: datetime
    deadline: datetime
    expires_at: datetime
    remind_at: datetime | None


def turn_times(
    started_at: datetime, period: timedelta, reserve: timedelta, *, remind: bool = True
) -> TurnTimes:
    """The deadlines of a turn that started at ``started_at`` (a reminder at 80% of the
    move's time, none for a move shorter than ``REMIND_MIN_PERIOD``)."""
    deadline = started_at + period
    remind_at = (
        started_at + period * REMIND_AT_FRACTION if remind and period >= REMIND_MIN_PERIOD else None
    )
    return TurnTimes(started_at, deadline, deadline + reserve, remind_at)


def abandoned_turn(started_at: datetime) -> TurnTimes:
    """An abandoned seat's turn is due at once: the house bot plays it."""
    return TurnTimes(started_at, started_at, started_at, None)


def reserve_used(moved_at: datetime, deadline: datetime, reserve_left: timedelta) -> timedelta:
    """How much of the bank a move made at ``moved_at`` spent (none before the deadline)."""
    over = moved_at - deadline
    if over <= timedelta(0):
        return timedelta(0)
    return min(over, reserve_left)
