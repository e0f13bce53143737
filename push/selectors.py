"""Reads of the push app."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import Player
from push.models import PushSubscription


def subscriptions_for(player: Player) -> QuerySet[PushSubscription]:
    """The player's devices, oldest first."""
    return PushSubscription.objects.filter(player=player).order_by("created_at", "pk")
