"""Reads of the push app."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import Player
from push.models import PushSubscription


def subscriptions_for(player: Player) -> QuerySet[PushSubscription]:
    """The player's devices, oldest first."""
    return PushSubscription.objects.filter(player=player).order_by("created_at", "pk")


def seat_has_devices(*, game_id: int, seat: int) -> bool:
    """Whether the person in ``seat`` of the game has a device to tell."""
    return PushSubscription.objects.filter(
        player__seats__game_id=game_id, player__seats__position=seat
    ).exists()


def has_devices(*, player_id: int) -> bool:
    return PushSubscription.objects.filter(player_id=player_id).exists()


def game_has_devices(*, game_id: int) -> bool:
    """Whether anyone seated at the game has a device to tell."""
    return PushSubscription.objects.filter(player__seats__game_id=game_id).exists()
