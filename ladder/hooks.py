"""The ladder listens for finished games (through `games.hooks`, after commit)."""

from __future__ import annotations

import logging

from games import hooks
from games.models import Game

log = logging.getLogger(__name__)

RATINGS_QUEUE = "ratings"


def enqueue_rating(game_id: int) -> None:
    """Send `rate_game` to the ratings queue (call only after the game's commit)."""
    from ladder.tasks import rate_game

    rate_game.apply_async(args=[game_id], queue=RATINGS_QUEUE)


def on_game_finished(event: hooks.GameEvent) -> None:
    # Unrated games never reach the ladder: no task for them.
    if Game.objects.filter(pk=event.game_id, rated=True).exists():
        enqueue_rating(event.game_id)


def install() -> None:
    hooks.on_game_finished(on_game_finished)
