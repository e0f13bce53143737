"""Ratings in a real Celery worker (Redis broker, PostgreSQL): a finished game is rated once,
and redelivered tasks change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from ladder.models import RatedGame, RatingChange
from ladder.tasks import rate_game
from tests.bots import worker as bot_worker
from tests.ladder.helpers import played_game, players
from tests.ladder.test_services import snapshot

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ratings_worker(tmp_path: Path) -> Iterator[Path]:
    """A worker consuming only the "ratings" queue, on the test database; yields its log."""
    bot_worker.require_worker_services()
    import redis

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete("ratings")
    from backalley_site.celery import app

    app.conf.task_always_eager = False
    worker = bot_worker.Worker(tmp_path, queues="ratings", pool="solo", name="ratings-test")
    try:
        yield worker.start(timeout=90).log_path
    finally:
        worker.stop()
        broker.delete("ratings")


def succeeded(log_path: Path) -> list[str]:
    return [
        line
        for line in log_path.read_text(errors="replace").splitlines()
        if "ladder.tasks.rate_game" in line and "succeeded" in line
    ]


def test_a_finished_game_is_rated_by_the_worker_once(ratings_worker: Path) -> None:
    game = played_game(players(4), seed=21)  # its end enqueues the task, after commit
    bot_worker.wait_for(
        lambda: RatedGame.objects.filter(game=game).exists(), 90, "the game to be rated"
    )
    assert RatingChange.objects.filter(game=game).count() == 4
    first = snapshot()
    assert succeeded(ratings_worker)[-1].endswith(": 1")

    # The same task delivered again (twice): each run finds the game rated and does nothing.
    for _ in range(2):
        rate_game.apply_async(args=[game.pk])
    bot_worker.wait_for(lambda: len(succeeded(ratings_worker)) >= 3, 60, "the redeliveries")
    assert [line.rsplit(":", 1)[1].strip() for line in succeeded(ratings_worker)] == ["1", "0", "0"]
    assert snapshot() == first
