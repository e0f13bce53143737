"""Bots: a bot is an ``accounts.Player`` (``is_bot``) plus how it plays (one ``Bot`` row).

Kinds:
- ``hosted``: a built-in strategy (``strategy`` + ``params``), played by Celery workers;
- ``webhook``: a worker POSTs the seat's view to ``webhook_url`` and expects an action back;
- ``api``: the owner plays the bot's seats through the same API as people, with a bot token.

The webhook secret is never stored: it is derived from the server's key and a per-bot random
``secret_nonce`` (see :mod:`bots.signing`), so a copy of the database alone cannot forge
requests; rotating the secret means drawing a new nonce.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy


class BotKind(models.TextChoices):
    HOSTED = "hosted", gettext_lazy("Hosted strategy")
    WEBHOOK = "webhook", gettext_lazy("Webhook")
    API = "api", gettext_lazy("Plays through the API")


class BotStatus(models.TextChoices):
    ACTIVE = "active", gettext_lazy("Active")
    SUSPENDED = "suspended", gettext_lazy("Suspended after repeated faults")
    DISABLED = "disabled", gettext_lazy("Disabled by its owner")


class Bot(models.Model):
    player = models.OneToOneField(
        "accounts.Player", on_delete=models.CASCADE, related_name="bot", primary_key=False
    )
    kind = models.CharField(max_length=8, choices=BotKind.choices)
    description = models.CharField(max_length=200, blank=True)
    strategy = models.CharField(max_length=40, blank=True, help_text="Hosted bots only.")
    params = models.JSONField(default=dict, blank=True, help_text="Hosted bots only.")
    webhook_url = models.URLField(max_length=500, blank=True, help_text="Webhook bots only.")
    secret_nonce = models.CharField(max_length=64, blank=True, editable=False)
    secret_rotated_at = models.DateTimeField(null=True, blank=True)
    # After a rotation the owner may keep the previous secret signing too, until this time,
    # so a running bot keeps verifying while its new secret is deployed (bots.services).
    previous_secret_nonce = models.CharField(max_length=64, blank=True, editable=False)
    previous_secret_until = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=BotStatus.choices, default=BotStatus.ACTIVE, db_index=True
    )
    consecutive_faults = models.PositiveIntegerField(default=0)
    suspended_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=[k.value for k in BotKind]), name="bot_kind_valid"
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="hosted") | ~models.Q(strategy=""),
                name="bot_hosted_has_strategy",
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="webhook")
                | (~models.Q(webhook_url="") & ~models.Q(secret_nonce="")),
                name="bot_webhook_has_url_and_secret",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} ({self.kind})"


class FaultKind(models.TextChoices):
    TIMEOUT = "timeout", gettext_lazy("No answer before the deadline")
    UNREACHABLE = "unreachable", gettext_lazy("Could not connect")
    HTTP_STATUS = "http_status", gettext_lazy("Answered with a non-2xx status")
    MALFORMED = "malformed", gettext_lazy("Answer was not a valid action")
    ILLEGAL = "illegal", gettext_lazy("Answered an illegal action")
    REFUSED_URL = "refused_url", gettext_lazy("URL points at a refused address")


class BotFault(models.Model):
    """One failed turn of a webhook bot: the house strategy played that move instead."""

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="faults")
    kind = models.CharField(max_length=12, choices=FaultKind.choices)
    detail = models.CharField(max_length=500, blank=True)
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One fault per bot per turn, even if a redelivered task calls the bot again.
            models.UniqueConstraint(fields=["bot", "game", "seq"], name="bot_fault_once_per_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.bot_id} {self.kind} @ {self.game_id}#{self.seq}"


# The arena's tables live in their own module (bots/arena/models.py).
from bots.arena.models import ArenaEntry, ArenaPair  # noqa: E402, F401
