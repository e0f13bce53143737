"""A crash anywhere loses no event: real processes are killed between a commit and the
delivery of its events, and in the middle of a delivery, and every consumer still sees
every event — exactly once in effect."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clock.models import GameClock
from games.models import Event, Game, Move
from games.tasks import relay_events
from tests.bots import worker as bot_worker  # a module import: its test_* helper is no test
from tests.bots.worker import ROOT, Worker, purge_broker, require_worker_services, wait_for
from tests.clock.helpers import play, timed_game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

RETRY_S = "1"


@pytest.fixture
def consumers(settings: Any) -> Iterator[Any]:
    require_worker_services()
    from tests.games import outbox_consumers

    settings.GAMES_EVENTS_RETRY_S = float(RETRY_S)
    outbox_consumers.install()
    outbox_consumers.reset()
    purge_broker()
    yield outbox_consumers
    outbox_consumers.uninstall()
    outbox_consumers.reset()
    purge_broker()


def committing_process_dies_after_commit(game: Game) -> subprocess.CompletedProcess[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": bot_worker.test_database_url(),
        "GAMES_EVENTS_RETRY_S": RETRY_S,
    }
    return subprocess.run(
        [sys.executable, "-m", "tests.games.outbox_crash", str(game.pk)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )


def relay_until(predicate: Any, what: str) -> None:
    """Send relay ticks (as beat does) until ``predicate`` holds."""

    def tick() -> Any:
        relay_events.apply_async()
        return predicate()

    wait_for(tick, 90, what, step=1.0)


def test_killing_the_committer_and_the_relaying_worker_loses_no_event(
    consumers: Any, tmp_path: Path
) -> None:
    worker = Worker(
        tmp_path,
        {"OUTBOX_TEST_KILL_ONCE": "1", "GAMES_EVENTS_RETRY_S": RETRY_S},
        include="tests.games.outbox_consumers",
        name="outbox-test",
    )
    worker.start(timeout=90)
    try:
        game = timed_game(days=1, rated=False)  # delivered here: the recorder, the clock's task

        # 1. The committing process is killed between its commit and the delivery.
        done = committing_process_dies_after_commit(game)
        assert done.returncode == -signal.SIGKILL, done.stdout + done.stderr
        lost = Event.objects.get(game=game, kind="move_committed", seq=1)
        assert Move.objects.filter(game=game, seq=1).exists() and lost.delivered_at is None
        assert f"move_committed:{game.pk}:1" not in consumers.calls()

        # 2. The relay (in the worker) takes the event and the worker dies mid-delivery.
        relay_until(
            lambda: worker.proc is not None and worker.proc.poll() is not None,
            "the worker to die mid-delivery",
        )
        assert consumers.killed() == f"move_committed:{game.pk}:1"
        lost.refresh_from_db()
        assert lost.delivered_at is None and lost.attempts >= 1

        # 3. Restarted, the worker's next relay delivers it again.
        worker.start(timeout=90)
        relay_until(
            lambda: Event.objects.filter(pk=lost.pk, delivered_at__isnull=False).exists(),
            "the relay to deliver the lost event",
        )

        # 4. Later moves take the fast path, in the committing process.
        for _ in range(3):
            play(game.pk)
        game.refresh_from_db()
        wait_for(
            lambda: GameClock.objects.filter(game=game, turn_seq=game.move_count).exists(),
            60,
            "the clock to follow the last move",
        )
    finally:
        worker.stop()

    events = list(Event.objects.filter(game=game).order_by("pk"))
    keys = [f"{e.kind}:{e.game_id}:{e.seq}" for e in events]
    assert [e.seq for e in events] == [0, 1, 2, 3, 4]
    assert all(e.delivered_at is not None for e in events)
    assert consumers.effects() == set(keys)  # every event taken, each once in effect
    calls = consumers.calls()
    assert calls[f"move_committed:{game.pk}:1"] == 2  # seen again after the crash
    assert all(calls[k] == 1 for k in keys if k != f"move_committed:{game.pk}:1")
    clock = GameClock.objects.get(game=game)
    assert (clock.turn_seq, clock.turn_seat) == (game.move_count, game.to_act)
    assert Move.objects.filter(game=game).count() == game.move_count == 4
