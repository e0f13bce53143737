"""Celery tasks of daylongs: thin and idempotent, each taking ids and re-reading the rows."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from daylong import services

_TRANSIENT = (OperationalError, InterfaceError)


@shared_task(
    name="daylong.tasks.table_finished",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=50,
    time_limit=60,
    autoretry_for=_TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
    ignore_result=True,
)
def table_finished(game_id: int) -> str:
    """Score a finished daylong table and rescore its instance (once per table)."""
    return services.table_finished(game_id=int(game_id))


@shared_task(
    name="daylong.tasks.close_event",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=110,
    time_limit=120,  # a large event calls off many tables in one transaction
    autoretry_for=_TRANSIENT,
    retry_backoff=True,
    max_retries=8,
    ignore_result=True,
)
def close_event(event_id: int) -> str:
    """End an event's window (once: a closed event is left alone)."""
    return services.event_close(event_id=int(event_id))


@shared_task(name="daylong.tasks.close_due", acks_late=True, ignore_result=True)
def close_due() -> int:
    """Beat: enqueue the end of every event whose window has ended."""
    due = services.events_due_close()
    for pk in due:
        close_event.apply_async(args=[pk], task_id=f"daylong-close:{pk}")
    return len(due)


@shared_task(name="daylong.tasks.make_daily", acks_late=True, ignore_result=True)
def make_daily() -> int:
    """Beat: the day's daylong (made once per UTC day; a second run finds it)."""
    return services.daily_event_ensure(day=timezone.now().date()).pk
