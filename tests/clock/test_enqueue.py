"""The clock's services start its tasks by name (clock.enqueue), never by importing
clock.tasks: each name is a task the app registers, and enqueuing one runs that task's own
apply_async once the transaction commits."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app

from clock import enqueue, tasks

pytestmark = pytest.mark.django_db


def test_every_name_the_services_enqueue_is_a_registered_clock_task() -> None:
    names = [v for k, v in vars(enqueue).items() if k.isupper() and isinstance(v, str)]
    assert enqueue.PLAY_ABANDONED_SEAT in names
    assert enqueue.MAIL_SEND in names
    for name in names:
        # The clock's own tasks, and the outgoing mail's (named apart, for their queue).
        family, _, task = name.rpartition(".")
        assert family in {"clock.tasks", "clock.mail"}
        registered = current_app.tasks[name]
        assert registered.name == name and registered.run.__module__ == tasks.__name__


def test_a_task_named_by_a_service_is_sent_after_the_commit_only(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(
        tasks.play_abandoned_seat,
        "apply_async",
        lambda args=None, kwargs=None, **options: sent.append((args, options)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        enqueue.on_commit(enqueue.PLAY_ABANDONED_SEAT, args=(7, 12), task_id="clock-abandoned:7:12")
        assert sent == []  # nothing before the commit
    assert sent == [((7, 12), {"task_id": "clock-abandoned:7:12"})]
