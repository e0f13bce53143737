"""Fixtures for the clock: fresh engine caches, Celery run inline, fast passwords."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import feed, statecache


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
