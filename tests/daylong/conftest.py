from __future__ import annotations

from collections.abc import Iterator

import pytest

from games import feed, statecache


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Factories hash a password per user; the slow default hasher only costs time here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    statecache.forget()
    feed.forget()
    yield
    statecache.forget()
    feed.forget()


@pytest.fixture
def eager() -> Iterator[None]:
    """Tasks enqueued on commit (the bots' turns, the scoring of a finished table) run in
    the test, in the thread that committed."""
    from backalley_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
