"""Celery tasks for bots: thin wrappers that take ids and call :mod:`bots.runs`."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from bots import runs, stalled


@shared_task(
    name="bots.tasks.play_bot_turn",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=20,
    time_limit=30,
    # Only transient database trouble is retried; a bug is not hidden behind retries.
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=5,
    retry_backoff=0.2,
    retry_backoff_max=5,
    retry_jitter=True,
    ignore_result=True,
)
def play_bot_turn(game_id: int, expected_seq: int) -> str:
    """Play the hosted or webhook bot to act in ``game_id`` at move ``expected_seq``, and
    the hosted bots after it in a run (``bots.runs``)."""
    return runs.bot_run(game_id=game_id, expected_seq=expected_seq).outcome


@shared_task(name="bots.tasks.resume_stalled_turns", ignore_result=True)
def resume_stalled_turns() -> int:
    """The beat's backstop (bots.stalled): ask again for the bot turns left waiting."""
    turns = stalled.stalled_turns()
    for game_id, seq in turns:
        # An id of its own: the first task's id may still be known to the broker.
        play_bot_turn.apply_async(args=(game_id, seq), task_id=f"bot-turn-again:{game_id}:{seq}")
    return len(turns)
