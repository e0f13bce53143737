"""Outgoing e-mail, kept until it is sent (docs/deployment.md, "Faults").

A notice's e-mail is an :class:`~clock.models.OutgoingMail` row, written by
:func:`mail_queue` in the transaction that decides the notice; once that commits, a task on
queue "notify" sends it (:func:`mail_send`). So a rolled-back notice never mails, the
request that made the notice never waits on the mail server, and a mail the server (or the
disk of the file backend) does not take is tried again, after ``MAIL_RETRY_BACKOFF_S``,
doubling up to 30 min, ``MAIL_MAX_ATTEMPTS`` tries in all, then given up and logged.

**One sender at a time.** A try begins by claiming the row: one conditional update moves
its ``next_attempt_at`` ``LEASE_S`` ahead and counts the try, only if the row is due. Of two
workers claiming it at once, PostgreSQL lets the second update see the first's row, no
longer due: it sends nothing. No transaction is held while the mail server answers.

**At least once.** A worker that dies between the server's acceptance and the row marked
sent leaves the claim to lapse; the beat's sweep (:func:`mails_send_due`, every
``MAIL_SWEEP_EVERY_S``) then sends it again, as it sends every row due for
``MAIL_LOST_AFTER_S`` that no task took (the task lost with its worker, or never enqueued
while the broker was away).
"""

from __future__ import annotations

import errno
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Player
from clock import enqueue
from clock.models import OutgoingMail

logger = logging.getLogger(__name__)

LEASE_S = 300.0  # a claimed row is its claimant's this long: beyond any one try's time
BACKOFF_MAX_S = 1800.0  # below the broker's visibility timeout, so a countdown is kept
SWEEP_BUDGET_S = 40.0  # one sweep sends for this long at most (its task's soft limit is 50 s)
SWEEP_BATCH = 200


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one try did: ``sent``, ``retry`` (again in ``retry_in`` seconds), ``given_up``,
    or ``not_due`` (sent already, claimed by another worker, erased, or not yet due)."""

    outcome: str
    retry_in: float | None = None


def mail_queue(*, player: Player, kind: str, address: str, subject: str, body: str) -> OutgoingMail:
    """Keep a mail to send to ``address`` once the current transaction commits."""
    mail = OutgoingMail.objects.create(
        player=player,
        kind=kind,
        address=address,
        subject=subject,
        body=body,
        next_attempt_at=timezone.now(),
    )
    # Robust: a broker that cannot take the task leaves the row to the beat's sweep.
    enqueue.on_commit(enqueue.MAIL_SEND, args=(mail.pk,), task_id=f"mail:{mail.pk}", robust=True)
    return mail


def error_kind(exc: BaseException) -> str:
    """What went wrong, in words that hold no secret: the exception's class, and an errno's
    name when there is one (an SMTP server's reply may quote an address or a login).

    >>> error_kind(OSError(errno.ENOSPC, "No space left on device"))
    'OSError:ENOSPC'
    >>> error_kind(TimeoutError())
    'TimeoutError'
    """
    kind = type(exc).__name__
    number = getattr(exc, "errno", None)
    if isinstance(number, int) and number in errno.errorcode:
        kind += f":{errno.errorcode[number]}"
    return kind[:64]


def backoff(attempts: int) -> float:
    """Seconds before the next try, after ``attempts`` tries failed."""
    return float(min(settings.MAIL_RETRY_BACKOFF_S * 2 ** max(attempts - 1, 0), BACKOFF_MAX_S))


def _claim(mail_id: int, now: datetime) -> OutgoingMail | None:
    claimed = OutgoingMail.objects.filter(
        pk=mail_id, sent_at__isnull=True, next_attempt_at__lte=now
    ).update(next_attempt_at=now + timedelta(seconds=LEASE_S), attempts=F("attempts") + 1)
    if not claimed:
        return None
    return OutgoingMail.objects.filter(pk=mail_id).first()


def mail_send(*, mail_id: int) -> Attempt:
    """Try to send the mail ``mail_id`` if it is due (see the module's docstring)."""
    mail = _claim(mail_id, timezone.now())
    if mail is None:
        return Attempt("not_due")
    mine = OutgoingMail.objects.filter(pk=mail.pk, sent_at__isnull=True)
    try:
        send_mail(
            mail.subject,
            mail.body,
            settings.DEFAULT_FROM_EMAIL,
            [mail.address],
            fail_silently=False,
        )
    except OSError as exc:  # smtplib's errors, refused or timed-out connections, a full disk
        kind = error_kind(exc)
        if mail.attempts >= settings.MAIL_MAX_ATTEMPTS:
            mine.update(next_attempt_at=None, last_error=kind)
            logger.error(
                "mail %s (%s): given up after %s tries, the last %s",
                mail.pk,
                mail.kind,
                mail.attempts,
                kind,
            )
            return Attempt("given_up")
        wait = backoff(mail.attempts)
        mine.update(next_attempt_at=timezone.now() + timedelta(seconds=wait), last_error=kind)
        logger.warning(
            "mail %s (%s): try %s failed (%s); again in %.0f s",
            mail.pk,
            mail.kind,
            mail.attempts,
            kind,
            wait,
        )
        return Attempt("retry", wait)
    except Exception as exc:  # not the server's doing (a header it cannot carry): never retried
        kind = error_kind(exc)
        mine.update(next_attempt_at=None, last_error=kind)
        # The kind only: the exception's words may quote the address.
        logger.error("mail %s (%s): given up, it cannot be sent (%s)", mail.pk, mail.kind, kind)
        return Attempt("given_up")
    mine.update(sent_at=timezone.now(), next_attempt_at=None, last_error="")
    return Attempt("sent")


def mails_send_due(*, now: datetime | None = None, budget_s: float = SWEEP_BUDGET_S) -> int:
    """Send the mails due for ``MAIL_LOST_AFTER_S`` that no task took; returns how many were
    sent. A failed one is given its next time as in :func:`mail_send`; this sweep, or a
    later one, tries it then."""
    now = now or timezone.now()
    lost = now - timedelta(seconds=settings.MAIL_LOST_AFTER_S)
    ids = list(
        OutgoingMail.objects.filter(sent_at__isnull=True, next_attempt_at__lte=lost)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    stop = time.monotonic() + budget_s
    sent = 0
    for mail_id in ids:
        if time.monotonic() > stop:
            break
        sent += mail_send(mail_id=mail_id).outcome == "sent"
    return sent


def mails_prune(*, now: datetime | None = None) -> int:
    """Drop the rows sent, or given up, ``MAIL_KEEP_DAYS`` ago; returns how many."""
    now = now or timezone.now()
    before = now - timedelta(days=settings.MAIL_KEEP_DAYS)
    done = Q(sent_at__lt=before) | Q(
        sent_at__isnull=True, next_attempt_at__isnull=True, created_at__lt=before
    )
    return OutgoingMail.objects.filter(done).delete()[0]
