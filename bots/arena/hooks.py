"""The arena listens for finished games (a consumer of the games app's durable events): for
an arena game it enqueues a task with the game's id, and the task counts the game once. And
for retired bots (``bots.signals.bot_retired``): a retired bot leaves the arena."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from bots.arena.models import ArenaPair
from bots.arena.services import arena_leave
from bots.arena.tasks import arena_game_finished
from bots.signals import bot_retired
from games import hooks


def on_game_finished(event: hooks.GameEvent) -> None:
    if ArenaPair.objects.filter(Q(game_a_id=event.game_id) | Q(game_b_id=event.game_id)).exists():
        # A repeated event enqueues the same task id; the task counts a game only once.
        arena_game_finished.apply_async(
            args=[event.game_id], task_id=f"arena-game-finished:{event.game_id}"
        )


def install() -> None:
    hooks.on_game_finished(on_game_finished, name="bots.arena.count_finished_game")
    bot_retired.connect(on_bot_retired, dispatch_uid="bots.arena.leave_when_retired")


def on_bot_retired(*, bot_id: int, **kwargs: Any) -> None:
    """In the retiring transaction: the bot leaves the arena with it."""
    arena_leave(bot_id=bot_id)
