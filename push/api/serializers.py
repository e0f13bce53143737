"""Shapes of the push API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from push.models import PushSubscription


class VapidKeySerializer(serializers.Serializer[Any]):
    enabled = serializers.BooleanField(help_text="Whether this site sends pushes at all.")
    public_key = serializers.CharField(
        help_text="The site's VAPID public key (base64url): the page's applicationServerKey."
    )


class SubscriptionKeysSerializer(serializers.Serializer[Any]):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class SubscriptionCreateSerializer(serializers.Serializer[Any]):
    """What the browser's ``PushSubscription.toJSON()`` gives, as it gives it."""

    endpoint = serializers.CharField(max_length=1000)
    keys = SubscriptionKeysSerializer()
    user_agent = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        help_text="The device's name on your list; by default made from the User-Agent.",
    )


class SubscriptionSerializer(serializers.ModelSerializer[PushSubscription]):
    class Meta:
        model = PushSubscription
        fields = ["id", "endpoint", "user_agent", "created_at", "last_success_at"]
