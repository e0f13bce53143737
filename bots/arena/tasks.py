"""Celery tasks of the arena: the matchmaker's beat tick and each finished arena game.

Both take ids (or nothing), re-read the rows and are safe to run twice.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from bots.arena import services

# Tasks that write: run to the end once (a lost worker hands them back), and retry a
# dropped database connection a few times.
_RETRIED_ON_DB_ERRORS: dict[str, object] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "max_retries": 5,
    "retry_backoff": 0.5,
    "ignore_result": True,
}


@shared_task(
    name="bots.arena.tick",
    acks_late=True,
    ignore_result=True,
    soft_time_limit=50,
    time_limit=60,
)
def arena_tick() -> dict[str, object]:
    """Bench faulty bots, play lapsed API-bot turns and choose new tables; each table's
    pair is started by its own task (the tick's cost does not grow with the games it makes)."""
    plan = services.arena_plan()
    for table in plan.tables:
        arena_start_pair.delay(list(table))
    return {"eligible": plan.eligible, "tables": len(plan.tables), "benched": plan.benched}


@shared_task(name="bots.arena.start_pair", **_RETRIED_ON_DB_ERRORS)
def arena_start_pair(bot_ids: list[int]) -> int | None:
    """Start one duplicate pair; the four entries are locked and checked again, so a table
    that lost its room since the tick (or a task run twice) starts nothing."""
    pair = services.pair_start(bot_ids=[int(i) for i in bot_ids])
    return pair.pk if pair is not None else None


@shared_task(name="bots.arena.game_finished", **_RETRIED_ON_DB_ERRORS)
def arena_game_finished(game_id: int) -> str:
    """Count a finished arena game for its bots; score the pair once both games are done."""
    return services.arena_game_finished(game_id=int(game_id))
