"""Rating tasks racing on real PostgreSQL: the ladder lock lets one rate at a time, in order."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from ladder.models import RatedGame
from ladder.recompute import ladder_recompute
from ladder.services import ladder_rate_game
from tests.conftest import require_service
from tests.ladder.helpers import finished_game, players
from tests.ladder.test_services import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_racing_tasks_rate_each_game_once_in_finishing_order() -> None:
    require_service(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    pool = players(8)
    games = [
        finished_game([pool[(i + k) % 8] for k in (0, 1, 2, 3)], winner=i % 2, minute=i)
        for i in range(12)
    ]
    barrier = threading.Barrier(6)
    rated: list[int] = []
    errors: list[BaseException] = []

    def worker(ids: list[int]) -> None:
        try:
            barrier.wait()
            for game_id in ids:
                rated.append(ladder_rate_game(game_id=game_id))
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    ids = [g.pk for g in reversed(games)]  # later games first: each pulls in earlier ones
    threads = [threading.Thread(target=worker, args=(ids[i::3] * 2,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert sum(rated) == 12  # every game rated once in all
    order = list(RatedGame.objects.order_by("seq").values_list("game_id", flat=True))
    assert order == [g.pk for g in games]
    incremental = snapshot()
    ladder_recompute()
    assert snapshot() == incremental
