from __future__ import annotations

import pytest

from tests.bots.conftest import worker_factory  # noqa: F401 - a real Celery worker


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Factories hash a password per user; the slow default hasher only costs time here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
