"""The beat schedule names tasks that exist, routed to the clock's queue by settings."""

from __future__ import annotations

import importlib

from celery import Task
from django.conf import settings


def test_every_clock_entry_of_the_beat_schedule_is_a_real_task_on_the_clock_queue() -> None:
    entries = {k: v for k, v in settings.CELERY_BEAT_SCHEDULE.items() if k.startswith("clock-")}
    assert set(entries) == {"clock-sweep-deadlines", "clock-send-reminders", "clock-daily-digests"}
    for entry in entries.values():
        module_name, _, attr = str(entry["task"]).rpartition(".")
        task = getattr(importlib.import_module(module_name), attr)
        assert isinstance(task, Task)
        assert task.name == entry["task"]
        # Routed in settings, not named in the entry (one place for queue names).
        assert "queue" not in entry.get("options", {})  # type: ignore[operator]
        assert _routed_queue(task.name) == "clock"


def _routed_queue(task_name: str) -> str:
    from backalley_site.celery import app

    route = app.amqp.router.route({}, task_name)
    return str(route["queue"].name)


def test_every_task_the_beat_schedule_names_is_registered() -> None:
    from backalley_site.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]
