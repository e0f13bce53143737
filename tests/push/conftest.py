"""Fixtures for the push app: push on with the tests' keys, Celery run inline, no presence
mark left from an earlier test, and a push service on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.games.conftest import clear_presence
from tests.push.helpers import PUSH_SETTINGS, FakePushService


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def push_on(settings: Any) -> Iterator[None]:
    """Push on with the tests' key pair, its tasks run in the test, no stale presence."""
    from backalley_site.celery import app

    for name, value in PUSH_SETTINGS.items():
        setattr(settings, name, value)
    clear_presence()
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
    clear_presence()


@pytest.fixture
def push_service(push_on: None) -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.stop()
