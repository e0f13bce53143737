"""The arena listens for finished games (``games.hooks``, after commit) and for bots that
leave: it enqueues a task with the game's id; the task does the work, once."""

from __future__ import annotations

from django.db.models import Q

from games import hooks


def on_game_finished(event: hooks.GameEvent) -> None:
    from bots.arena.models import ArenaPair
    from bots.arena.tasks import arena_game_finished

    if ArenaPair.objects.filter(Q(game_a_id=event.game_id) | Q(game_b_id=event.game_id)).exists():
        arena_game_finished.delay(event.game_id)


def install() -> None:
    hooks.on_game_finished(on_game_finished)
