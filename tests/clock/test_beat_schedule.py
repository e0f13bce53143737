"""The beat schedule names tasks that exist, routed to the clock's queue by settings (the
outgoing mail's to queue "notify", with the pushes: they wait on the mail server)."""

from __future__ import annotations

import importlib

from celery import Task
from django.conf import settings


def test_every_clock_entry_of_the_beat_schedule_is_a_real_task_on_the_clock_queue() -> None:
    entries = {k: v for k, v in settings.CELERY_BEAT_SCHEDULE.items() if k.startswith("clock-")}
    queues = {
        "clock-sweep-deadlines": "clock",
        "clock-send-reminders": "clock",
        "clock-daily-digests": "clock",
        "clock-mail-send-due": "notify",
        "clock-mail-prune": "notify",
    }
    assert set(entries) == set(queues)
    tasks = importlib.import_module("clock.tasks")
    for key, entry in entries.items():
        task = next(t for t in vars(tasks).values() if getattr(t, "name", None) == entry["task"])
        assert isinstance(task, Task)
        # Routed in settings, not named in the entry (one place for queue names).
        assert "queue" not in entry.get("options", {})  # type: ignore[operator]
        assert _routed_queue(task.name) == queues[key], key


def _routed_queue(task_name: str) -> str:
    from backalley_site.celery import app

    route = app.amqp.router.route({}, task_name)
    return str(route["queue"].name)


def test_every_task_the_beat_schedule_names_is_registered() -> None:
    from backalley_site.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]
