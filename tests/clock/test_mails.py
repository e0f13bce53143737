"""Outgoing mail (clock.mails): kept in the notice's transaction, sent once after its commit
by a task, tried again with backoff while the server (or the disk) refuses it, given up
after ``MAIL_MAX_ATTEMPTS``, sent by one worker when two claim it at once, found again by
the beat when its task was lost, and telling no more than the notice it carries."""

from __future__ import annotations

import errno
import logging
import re
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import connection, transaction

from backalley_engine.cards import NUM_CARDS, cards_str
from clock import mails
from clock.models import Notification, NotificationKind, OutgoingMail
from clock.reminders import deliver, send_due_reminders
from clock.tasks import mail_prune, mail_send_due
from tests.clock.helpers import DAY, T0, timed_game, to_act_player
from tests.factories import PlayerFactory

FAILING = "tests.clock.test_mails.FailingBackend"
SLOW = "tests.clock.test_mails.SlowBackend"


class FailingBackend(LocmemBackend):
    """The locmem backend behind a disk that is full for the next ``failures`` sends."""

    failures = 0

    def send_messages(self, messages: Any) -> int:
        if FailingBackend.failures > 0:
            FailingBackend.failures -= 1
            raise OSError(errno.ENOSPC, "No space left on device")
        return int(super().send_messages(messages))


class SlowBackend(BaseEmailBackend):
    """Counts what it sends, each taking a moment (so two senders would overlap)."""

    sent: list[str] = []
    lock = threading.Lock()

    def send_messages(self, messages: Any) -> int:
        threading.Event().wait(0.3)
        with SlowBackend.lock:
            SlowBackend.sent.extend(m.subject for m in messages)
        return len(messages)


@pytest.fixture(autouse=True)
def _locmem(settings: Any) -> Iterator[None]:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.MAIL_RETRY_BACKOFF_S = 30.0
    settings.MAIL_MAX_ATTEMPTS = 4
    settings.MAIL_LOST_AFTER_S = 60.0
    FailingBackend.failures = 0
    SlowBackend.sent = []
    mail.outbox = []
    yield
    FailingBackend.failures = 0


def _notice(player: Any, key: str = "k1", title: str = "Your move", body: str = "Soon.") -> bool:
    return deliver(
        player,
        NotificationKind.REMINDER,
        key,
        title,
        body,
        game=None,
        inapp=True,
        email=True,
    )


@pytest.mark.django_db
def test_a_notices_mail_is_sent_once_after_its_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    player = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        assert _notice(player)
        (row,) = OutgoingMail.objects.all()
        assert mail.outbox == []  # nothing leaves before the commit
    assert len(callbacks) == 2  # the listeners' signal, and the mail's task
    assert [(m.to, m.subject, m.body) for m in mail.outbox] == [
        ([player.user.email], "Your move", "Soon.")
    ]
    row.refresh_from_db()
    assert row.sent_at is not None and row.next_attempt_at is None
    assert (row.attempts, row.last_error, row.address) == (1, "", player.user.email)
    # Its task again (a second delivery by the broker), and the beat: nothing more.
    assert mails.mail_send(mail_id=row.pk).outcome == "not_due"
    with time_machine.travel(timedelta(hours=1)):
        assert mail_send_due.apply().get() == 0
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_rolled_back_notice_mails_nothing(django_capture_on_commit_callbacks: Any) -> None:
    player = PlayerFactory()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        _notice(player)
        raise RuntimeError("the caller's transaction fails after the notice")
    assert callbacks == []
    assert not OutgoingMail.objects.exists() and mail.outbox == []


@pytest.mark.django_db
def test_a_failing_backend_is_tried_again_with_backoff_until_it_works(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.EMAIL_BACKEND = FAILING
    FailingBackend.failures = 2
    player = PlayerFactory()
    with time_machine.travel(T0, tick=False) as traveller:
        with django_capture_on_commit_callbacks(execute=True):
            _notice(player)  # the first try, after the commit, fails: the disk is full
        row = OutgoingMail.objects.get()
        assert (row.attempts, row.last_error, row.sent_at) == (1, "OSError:ENOSPC", None)
        assert row.next_attempt_at == T0 + timedelta(seconds=30)
        assert mails.mail_send(mail_id=row.pk).outcome == "not_due"  # its backoff first
        traveller.shift(timedelta(seconds=30))
        assert mails.mail_send(mail_id=row.pk) == mails.Attempt("retry", 60.0)  # doubled
        traveller.shift(timedelta(seconds=60))
        assert mails.mail_send(mail_id=row.pk).outcome == "sent"  # the disk has room again
    row.refresh_from_db()
    assert (row.attempts, row.last_error, row.next_attempt_at) == (3, "", None)
    assert [m.to for m in mail.outbox] == [[player.user.email]]
    assert Notification.objects.filter(player=player).count() == 1  # the notice, once


@pytest.mark.django_db
def test_a_mail_is_given_up_after_its_last_try_and_that_is_logged(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.EMAIL_BACKEND = FAILING
    FailingBackend.failures = 100
    caplog.set_level(logging.WARNING, logger="clock.mails")
    player = PlayerFactory()
    with time_machine.travel(T0, tick=False) as traveller:
        _notice(player)  # its task is never run: the beat's sweep tries it, each time due
        outcomes = []
        for _ in range(6):
            traveller.shift(timedelta(hours=1))
            row = OutgoingMail.objects.get()
            if row.next_attempt_at is not None:
                outcomes.append(mails.mail_send(mail_id=row.pk).outcome)
    assert outcomes == ["retry", "retry", "retry", "given_up"]
    row.refresh_from_db()
    assert (row.attempts, row.sent_at, row.next_attempt_at) == (4, None, None)
    assert row.last_error == "OSError:ENOSPC"
    (record,) = [r for r in caplog.records if "given up" in r.getMessage()]
    assert record.levelno == logging.ERROR
    assert player.user.email not in record.getMessage()  # the log names the row, not whom
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_two_workers_claiming_one_mail_at_once_send_it_once(settings: Any) -> None:
    settings.EMAIL_BACKEND = SLOW
    player = PlayerFactory()
    row = mails.mail_queue(
        player=player, kind=NotificationKind.DIGEST, address="a@example.org", subject="s", body="b"
    )  # outside a transaction its task is sent at once: eager, it runs here; undo its send
    assert SlowBackend.sent == ["s"]
    SlowBackend.sent = []
    OutgoingMail.objects.filter(pk=row.pk).update(
        sent_at=None, next_attempt_at=row.created_at, attempts=0
    )
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def worker() -> None:
        try:
            start.wait(5)
            outcomes.append(mails.mail_send(mail_id=row.pk).outcome)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(outcomes) == ["not_due", "sent"]
    assert SlowBackend.sent == ["s"]
    assert OutgoingMail.objects.get(pk=row.pk).attempts == 1


@pytest.mark.django_db
def test_the_beat_sends_a_mail_whose_task_was_lost() -> None:
    player = PlayerFactory()
    with time_machine.travel(T0, tick=False) as traveller:
        with transaction.atomic():
            _notice(player, key="lost")  # the test's transaction never commits: no task ran
        assert mail_send_due.apply().get() == 0  # a task may still be on its way
        traveller.shift(timedelta(seconds=61))
        assert mail_send_due.apply().get() == 1
        assert mail_send_due.apply().get() == 0
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_the_beat_sends_a_mail_whose_worker_died_once_its_claim_lapses() -> None:
    player = PlayerFactory()
    with time_machine.travel(T0, tick=False) as traveller:
        _notice(player, key="died")
        row = OutgoingMail.objects.get()
        assert mails._claim(row.pk, T0) is not None  # a worker took it, then died
        traveller.shift(timedelta(seconds=61))
        assert mail_send_due.apply().get() == 0  # still that worker's
        traveller.shift(timedelta(seconds=mails.LEASE_S))
        assert mail_send_due.apply().get() == 1
    row.refresh_from_db()
    assert row.attempts == 2 and row.sent_at is not None
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_sent_mails_are_dropped_after_the_days_kept(settings: Any) -> None:
    settings.MAIL_KEEP_DAYS = 7
    player = PlayerFactory()
    with time_machine.travel(T0, tick=False) as traveller:
        _notice(player, key="sent")
        _notice(player, key="waiting")
        sent, waiting = OutgoingMail.objects.order_by("pk")
        assert mails.mail_send(mail_id=sent.pk).outcome == "sent"
        OutgoingMail.objects.filter(pk=waiting.pk).update(next_attempt_at=T0 + 30 * DAY)
        traveller.shift(6 * DAY)
        assert mail_prune.apply().get() == 0
        traveller.shift(2 * DAY)
        assert mail_prune.apply().get() == 1
    assert list(OutgoingMail.objects.values_list("pk", flat=True)) == [waiting.pk]


CARDS = set(cards_str(range(NUM_CARDS)))  # "AS", "TD", "LB", …


@pytest.mark.django_db(transaction=True)
def test_a_reminders_mail_says_what_its_notice_says_and_no_card_nor_the_seed() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=5, reserve=2)
        player = to_act_player(game.pk)
        traveller.move_to(T0 + 4 * DAY)
        assert send_due_reminders() == 1
    notice = Notification.objects.get(player=player, kind="reminder")
    row = OutgoingMail.objects.get(player=player)
    (sent,) = mail.outbox
    assert (row.subject, row.body) == (notice.title, notice.body) == (sent.subject, sent.body)
    assert sent.to == [row.address] == [player.user.email]
    text = f"{sent.subject}\n{sent.body}"
    assert game.seed not in text
    assert not set(re.findall(r"[0-9A-Za-z]+", text)) & CARDS
