"""Celery tasks of the clock (queue "clock"): thin and idempotent, each taking ids.

``sweep_deadlines`` and the reminder tasks run from the beat schedule in settings; a
second run, or two ticks racing, changes nothing more (see ``clock.sweeper`` and
``clock.reminders``). All of them run on the "clock" queue (routed in settings).
``sync_clock`` follows each committed move (enqueued by ``clock.hooks``).
``play_abandoned_seat`` is enqueued on commit when a turn comes to
an abandoned seat, so the house bot answers at once instead of at the next tick;
``expire_turn`` and ``remind_turn`` are enqueued with an ETA for a turn due soon
(``clock.services.schedule_turn``), so short moves keep their time to the second.

The outgoing-mail tasks (``clock.mail.*``, ``clock.mails``) run on queue "notify" instead,
with the pushes: they wait on an outside service, the mail server, and must never hold up
the clock. ``mail_send`` is enqueued as each mail's notice commits, and again after a
backoff when the try failed; the beat's ``mail_send_due`` sends what no task took, and
``mail_prune`` drops the rows sent days ago.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from clock import enqueue, mails, reminders, sweeper
from clock.services import clock_sync
from games.models import Game

COMMON: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    # Only a lost or busy database is worth another try; a bug is not.
    "autoretry_for": (OperationalError, InterfaceError),
    "max_retries": 5,
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "ignore_result": True,
}


@shared_task(name="clock.tasks.sweep_deadlines", soft_time_limit=240, time_limit=300, **COMMON)
def sweep_deadlines() -> dict[str, int]:
    """End spent vacations and move for every seat out of time."""
    report = sweeper.sweep()
    return {
        "vacations_ended": report.vacations_ended,
        "moved": len(report.moved),
        "abandoned": len(report.abandoned),
        "skipped": report.skipped,
    }


@shared_task(name="clock.tasks.sync_clock", soft_time_limit=20, time_limit=30, **COMMON)
def sync_clock(game_id: int) -> bool:
    """Bring the game's clock up to its move log (nothing when already in step)."""
    return clock_sync(game_id=int(game_id)) is not None


@shared_task(name="clock.tasks.send_reminders", soft_time_limit=240, time_limit=300, **COMMON)
def send_reminders() -> int:
    """Remind players whose move has used 80% of its time (once per move)."""
    return reminders.send_due_reminders()


@shared_task(name="clock.tasks.send_daily_digests", soft_time_limit=540, time_limit=600, **COMMON)
def send_daily_digests() -> int:
    """Send each player (once per day) the list of games waiting on them."""
    return reminders.send_daily_digests()


@shared_task(name=enqueue.EXPIRE_TURN, soft_time_limit=20, time_limit=30, **COMMON)
def expire_turn(game_id: int, seq: int) -> str:
    """The house bot's move for the seat whose turn ``seq`` ran out (its ETA is the turn's
    final deadline); nothing if the turn was played, paused or is not yet due."""
    return sweeper.timeout_play(game_id=int(game_id), seq=int(seq), wait=True).outcome


@shared_task(name=enqueue.REMIND_TURN, soft_time_limit=20, time_limit=30, **COMMON)
def remind_turn(game_id: int, seq: int) -> int:
    """The reminder of turn ``seq`` (its ETA is the turn's reminder time); once per move."""
    if not Game.objects.filter(pk=game_id, move_count=seq).exists():
        return 0
    return reminders.send_due_reminders(game_id=int(game_id))


@shared_task(name=enqueue.PLAY_ABANDONED_SEAT, soft_time_limit=20, time_limit=30, **COMMON)
def play_abandoned_seat(game_id: int, seq: int) -> str:
    """The house bot's move for an abandoned seat to act at ``seq`` (nothing if done)."""
    if Game.objects.filter(pk=game_id, move_count=seq).exists():
        return sweeper.abandoned_play(game_id=int(game_id), seq=int(seq)).outcome
    return "already_played"


@shared_task(name=enqueue.MAIL_SEND, bind=True, soft_time_limit=50, time_limit=60, **COMMON)
def mail_send(self: Task, mail_id: int) -> str:
    """Send one outgoing mail if it is due; after a failed try, this task again once its
    backoff has passed (the beat's sweep is the backstop if that task is lost)."""
    attempt = mails.mail_send(mail_id=int(mail_id))
    if attempt.retry_in is not None and not self.request.is_eager:
        mail_send.apply_async(args=(mail_id,), countdown=attempt.retry_in)
    return attempt.outcome


@shared_task(name="clock.mail.send_due", soft_time_limit=50, time_limit=60, **COMMON)
def mail_send_due() -> int:
    """The beat's sweep: send the mails due that no task took."""
    return mails.mails_send_due()


@shared_task(name="clock.mail.prune", soft_time_limit=240, time_limit=300, **COMMON)
def mail_prune() -> int:
    """Drop the mails sent (or given up) ``MAIL_KEEP_DAYS`` ago."""
    return mails.mails_prune()
