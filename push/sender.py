"""One push to one device, through ``pywebpush``, and what the push service answered.

The payload is JSON (a title, a short text, the address to open, a tag), encrypted to the
device's keys (``aes128gcm``, RFC 8291) and signed with the site's VAPID key (RFC 8292).
The answer is sorted into what the delivery does next:

- 2xx: ``SENT``;
- 404, 410: ``GONE`` (the browser unsubscribed, or the push service forgot it);
- 429, 5xx, or no answer at all (a timeout, a refused connection): ``RETRY`` later;
- any other 4xx: ``REFUSED`` (a payload too large, a key the service rejects): trying the
  same again would get the same answer.
"""

from __future__ import annotations

import enum
import json
import logging
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from push.models import PushSubscription

logger = logging.getLogger(__name__)

TIMEOUT_S = 10.0  # one push service answering slowly holds one worker this long, no more
TTL_S = 24 * 3600  # a phone switched off for a day still hears of it when it comes back


class Answer(enum.Enum):
    SENT = "sent"
    GONE = "gone"
    RETRY = "retry"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Reply:
    answer: Answer
    status: int | None = None  # the push service's HTTP status (None: no answer)
    retry_after: float | None = None  # seconds, when the push service said so (429, 503)
    timed_out: bool = False  # no answer within TIMEOUT_S

    @property
    def failure(self) -> str | None:
        """The reason counted in ``backalley_push_failures_total`` (None when sent)."""
        if self.answer is Answer.SENT:
            return None
        if self.answer is Answer.GONE:
            return "gone"
        if self.answer is Answer.REFUSED:
            return "rejected"
        return "timeout" if self.timed_out else "unreachable"


def _retry_after(response: Any) -> float | None:
    value = (getattr(response, "headers", None) or {}).get("Retry-After", "")
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        return None


def classify(status: int, response: Any = None) -> Reply:
    """What a push service's HTTP status means for the delivery.

    >>> [classify(s).answer.value for s in (201, 410, 404, 429, 503, 400, 413)]
    ['sent', 'gone', 'gone', 'retry', 'retry', 'refused', 'refused']
    """
    if 200 <= status < 300:
        return Reply(Answer.SENT, status)
    if status in (404, 410):
        return Reply(Answer.GONE, status)
    if status == 429 or status >= 500:
        return Reply(Answer.RETRY, status, _retry_after(response))
    return Reply(Answer.REFUSED, status)


def send(subscription: PushSubscription, payload: dict[str, Any], *, urgency: str) -> Reply:
    """Post ``payload`` to the device's push service; never raises for its answer."""
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        response = webpush(
            info,
            data=json.dumps(payload, ensure_ascii=False, separators=(",", ":")),
            vapid_private_key=settings.PUSH_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.PUSH_VAPID_SUBJECT},
            timeout=TIMEOUT_S,
            ttl=TTL_S,
            headers={"Urgency": urgency},
        )
    except WebPushException as exc:
        if exc.response is None:  # pywebpush's own refusal (a key it cannot read)
            logger.warning("push: subscription %s: %s", subscription.pk, exc)
            return Reply(Answer.REFUSED)
        return classify(exc.response.status_code, exc.response)
    except ValueError as exc:  # keys that do not decode (a row written by hand)
        logger.warning("push: subscription %s: %s", subscription.pk, exc)
        return Reply(Answer.REFUSED)
    except requests.RequestException as exc:  # no answer: the push service is out of reach
        logger.info("push: subscription %s: no answer: %s", subscription.pk, exc)
        return Reply(Answer.RETRY, timed_out=isinstance(exc, requests.Timeout))
    status = getattr(response, "status_code", 201)
    return classify(int(status), response)
