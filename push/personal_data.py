"""The push app's part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: the person's devices (the name, when added, when last reached), without the
endpoint or the keys: they are the push service's address and secrets of that browser,
nothing the person told the site.

**Erase**: the person's devices are dropped (nothing more is pushed to them), and with them
the record of what was sent to each.
"""

from __future__ import annotations

from typing import Any

from accounts import personal_data
from push.models import PushSubscription


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def export_push(subject: personal_data.Subject) -> dict[str, Any]:
    return {
        "devices": [
            {
                "name": s.user_agent,
                "created_at": _iso(s.created_at),
                "last_success_at": _iso(s.last_success_at),
            }
            for s in PushSubscription.objects.filter(player=subject.player).order_by("created_at")
        ]
    }


def erase_push(erasure: personal_data.Erasure) -> None:
    dropped = PushSubscription.objects.filter(player=erasure.player).delete()[1]
    erasure.count("push_subscriptions", dropped.get("push.PushSubscription", 0))


def install() -> None:
    personal_data.register("push", export=export_push, erase=erase_push, order=60)
