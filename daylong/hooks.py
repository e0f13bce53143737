"""Daylongs listen for finished games (``games.hooks``, through the outbox): a finished
table is scored by a task named after the event, so a repeated delivery enqueues it once
more at most, and the task itself scores a table once (docs/daylong.md)."""

from __future__ import annotations

from daylong.models import Table
from daylong.tasks import table_finished
from games import hooks as game_hooks


def on_game_finished(event: game_hooks.GameEvent) -> None:
    if Table.objects.filter(game_id=event.game_id).exists():
        # Routed to its queue by settings (CELERY_TASK_ROUTES).
        table_finished.apply_async(args=[event.game_id], task_id=f"daylong:{event.key}")


def install() -> None:
    game_hooks.on_game_finished(on_game_finished, name="daylong.table_finished")
