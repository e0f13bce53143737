"""The ladder listens for finished games (a consumer of the games app's durable events)."""

from __future__ import annotations

from games import hooks
from games.models import Game
from ladder.tasks import rate_game


def rating_task_id(game_id: int) -> str:
    return f"rate-game:{game_id}"


def enqueue_rating(game_id: int) -> None:
    """Send `rate_game` (routed to the "ratings" queue in settings); after the game's commit."""
    rate_game.apply_async(args=[game_id], task_id=rating_task_id(game_id))


def on_game_finished(event: hooks.GameEvent) -> None:
    # Unrated games never reach the ladder: no task for them. A repeated event enqueues the
    # same task id again; rate_game does nothing for a game it already rated.
    if Game.objects.filter(pk=event.game_id, rated=True).exists():
        enqueue_rating(event.game_id)


def install() -> None:
    hooks.on_game_finished(on_game_finished, name="ladder.rate_finished_game")
