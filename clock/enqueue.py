"""Starting the clock's tasks from below ``clock.tasks``: by name, once the commit is made.

``clock.tasks`` is the top of the app (each task takes ids and calls a service or the
sweeper, which it imports). A service that must start one of those tasks after its
transaction commits names it instead of importing it: the names are declared here, and
the tasks take them from here (``@shared_task(name=enqueue.PLAY_ABANDONED_SEAT)``), so a
name cannot drift from its task. The task runs exactly as ``task.apply_async`` would run
it: routed by name (``CELERY_TASK_ROUTES``), with its own options, eagerly when the
settings say so.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.db import transaction

PLAY_ABANDONED_SEAT = "clock.tasks.play_abandoned_seat"
EXPIRE_TURN = "clock.tasks.expire_turn"
REMIND_TURN = "clock.tasks.remind_turn"
# Outgoing mail (clock.mails): routed apart, to queue "notify" (CELERY_TASK_ROUTES).
MAIL_SEND = "clock.mail.send"


def on_commit(
    name: str, *, args: tuple[Any, ...], task_id: str, robust: bool = False, **options: Any
) -> None:
    """Enqueue the task ``name`` with ``args`` once the current transaction commits (at once
    outside one). ``task_id`` makes a repeat of the same work the same task. ``robust``: a
    broker that cannot take it is logged, not raised into the committed caller (for work
    that a beat sweep finds again)."""
    signature = current_app.signature(name, args=args)
    transaction.on_commit(lambda: signature.apply_async(task_id=task_id, **options), robust=robust)
