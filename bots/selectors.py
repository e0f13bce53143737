"""Reads for bots."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet

from backalley_site.errors import NotFoundError
from bots.models import Bot, BotFault, BotKind


def bots_of(owner: AbstractBaseUser) -> QuerySet[Bot]:
    return Bot.objects.filter(player__owner=owner).select_related("player").order_by("id")


def bot_of(owner: AbstractBaseUser, name: str) -> Bot:
    """The caller's bot called ``name``; another owner's bot is simply not found."""
    try:
        return bots_of(owner).get(player__name__iexact=name)
    except Bot.DoesNotExist:
        raise NotFoundError(
            message=f"You have no bot called {name!r}.", extra={"name": name}
        ) from None


def faults_of(bot: Bot) -> QuerySet[BotFault]:
    return BotFault.objects.filter(bot=bot).select_related("game").order_by("-created_at", "-id")


def worker_bot_at_seat(game_id: int, position: int) -> Bot | None:
    """The hosted or webhook bot sitting at ``position``, if any (API bots play themselves)."""
    return (
        Bot.objects.filter(
            player__seats__game_id=game_id,
            player__seats__position=position,
            kind__in=[BotKind.HOSTED, BotKind.WEBHOOK],
        )
        .select_related("player")
        .first()
    )
