"""Celery tasks of the games app: the outbox relay, the pruning of old rows, the expiry of
unanswered invitations and the nightly dump of the public records (beat only).

Queues are set in settings (``CELERY_TASK_ROUTES``), never at the call site.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from games import dumps, outbox
from games.invitations import invitations_expire
from games.models import Move

COMMON = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "max_retries": 3,
    "retry_backoff": True,
    "ignore_result": True,
}


@shared_task(name="games.tasks.relay_events", soft_time_limit=50, time_limit=60, **COMMON)
def relay_events() -> int:
    """Deliver the events their committing process did not (a crash, a failed consumer)."""
    total = 0
    while (n := outbox.relay()) == outbox.RELAY_BATCH:
        total += n
    return total + n


@shared_task(name="games.tasks.prune", soft_time_limit=240, time_limit=300, **COMMON)
def prune() -> dict[str, int]:
    """Drop delivered events and stored move answers older than their windows (settings)."""
    now = timezone.now()
    events = outbox.prune(before=now - timedelta(days=settings.GAMES_EVENTS_KEEP_DAYS))
    answers = Move.objects.filter(
        response__isnull=False,
        created_at__lt=now - timedelta(hours=settings.GAMES_MOVE_RESPONSE_KEEP_HOURS),
    ).update(response=None)
    return {"events": events, "responses": answers}


@shared_task(name="games.tasks.expire_invitations", soft_time_limit=100, time_limit=120, **COMMON)
def expire_invitations() -> int:
    """Mark unanswered invitations past their time expired and tell who invited."""
    return invitations_expire()


@shared_task(name="games.tasks.dump_games", soft_time_limit=3000, time_limit=3300, **COMMON)
def dump_games() -> dict[str, object]:
    """Write the nightly dump of every public record (games.dumps); run again the same day,
    it replaces that day's dump whole."""
    dump = dumps.dump_write()
    return {"name": dump.name, "games": dump.games, "size": dump.size, "sha256": dump.sha256}
