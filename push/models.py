"""Web Push: the devices (browsers) a person asked to be told on, and what was sent to each.

A :class:`PushSubscription` is what a browser's ``PushManager.subscribe()`` hands back: the
push service's endpoint (an address only that browser's push service reads) and the two keys
the payload is encrypted to (RFC 8291). One row per endpoint: a browser that subscribes
again under another account moves its row to that account.
"""

from __future__ import annotations

from django.db import models


class PushSubscription(models.Model):
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    # The browser's P-256 public key (uncompressed point) and its 16-byte auth secret,
    # base64url as the browser gives them.
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    # A label for the settings page ("Firefox on Android"): the browser's own words, cut short.
    user_agent = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["player", "created_at", "pk"]
        indexes = [models.Index(fields=["player", "created_at"], name="push_sub_player")]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of player {self.player_id}"


class PushSent(models.Model):
    """One row per (notice, device) that is done with: sent, or refused for good by the
    push service. A task that runs again (a retry, the outbox's second delivery) skips the
    devices that have their row, so each device is told each thing once."""

    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="+")
    # What was told: "turn:<game>:<seq>", "over:<game>", a clock notice's kind and key, …
    key = models.CharField(max_length=100)
    refused = models.BooleanField(default=False, help_text="The push service refused it (4xx).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["subscription", "key"], name="push_sent_once"),
        ]

    def __str__(self) -> str:
        return f"{self.key} to subscription {self.subscription_id}"
