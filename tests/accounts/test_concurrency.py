"""Concurrent first requests of one account make exactly one player (real PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from accounts.models import Player
from accounts.services import player_for_user
from tests.conftest import require_service
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def test_concurrent_player_for_user_makes_one_player() -> None:
    require_service(connection.vendor == "postgresql", "needs PostgreSQL (set DATABASE_URL)")
    user = UserFactory(username="racer")
    barrier = threading.Barrier(THREADS)
    results: list[int] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.append(player_for_user(user).pk)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert len(results) == THREADS and len(set(results)) == 1
    assert Player.objects.filter(user=user).count() == 1
    assert Player.objects.get(user=user).name == "racer"
