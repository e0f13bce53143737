"""Helpers for the arena tests: opted-in bots, and games finished without playing them."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from accounts.models import Player
from bots.arena.services import arena_settings_update
from bots.models import Bot, BotKind
from games.models import Game, GameStatus
from tests.factories import UserFactory


def entered_bot(name: str, *, kind: str = BotKind.HOSTED, owner: Any = None, **limits: Any) -> Bot:
    """A bot of its own owner, opted in with the given limits."""
    owner = owner or UserFactory()
    player = Player.objects.create(name=name, is_bot=True, owner=owner)
    fields: dict[str, Any] = {"strategy": "random"} if kind == BotKind.HOSTED else {}
    bot = Bot.objects.create(player=player, kind=kind, **fields)
    arena_settings_update(bot=bot, opted_in=True, **limits)
    return bot


def finish(game: Game, totals: tuple[int, int]) -> None:
    """Mark a game finished with these totals (the arena reads only the result)."""
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        total_0=totals[0],
        total_1=totals[1],
        winner=None if totals[0] == totals[1] else int(totals[1] > totals[0]),
        finished_at=timezone.now(),
        to_act=None,
    )
