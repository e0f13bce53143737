"""Celery tasks of the arena: the matchmaker's beat tick and each finished arena game.

Both take ids (or nothing), re-read the rows and are safe to run twice.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from bots.arena import services


@shared_task(
    name="bots.arena.tick",
    acks_late=True,
    ignore_result=True,
    soft_time_limit=50,
    time_limit=60,
)
def arena_tick() -> dict[str, object]:
    """Bench faulty bots, play lapsed API-bot turns and start new duplicate pairs."""
    result = services.arena_tick()
    return {"eligible": result.eligible, "pairs": result.pairs, "benched": result.benched}


@shared_task(
    name="bots.arena.game_finished",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=5,
    retry_backoff=0.5,
    ignore_result=True,
)
def arena_game_finished(game_id: int) -> str:
    """Count a finished arena game for its bots; score the pair once both games are done."""
    return services.arena_game_finished(game_id=int(game_id))
