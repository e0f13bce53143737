from __future__ import annotations

from collections.abc import Iterator

import pytest
from rest_framework.test import APIClient

from tests.bots.helpers import WebhookServer
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Factories hash a password per user; the slow default hasher only costs time here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(db):  # type: ignore[no-untyped-def]
    return UserFactory()


@pytest.fixture
def client_for(db):  # type: ignore[no-untyped-def]
    """An API client logged in (site session) as the given user."""

    def make(user) -> APIClient:  # type: ignore[no-untyped-def]
        client = APIClient()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def api(owner, client_for) -> APIClient:  # type: ignore[no-untyped-def]
    return client_for(owner)


@pytest.fixture
def hook_server() -> Iterator[WebhookServer]:
    server = WebhookServer().start()
    yield server
    server.stop()


@pytest.fixture
def allow_loopback(settings):  # type: ignore[no-untyped-def]
    settings.BOTS_ALLOW_PRIVATE_WEBHOOKS = True
    settings.BOTS_WEBHOOK_TIMEOUT_S = 1.5
    return settings


@pytest.fixture
def worker_factory(transactional_db, tmp_path):  # type: ignore[no-untyped-def]
    """Start real Celery workers on the test database; all are stopped at the end."""
    from tests.bots.worker import Worker, purge_broker, require_worker_services

    require_worker_services()
    purge_broker()
    started: list[Worker] = []

    def make(**env: str) -> Worker:
        w = Worker(tmp_path, env)
        started.append(w)
        return w

    yield make
    for w in started:
        w.stop()
    purge_broker()
