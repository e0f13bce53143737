"""Serializers of the bots API: input shapes are checked here, rules in bots.services."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from bots.models import Bot, BotFault, BotKind, BotStatus
from games.models import AcceptFrom, InvitationRule


class BotCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=30)
    kind = serializers.ChoiceField(choices=BotKind.choices)
    description = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default=""
    )
    strategy = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    params = serializers.DictField(required=False, default=dict)
    webhook_url = serializers.CharField(
        max_length=500, required=False, allow_blank=True, default=""
    )


class BotUpdateSerializer(serializers.Serializer[Any]):
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    strategy = serializers.CharField(max_length=40, required=False)
    params = serializers.DictField(required=False)
    webhook_url = serializers.CharField(max_length=500, required=False)
    status = serializers.ChoiceField(choices=[BotStatus.ACTIVE, BotStatus.DISABLED], required=False)
    accept_invitations = serializers.ChoiceField(
        choices=AcceptFrom.choices,
        required=False,
        help_text="Answer invitations at once: from `anyone`, the `listed` players, or "
        "`nobody` (you answer each one).",
    )
    accept_invitations_from = serializers.ListField(
        child=serializers.CharField(max_length=30),
        required=False,
        max_length=100,
        help_text="The players whose invitations a `listed` bot accepts.",
    )


class BotSerializer(serializers.ModelSerializer[Bot]):
    """A bot as its owner sees it. The webhook secret never appears here."""

    name = serializers.CharField(source="player.name")
    player_id = serializers.IntegerField(source="player.pk")
    faults = serializers.SerializerMethodField()
    previous_secret_until = serializers.SerializerMethodField()
    accept_invitations = serializers.SerializerMethodField()
    accept_invitations_from = serializers.SerializerMethodField()

    class Meta:
        model = Bot
        fields = [
            "name",
            "player_id",
            "kind",
            "description",
            "strategy",
            "params",
            "webhook_url",
            "status",
            "consecutive_faults",
            "suspended_at",
            "secret_rotated_at",
            "previous_secret_until",
            "created_at",
            "updated_at",
            "faults",
            "accept_invitations",
            "accept_invitations_from",
        ]

    def get_previous_secret_until(self, bot: Bot) -> datetime | None:
        """Until when the previous secret signs too (None: only the current one signs)."""
        until = bot.previous_secret_until
        return until if until is not None and until > timezone.now() else None

    def get_faults(self, bot: Bot) -> int:
        return bot.faults.count()

    def get_accept_invitations(self, bot: Bot) -> str:
        rule = InvitationRule.objects.filter(player_id=bot.player_id).first()
        return rule.accept_from if rule else AcceptFrom.NOBODY

    def get_accept_invitations_from(self, bot: Bot) -> list[str]:
        rule = InvitationRule.objects.filter(player_id=bot.player_id).first()
        return sorted(p.name for p in rule.listed.all()) if rule else []


class RotateSecretSerializer(serializers.Serializer[Any]):
    keep_previous_hours = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=72,
        help_text="Keep the old secret signing beside the new one this long (0: it stops now).",
    )


class BotWithSecretSerializer(BotSerializer):
    """Answered once, at registration and rotation: the only time the secret is shown."""

    secret = serializers.SerializerMethodField()

    class Meta(BotSerializer.Meta):
        fields = [*BotSerializer.Meta.fields, "secret"]

    def get_secret(self, bot: Bot) -> str | None:
        secret = self.context.get("secret")
        return secret if isinstance(secret, str) else None


class BotFaultSerializer(serializers.ModelSerializer[BotFault]):
    game = serializers.CharField(source="game.public_id", allow_null=True, default=None)

    class Meta:
        model = BotFault
        fields = ["id", "kind", "detail", "game", "seq", "created_at"]


class StrategySerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    params = serializers.DictField()
