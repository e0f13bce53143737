"""Writes of the push app: a device subscribes, unsubscribes, a push reached it."""

from __future__ import annotations

import binascii
import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Player
from push.errors import BadSubscription, PushDisabled, TooManySubscriptions
from push.models import PushSubscription
from push.vapid import b64url_decode


def push_active() -> bool:
    """Whether the site sends pushes: switched on, with its key pair."""
    return bool(
        settings.PUSH_ENABLED and settings.PUSH_VAPID_PUBLIC_KEY and settings.PUSH_VAPID_PRIVATE_KEY
    )


def _key(text: str, size: int, what: str) -> str:
    try:
        raw = b64url_decode(text.strip())
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or (size == 65 and raw[0] != 4):
        raise BadSubscription(
            message=_("The subscription's %(what)s key is not what a browser gives.")
            % {"what": what},
            extra={"field": what},
        )
    return text.strip()


def _endpoint(url: str) -> str:
    """The push service's address: HTTPS on a named host (a push service is never on a
    private address; the operator's switch lifts that for tests on loopback)."""
    parts = urlsplit(url.strip())
    if (
        settings.PUSH_ALLOW_PRIVATE_ENDPOINTS
        and parts.scheme in ("http", "https")
        and parts.hostname
    ):
        return url.strip()
    host = parts.hostname or ""
    try:
        ipaddress.ip_address(host)
        literal = True
    except ValueError:
        literal = False
    if parts.scheme != "https" or not host or literal or host == "localhost" or "." not in host:
        raise BadSubscription(
            message=_("The subscription's endpoint must be a push service's HTTPS address."),
            extra={"field": "endpoint"},
        )
    return url.strip()


def subscription_save(
    *, player: Player, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Register (or renew) a device: one row per endpoint, which a browser that subscribes
    again under another account moves to that account."""
    if not push_active():
        raise PushDisabled(message=_("Push notifications are not offered on this site."))
    endpoint = _endpoint(endpoint)
    keys = {"p256dh": _key(p256dh, 65, "p256dh"), "auth": _key(auth, 16, "auth")}
    label = " ".join(user_agent.split())[:200]
    with transaction.atomic():
        # The player's row first, so two devices subscribing at once count each other.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None or existing.player_id != player.pk:
            count = PushSubscription.objects.filter(player=player).count()
            if count >= settings.PUSH_MAX_SUBSCRIPTIONS:
                raise TooManySubscriptions(
                    message=ngettext(
                        "You have %(count)s device already: remove it first.",
                        "You have %(count)s devices already: remove one first.",
                        count,
                    )
                    % {"count": count}
                )
        if existing is None:
            return PushSubscription.objects.create(
                player=player, endpoint=endpoint, user_agent=label, **keys
            )
        existing.player = player
        existing.p256dh, existing.auth = keys["p256dh"], keys["auth"]
        existing.user_agent = label or existing.user_agent
        existing.save(update_fields=["player", "p256dh", "auth", "user_agent"])
        return existing


def subscription_delete(
    *, player: Player, subscription_id: int | None = None, endpoint: str = ""
) -> int:
    """Forget one of the player's devices (by id or by endpoint); how many rows went."""
    rows = PushSubscription.objects.filter(player=player)
    if subscription_id is not None:
        rows = rows.filter(pk=subscription_id)
    elif endpoint:
        rows = rows.filter(endpoint=endpoint.strip())
    else:
        return 0
    return rows.delete()[0]


def subscription_gone(*, subscription_id: int) -> None:
    """The push service said the device is gone (404, 410): forget it."""
    PushSubscription.objects.filter(pk=subscription_id).delete()


def subscription_reached(*, subscription_id: int) -> None:
    PushSubscription.objects.filter(pk=subscription_id).update(last_success_at=timezone.now())
