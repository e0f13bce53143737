"""Celery tasks of tournaments: thin and idempotent, each taking ids and re-reading the rows."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from tournaments import services
from tournaments.errors import BadTournamentState

logger = logging.getLogger(__name__)

_TRANSIENT = (OperationalError, InterfaceError)


@shared_task(
    name="tournaments.tasks.game_finished",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=110,
    time_limit=120,  # pairing a large round creates many games in one transaction
    autoretry_for=_TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
    ignore_result=True,
)
def game_finished(game_id: int) -> str:
    """Score the game's table; pair the next round when it was the round's last game."""
    return services.tournament_game_finished(game_id=int(game_id))


@shared_task(
    name="tournaments.tasks.start_tournament",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=110,
    time_limit=120,
    autoretry_for=_TRANSIENT,
    retry_backoff=True,
    max_retries=8,
    ignore_result=True,
)
def start_tournament(tournament_id: int) -> str:
    """Start an event whose time has come (once: a started event is left alone)."""
    try:
        services.tournament_start(tournament_id=int(tournament_id))
    except BadTournamentState as exc:
        logger.info("tournament %s not started: %s", tournament_id, exc.message)
        return exc.code
    return "started"


@shared_task(name="tournaments.tasks.start_due", acks_late=True, ignore_result=True)
def start_due() -> int:
    """Beat: enqueue the start of every event whose ``starts_at`` has passed."""
    due = services.tournaments_due()
    for pk in due:
        start_tournament.apply_async(args=[pk])
    return len(due)
