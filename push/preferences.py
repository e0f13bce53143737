"""Whether a person wants a push of a kind now: their notification preferences (the clock's
``NotificationPreference``, one switch per kind for pushes) and their quiet hours, in their
own time zone. No row yet: every kind on, no quiet hours (the defaults of the row)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from clock.models import NotificationKind, NotificationPreference
from clock.quiet import quiet_end

# The push kinds and the switch of each.
SWITCHES = {
    "turn": "turn_push",
    "over": "over_push",
    "round": "round_push",
    NotificationKind.INVITATION.value: "invitation_push",
    NotificationKind.CLAIM.value: "claim_push",
    NotificationKind.REMINDER.value: "reminder_push",
    # "Everyone else is at your table": a call to come and move, so it follows "your move".
    NotificationKind.TOGETHER.value: "turn_push",
}


@dataclass(frozen=True, slots=True)
class Wish:
    wanted: bool  # the kind is switched on
    held_until: datetime | None = None  # quiet hours hold until then (UTC)

    @property
    def now(self) -> bool:
        return self.wanted and self.held_until is None


def wish(*, player_id: int, kind: str, now: datetime | None = None) -> Wish:
    """The person's wish for a push of ``kind`` at ``now``."""
    switch = SWITCHES.get(kind)
    if switch is None:
        return Wish(False)  # a notice the push app does not send (the digest, …)
    prefs = NotificationPreference.objects.filter(player_id=player_id).first()
    if prefs is None:
        return Wish(True)
    if not getattr(prefs, switch):
        return Wish(False)
    now = now or timezone.now()
    return Wish(True, quiet_end(prefs.quiet_from, prefs.quiet_until, prefs.time_zone, now))
