"""The arena listens for finished games (a consumer of the games app's durable events): for
an arena game it enqueues a task with the game's id, and the task counts the game once."""

from __future__ import annotations

from django.db.models import Q

from games import hooks


def on_game_finished(event: hooks.GameEvent) -> None:
    from bots.arena.models import ArenaPair
    from bots.arena.tasks import arena_game_finished

    if ArenaPair.objects.filter(Q(game_a_id=event.game_id) | Q(game_b_id=event.game_id)).exists():
        # A repeated event enqueues the same task id; the task counts a game only once.
        arena_game_finished.apply_async(
            args=[event.game_id], task_id=f"arena-game-finished:{event.game_id}"
        )


def install() -> None:
    hooks.on_game_finished(on_game_finished, name="bots.arena.count_finished_game")
