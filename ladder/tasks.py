"""Celery tasks of the ladder: thin and idempotent, each taking ids and re-reading the rows."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from ladder.services import ladder_rate_game


@shared_task(
    name="ladder.tasks.rate_game",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=50,
    time_limit=60,
    # Only a lost or busy database is worth another try; a bug is not.
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=8,
)
def rate_game(game_id: int) -> int:
    """Apply the rating changes of a finished game (and any earlier one still waiting).

    Returns the number of games rated; a redelivered or repeated task rates nothing.
    """
    return ladder_rate_game(game_id=int(game_id))
