"""Telling one person one thing on each of their devices, once per device.

:func:`notice_deliver` is the one place a push leaves the site. For each of the person's
devices not yet done with ``key`` (its :class:`~push.models.PushSent` row), it posts the
payload and acts on the answer: sent, the row is written; gone (404, 410), the device is
forgotten; refused (another 4xx), logged and the row written, so it is not tried again;
no answer, 429 or 5xx, the device is left for the caller's retry. One device failing never
stops the others: each is tried, and only the ones left are tried again.

No transaction is held while a push service answers: each device's outcome is its own short
write. Two runs at once (a retry racing the outbox's second delivery) may both post to a
device before either writes its row: at least once, as everywhere in the outbox.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from backalley_site import metrics
from push.models import PushSent, PushSubscription
from push.sender import Answer, send

logger = logging.getLogger(__name__)


@dataclass
class Delivery:
    """What became of one notice: how many devices were told, forgotten, refused, and the
    ones to try again (with the longest wait a push service asked for)."""

    sent: int = 0
    gone: int = 0
    refused: int = 0
    again: list[int] = field(default_factory=list)
    retry_after: float | None = None


def _done(subscription: PushSubscription, key: str, *, refused: bool) -> None:
    try:
        with transaction.atomic():
            PushSent.objects.create(subscription=subscription, key=key, refused=refused)
            if not refused:
                PushSubscription.objects.filter(pk=subscription.pk).update(
                    last_success_at=timezone.now()
                )
    except IntegrityError:  # a racing run wrote it first (or the device just went)
        pass


def notice_deliver(
    *,
    player_id: int,
    key: str,
    payload: dict[str, Any],
    urgency: str = "normal",
    only: list[int] | None = None,
) -> Delivery:
    """Push ``payload`` to each device of the player not yet done with ``key`` (of the
    devices ``only``, when given: a retry's)."""
    devices = PushSubscription.objects.filter(player_id=player_id).order_by("pk")
    if only is not None:
        devices = devices.filter(pk__in=only)
    done = set(
        PushSent.objects.filter(subscription__player_id=player_id, key=key).values_list(
            "subscription_id", flat=True
        )
    )
    result = Delivery()
    for device in devices:
        if device.pk in done:
            continue
        reply = send(device, payload, urgency=urgency)
        if reply.failure is not None:
            metrics.push_failed(reply.failure)
        if reply.answer is Answer.SENT:
            _done(device, key, refused=False)
            result.sent += 1
        elif reply.answer is Answer.GONE:
            PushSubscription.objects.filter(pk=device.pk).delete()
            result.gone += 1
        elif reply.answer is Answer.REFUSED:
            logger.warning(
                "push: %s to subscription %s refused (%s): dropped", key, device.pk, reply.status
            )
            _done(device, key, refused=True)
            result.refused += 1
        else:
            result.again.append(device.pk)
            if reply.retry_after is not None:
                result.retry_after = max(result.retry_after or 0.0, reply.retry_after)
    return result
