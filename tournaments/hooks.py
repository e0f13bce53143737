"""Tournaments listen for finished games (``games.hooks``, after commit) and add a part to
each game's views (``games.extensions``): which event, round and table it belongs to."""

from __future__ import annotations

import functools
from typing import Any

from django.urls import reverse

from games import extensions
from games import hooks as game_hooks
from games.models import Game
from tournaments.models import Table
from tournaments.selectors import game_tournament
from tournaments.tasks import game_finished


def on_game_finished(event: game_hooks.GameEvent) -> None:
    """Enqueue the round's bookkeeping with the game's id only. Delivery may repeat: the
    task is idempotent."""
    if Table.objects.filter(game_id=event.game_id).exists():
        # Routed to its queue by settings (CELERY_TASK_ROUTES).
        game_finished.apply_async(args=[event.game_id], task_id=f"tournaments:{event.key}")


def tournament_part(game: Game) -> dict[str, Any] | None:
    if game.move_count > 0 and _never_at_a_table(game.public_id):
        return None
    found = game_tournament(game.pk)
    if found is None:
        return None
    found["url"] = reverse("tournaments:detail", args=[found["id"]]) + f"#round-{found['round']}"
    return found


@functools.lru_cache(maxsize=8192)
def _never_at_a_table(public_id: str) -> bool:
    """Whether a game that has moves is outside every tournament, remembered per process:
    the part is in every move's answer, and most games are not in one. The fact cannot
    change: an event creates its games and their tables in one transaction, before any
    move. (Keyed by the public id, which is never reused; a game in an event is looked
    up each time, its event's name being the event's to change.)"""
    return not Table.objects.filter(game__public_id=public_id).exists()


def install() -> None:
    game_hooks.on_game_finished(on_game_finished, name="tournaments.round_game_finished")
    extensions.register_game_part("tournament", tournament_part)
