"""Daylongs listen for finished games (``games.hooks``, through the outbox): a finished
table is scored by a task named after the event, so a repeated delivery enqueues it once
more at most, and the task itself scores a table once (docs/daylong.md). They add a part
to each game's views (``games.extensions``): the event and stage a table belongs to."""

from __future__ import annotations

import functools
from typing import Any

from django.urls import reverse

from daylong import selectors
from daylong.models import Table
from daylong.tasks import table_finished
from games import extensions
from games import hooks as game_hooks
from games.models import Game


def on_game_finished(event: game_hooks.GameEvent) -> None:
    if Table.objects.filter(game_id=event.game_id).exists():
        # Routed to its queue by settings (CELERY_TASK_ROUTES).
        table_finished.apply_async(args=[event.game_id], task_id=f"daylong:{event.key}")


def daylong_part(game: Game) -> dict[str, Any] | None:
    """The event and stage of a daylong table (never a result: the event's page shows the
    reader what they may see)."""
    if game.move_count > 0 and _never_a_table(game.public_id):
        return None
    table = Table.objects.filter(game_id=game.pk).select_related("board", "entry__event").first()
    if table is None:
        return None
    event = table.entry.event
    return {
        "id": event.pk,
        "title": selectors.event_title(event),
        "board": table.board.number,
        "boards": event.boards.count(),
        "url": reverse("daylong:detail", args=[event.pk]),
    }


@functools.lru_cache(maxsize=8192)
def _never_a_table(public_id: str) -> bool:
    """Whether a game that has moves is no daylong table, remembered per process (the part
    is in every move's answer, and most games are not one). The fact cannot change: a
    table is created with its game, before any move."""
    return not Table.objects.filter(game__public_id=public_id).exists()


def install() -> None:
    game_hooks.on_game_finished(on_game_finished, name="daylong.table_finished")
    extensions.register_game_part("daylong", daylong_part)
