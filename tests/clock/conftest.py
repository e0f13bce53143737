"""Fixtures for the clock: fresh engine caches, Celery run inline, fast passwords, and a real
worker on the "clock" queue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games import feed, statecache
from tests.bots import worker as bot_worker  # a module import: its test_* helper is no test here


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    statecache.forget()
    feed.forget()
    yield
    statecache.forget()
    feed.forget()


@pytest.fixture(autouse=True)
def _inline_celery() -> Iterator[None]:
    """Tasks enqueued on commit (the house bot for an abandoned seat) run in the test."""
    from backalley_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def clock_worker(tmp_path: Path) -> Iterator[Any]:
    """A worker process consuming only the "clock" queue, on the test database."""
    bot_worker.require_worker_services()
    import redis

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("clock", "unacked", "unacked_index")  # nothing left from an earlier run
    from backalley_site.celery import app

    app.conf.task_always_eager = False  # these tasks go through the broker
    worker = bot_worker.Worker(tmp_path, queues="clock", pool="solo", name="clock-test")
    try:
        yield worker.start(timeout=90)
    finally:
        worker.stop()
        broker.delete("clock", "unacked", "unacked_index")
