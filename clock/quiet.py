"""Quiet hours: the part of a person's day, in their own time zone, when nothing is pushed
to their devices (a push due then waits until they end).

>>> from datetime import UTC, datetime, time
>>> night = (time(22, 0), time(7, 0))
>>> quiet_end(*night, "Europe/Stockholm", datetime(2026, 12, 2, 22, 30, tzinfo=UTC))
datetime.datetime(2026, 12, 3, 6, 0, tzinfo=datetime.timezone.utc)
>>> quiet_end(*night, "Europe/Stockholm", datetime(2026, 12, 2, 12, 0, tzinfo=UTC)) is None
True
>>> quiet_end(time(13, 0), time(14, 0), "UTC", datetime(2026, 12, 2, 13, 15, tzinfo=UTC))
datetime.datetime(2026, 12, 2, 14, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


@cache
def zone_names() -> frozenset[str]:
    """The IANA time zones a person may choose."""
    return frozenset(available_timezones()) | {"UTC"}


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_end(start: time | None, end: time | None, zone: str, now: datetime) -> datetime | None:
    """When the quiet hours that hold at ``now`` end (UTC), or None outside them (or when
    there are none: either bound empty, or both the same)."""
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(_zone(zone))
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else (clock >= start or clock < end)
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + timedelta(days=1)
    until = datetime.combine(day, end, tzinfo=local.tzinfo)
    return until.astimezone(UTC)
